package org.switchboard.itests.redsyn;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** A small REDSYN HTTP client on the JDK HTTP client, for black-box tests. */
public final class RedsynClient {

    /** An HTTP answer: status, headers and the JSON body (null when not JSON). */
    public record Reply(int status, Map<String, java.util.List<String>> headers, String text) {

        public JsonObject json() {
            try (JsonReader r = Json.createReader(new StringReader(text))) {
                return r.readObject();
            }
        }

        public String header(String name) {
            for (var e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }

        public JsonArray items() {
            return json().getJsonArray("items");
        }

        public String error() {
            return json().getString("error");
        }

        @Override
        public String toString() {
            return status + " " + text;
        }
    }

    private final HttpClient http;
    private final String base;

    public RedsynClient(String base) {
        this.base = base;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).version(HttpClient.Version.HTTP_1_1).build();
    }

    /** Sends a request; {@code body} is JSON text or null. Extra headers as name, value pairs. */
    public Reply call(String method, String path, String token, Object body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        boolean hasType = false;
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
            hasType |= headers[i].equalsIgnoreCase("Content-Type");
        }
        String text = body == null ? null : body instanceof JsonValue v ? v.toString() : body.toString();
        if (text != null && !hasType) {
            b.header("Content-Type", "application/json");
        }
        b.method(method, text == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(text));
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.headers().map(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Reply get(String path, String token, String... headers) {
        return call("GET", path, token, null, headers);
    }

    public Reply post(String path, String token, Object body, String... headers) {
        return call("POST", path, token, body, headers);
    }

    public Reply put(String path, String token, Object body, String... headers) {
        return call("PUT", path, token, body, headers);
    }

    /** Parses JSON text. */
    public static JsonStructure parse(String text) {
        try (JsonReader r = Json.createReader(new StringReader(text))) {
            return r.read();
        }
    }
}
