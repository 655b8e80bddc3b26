package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.SynapseClient;

/**
 * The off-loopback posture guard (§2.4) on the packaged server, without listening beyond
 * loopback: Payara listens on 127.0.0.1 as always, while the application is told (system property
 * {@code hub.bind}, as run-hub's {@code HUB_BIND} would) that it is bound to {@code 0.0.0.0}. The
 * hub has a connect token but /metrics is on without a metrics token, so it must refuse to serve
 * SYNAPSE. It is also started with {@code hub.posture=paranoid} and none of that preset's files, a
 * second reason to refuse. Started by hand rather than through {@code HubServer}, which waits for
 * readiness UP.
 */
class PostureIT {

    private static final String CONNECT_TOKEN = "posture-connect-t0ken";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static Process process;
    private static int port;
    private static Path log;
    private static HttpResponse<String> readiness;

    @BeforeAll
    static void start() throws Exception {
        Path work = Path.of(System.getProperty("hub.workDir", "target/hubs"));
        Path data = work.resolve("posture-" + ProcessHandle.current().pid());
        Files.createDirectories(data);
        log = data.resolveSibling(data.getFileName() + ".log");
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ProcessBuilder builder = new ProcessBuilder("bash", System.getProperty("hub.runScript"));
        Map<String, String> env = builder.environment();
        env.put("HUB_PORT", Integer.toString(port));
        env.put("HUB_DATA_DIR", data.toString());
        env.put("HUB_WAR", System.getProperty("hub.war"));
        env.put("HUB_PAYARA_JAR", System.getProperty("payara.microJar"));
        env.put("HUB_RAR", System.getProperty("hub.rar"));
        env.put("HUB_JAVA_OPTS", org.switchboard.itests.support.HubServer.TEST_JVM + " -Dhub.bind=0.0.0.0");
        env.put("HUB_TOKEN", CONNECT_TOKEN);
        // the paranoid preset (synapse-advanced §6.2) also lacks its material: a second refusal, same path
        env.put("HUB_POSTURE", "paranoid");
        env.remove("HUB_BIND"); // Payara itself stays on 127.0.0.1
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = builder.start();
        readiness = awaitOwnReadinessAnswer(Duration.ofSeconds(360));
    }

    /** Waits until readiness reports this application's check (UP or DOWN). */
    private static HttpResponse<String> awaitOwnReadinessAnswer(Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        HttpRequest ready = HttpRequest.newBuilder(http("/mphealth/ready")).timeout(Duration.ofSeconds(10)).build();
        String last = "no answer";
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("hub exited; see " + log);
            }
            try {
                HttpResponse<String> response = HTTP.send(ready, HttpResponse.BodyHandlers.ofString());
                last = response.statusCode() + " " + response.body();
                if (response.body().contains("\"switchboard\"") && response.body().contains("synapse-posture")) {
                    return response;
                }
            } catch (IOException e) {
                last = e.toString(); // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("no readiness answer within " + timeout + " (last: " + last + "); see " + log);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.toHandle().destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.toHandle().destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static URI http(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    @Test
    void readinessIsDownBecauseOfThePosture() {
        assertEquals(503, readiness.statusCode(), readiness.body());
        String body = readiness.body().replace(" ", "");
        assertTrue(body.contains("\"synapse-posture\":\"false\""), body); // MP Health renders data values as strings
        assertTrue(body.contains("\"status\":\"DOWN\""), body);
    }

    @Test
    void aSevereLineNamesTheMissingSettingButNeverTheToken() throws IOException {
        String text = Files.readString(log);
        String refusal = text.lines().filter(l -> l.contains("SYNAPSE refuses to serve")).findFirst()
                .orElseThrow(() -> new AssertionError("no refusal logged; see " + log));
        assertTrue(refusal.contains("SEVERE"), refusal);
        assertTrue(refusal.contains("hub.metrics-token"), refusal);
        assertFalse(refusal.contains("hub.token "), "the connect token is configured: " + refusal);
        assertFalse(text.contains(CONNECT_TOKEN), "the token value never reaches the log");
    }

    @Test
    void webSocketsAreClosedAndTheHttpSideEndpointsAnswer503() throws Exception {
        try (SynapseClient client = SynapseClient.connect(URI.create("ws://127.0.0.1:" + port + "/"), "posture/probe")) {
            assertEquals(1008, client.awaitClose(Duration.ofSeconds(10)));
        }
        for (String path : new String[] {"/metrics", "/health"}) {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(http(path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(503, response.statusCode(), path);
        }
    }

    @Test
    void theParanoidPresetNamesEachPieceItLacks() throws IOException {
        String refusal = Files.readString(log).lines().filter(l -> l.contains("hub.posture=paranoid requires")).findFirst()
                .orElseThrow(() -> new AssertionError("no posture refusal logged; see " + log));
        assertTrue(refusal.contains("SEVERE"), refusal);
        for (String missing : new String[] {"hub.message-auth.key-file", "hub.acl-policy", "hub.tls-terminated-by-proxy"}) {
            assertTrue(refusal.contains(missing), missing + " not named: " + refusal);
        }
        assertFalse(refusal.contains("hub.token"), "the connect token is configured: " + refusal);
        assertFalse(refusal.contains("durable journal"), "the journal is durable: " + refusal);
    }
}
