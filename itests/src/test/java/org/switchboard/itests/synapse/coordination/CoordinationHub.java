package org.switchboard.itests.synapse.coordination;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.switchboard.itests.support.HubServer;

/** Starts a hub for the coordination tests and reads its HTTP endpoints. */
final class CoordinationHub {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private CoordinationHub() {
    }

    /** A hub on its own H2 file with write-through commits (so SIGKILL loses nothing acknowledged). */
    static HubServer start(String label) {
        return start(label, Map.of());
    }

    /** {@link #start(String)} with extra environment (configuration keys such as {@code HUB_CLAIMS_MAX_PER_PRINCIPAL}). */
    static HubServer start(String label, Map<String, String> extraEnv) {
        Map<String, String> env = new java.util.HashMap<>(extraEnv);
        env.put("HUB_DB_URL", "jdbc:h2:file:" + dbDir(label) + "/switchboard;DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0");
        return awaitReady(HubServer.start(env));
    }

    /** The directory of the H2 file of the hub started with {@code label} by this JVM. */
    static Path dbDir(String label) {
        return Path.of(System.getProperty("hub.workDir", "target/hubs"))
                .resolve(label + "-db-" + ProcessHandle.current().pid()).toAbsolutePath();
    }

    /** Polls the hub's own {@code /health} until it answers 200 (the application finished deploying). */
    static HubServer awaitReady(HubServer hub) {
        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (get(hub, "/health").statusCode() == 200) {
                    return hub;
                }
            } catch (IOException e) {
                // not up yet
            }
            sleep(250);
        }
        throw new IllegalStateException("hub not ready; see " + hub.logFile());
    }

    static HttpResponse<String> get(HubServer hub, String path) throws IOException {
        try {
            return HTTP.send(HttpRequest.newBuilder(hub.http(path)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    static JsonObject health(HubServer hub) throws IOException {
        try (JsonReader r = Json.createReader(new StringReader(get(hub, "/health").body()))) {
            return r.readObject();
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
