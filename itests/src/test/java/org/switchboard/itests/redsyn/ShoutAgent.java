package org.switchboard.itests.redsyn;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The protocol document's example agent, in Java with only the JDK HTTP client: it announces itself
 * as listening, takes requests with long polling (wait 25 s, lease 300 s), answers each in capitals
 * and confirms everything it took.
 */
public final class ShoutAgent implements Runnable {

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final String relay;
    private final String me;
    private final String token;
    private final SecureRandom random = new SecureRandom();
    private volatile boolean running = true;
    private volatile int answered;

    /**
     * @param relay base URL, e.g. {@code http://127.0.0.1:8876/redsyn/v1}
     * @param me    the agent's full address
     * @param token the node token (the document's REDSYN_TOKEN secret)
     */
    public ShoutAgent(String relay, String me, String token) {
        this.relay = relay;
        this.me = me;
        this.token = token;
    }

    /** What the agent does with a request: the text in capitals. */
    static String answer(JsonObject e) {
        return e.getJsonObject("body").getString("text").toUpperCase(Locale.ROOT);
    }

    /** Announces the agent; every take after this counts as its heartbeat. Returns the HTTP status. */
    public int announce() throws IOException, InterruptedException {
        JsonObject body = Json.createObjectBuilder().add("listening", true).add("description", "answers in capitals").build();
        return send("PUT", relay + "/agents/" + me, body.toString(), 30).statusCode();
    }

    @Override
    public void run() {
        while (running) {
            try {
                // wait up to 25 s; what is taken stays ours for 300 s, then goes back to the queue
                HttpResponse<String> r = send("GET", relay + "/inbox/" + me + "?wait=25&lease=300", null, 40);
                if (r.statusCode() != 200) {
                    Thread.sleep(1000);
                    continue;
                }
                JsonArrayBuilder taken = Json.createArrayBuilder();
                int count = 0;
                for (JsonValue item : parse(r.body()).getJsonArray("items")) {
                    JsonObject e = item.asJsonObject();
                    if (e.getString("kind").equals("request")) {
                        JsonObject reply = Json.createObjectBuilder().add("v", 1).add("id", "r" + token(16)).add("kind", "reply")
                                .add("from", me).add("reply_to", e.getString("id"))
                                .add("body", Json.createObjectBuilder().add("type", "text/plain").add("text", answer(e))).build();
                        HttpResponse<String> s = send("POST", relay + "/messages", reply.toString(), 30);
                        if (s.statusCode() == 201) {
                            answered++;
                        }
                    }
                    taken.add(e.getString("id"));
                    count++;
                }
                // a reply already closes its request; the ack confirms everything else that was taken
                if (count > 0) {
                    send("POST", relay + "/inbox/" + me + "/ack", Json.createObjectBuilder().add("ids", taken).build().toString(), 30);
                }
            } catch (IOException e) {
                sleepQuietly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Asks the loop to stop after its current poll. */
    public void stop() {
        running = false;
    }

    /** Requests answered so far. */
    public int answered() {
        return answered;
    }

    private HttpResponse<String> send(String method, String url, String body, int timeoutSeconds) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(timeoutSeconds))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Redsyn-Version", "2026-09-25")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String token(int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private static JsonObject parse(String text) {
        try (JsonReader r = Json.createReader(new StringReader(text))) {
            return r.readObject();
        }
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
