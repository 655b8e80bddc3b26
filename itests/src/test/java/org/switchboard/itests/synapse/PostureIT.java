package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
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
    /** Secret of a message-auth key file that is valid JSON but group-readable. */
    private static final String GROUP_READABLE_SECRET = "posture-group-readable-hmac-4e1c";
    /** Text inside the malformed ACL policy and trust bundle: the refusal names the key, never the content. */
    private static final String MALFORMED_MARKER = "posture-malformed-content-9b2f";
    private static Process filesProcess;
    private static int filesPort;
    private static Path filesLog;
    private static HttpResponse<String> filesReadiness;
    private static Process teamProcess;
    private static Path teamLog;
    private static HttpResponse<String> teamReadiness;

    @BeforeAll
    static void start() throws Exception {
        Path work = Path.of(System.getProperty("hub.workDir", "target/hubs"));
        Path data = work.resolve("posture-" + ProcessHandle.current().pid());
        Files.createDirectories(data);
        log = data.resolveSibling(data.getFileName() + ".log");
        port = freePort();
        // the paranoid preset (synapse-advanced §6.2) also lacks its material: a second refusal, same path
        process = launch(data, port, log, Map.of("HUB_TOKEN", CONNECT_TOKEN, "HUB_POSTURE", "paranoid",
                "HUB_JAVA_OPTS", org.switchboard.itests.support.HubServer.TEST_JVM + " -Dhub.bind=0.0.0.0"));

        // the second hub (booted alongside): loopback, open posture, three security files each faulty
        Path files = Files.createDirectories(work.resolve("posture-files-" + ProcessHandle.current().pid()));
        Path keyFile = write(files.resolve("keys.json"), "rw-r-----", "{\"keys\":[{\"kid\":\"k1\",\"secret\":\""
                + GROUP_READABLE_SECRET + "\",\"senders\":[\"a/b\"]}]}");
        Path policy = write(files.resolve("policy.json"), "rw-------", "{\"rules\":[{\"permission\":\"" + MALFORMED_MARKER);
        Path trust = write(files.resolve("trust.json"), "rw-------", "{\"keys\":[\"" + MALFORMED_MARKER + "\"");
        Path filesData = Files.createDirectories(work.resolve("posture-files-hub-" + ProcessHandle.current().pid()));
        filesLog = filesData.resolveSibling(filesData.getFileName() + ".log");
        filesPort = freePort();
        filesProcess = launch(filesData, filesPort, filesLog, Map.of("HUB_MESSAGE_AUTH_KEY_FILE", keyFile.toString(),
                "HUB_ACL_POLICY", policy.toString(), "HUB_IDENTITY_TRUST", trust.toString(),
                "HUB_JAVA_OPTS", org.switchboard.itests.support.HubServer.TEST_JVM));

        // the third hub (booted alongside): the team-secure preset with none of its material
        Path teamData = Files.createDirectories(work.resolve("posture-team-" + ProcessHandle.current().pid()));
        teamLog = teamData.resolveSibling(teamData.getFileName() + ".log");
        int teamPort = freePort();
        teamProcess = launch(teamData, teamPort, teamLog, Map.of("HUB_POSTURE", "team-secure",
                "HUB_JAVA_OPTS", org.switchboard.itests.support.HubServer.TEST_JVM));

        Duration patience = Duration.ofSeconds(Long.getLong("hub.ready-timeout-seconds", 360));
        readiness = awaitOwnReadinessAnswer(process, port, log, patience);
        filesReadiness = awaitOwnReadinessAnswer(filesProcess, filesPort, filesLog, patience);
        teamReadiness = awaitOwnReadinessAnswer(teamProcess, teamPort, teamLog, patience);
    }

    private static int freePort() {
        return HubServer.freePort(); // claimed across the parallel failsafe forks
    }

    private static Path write(Path file, String mode, String content) throws IOException {
        Files.deleteIfExists(file);
        Files.writeString(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }

    /** run-hub on {@code port} with {@code data}, output to {@code log}; not waited for (HubServer would wait for UP). */
    private static Process launch(Path data, int port, Path log, Map<String, String> extra) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("bash", System.getProperty("hub.runScript"));
        Map<String, String> env = builder.environment();
        env.put("HUB_PORT", Integer.toString(port));
        env.put("HUB_DATA_DIR", data.toString());
        env.put("HUB_WAR", System.getProperty("hub.war"));
        env.put("HUB_PAYARA_JAR", System.getProperty("payara.microJar"));
        env.put("HUB_RAR", System.getProperty("hub.rar"));
        env.putAll(extra);
        env.remove("HUB_BIND"); // Payara itself stays on 127.0.0.1
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        return builder.start();
    }

    /** Waits until readiness reports this application's check (UP or DOWN). */
    private static HttpResponse<String> awaitOwnReadinessAnswer(Process process, int port, Path log, Duration timeout)
            throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        HttpRequest ready = HttpRequest.newBuilder(http(port, "/mphealth/ready")).timeout(Duration.ofSeconds(10)).build();
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
        for (Process p : new Process[] {process, filesProcess, teamProcess}) {
            if (p != null && p.isAlive()) {
                p.toHandle().destroy();
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    p.toHandle().destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    private static URI http(String path) {
        return http(port, path);
    }

    private static URI http(int port, String path) {
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
    void aMalformedOrGroupReadableSecurityFileRefusesStartNamingItsKeyNotItsContent() throws Exception {
        assertEquals(503, filesReadiness.statusCode(), filesReadiness.body());
        String body = filesReadiness.body().replace(" ", "");
        assertTrue(body.contains("\"synapse-posture\":\"false\""), body);
        String text = Files.readString(filesLog);
        for (String key : new String[] {"hub.message-auth.key-file", "hub.acl-policy", "hub.identity-trust"}) {
            // the ACL layer words it "refusing to start: <key>: …", the others "SYNAPSE refuses to serve: <key>: …"
            List<String> lines = text.lines().filter(l -> (l.contains("refuses to serve: " + key + ": ")
                    || l.contains("refusing to start: " + key + ": "))).toList();
            assertEquals(1, lines.size(), key + ": one refusal line; see " + filesLog + ": " + lines);
            assertTrue(lines.get(0).contains("SEVERE"), lines.get(0));
        }
        assertTrue(text.lines().anyMatch(l -> l.contains("hub.message-auth.key-file: the file is readable or writable by group")),
                "the group-readable key file is named as such");
        assertFalse(text.contains(GROUP_READABLE_SECRET), "the key file's secret never reaches the log");
        assertFalse(text.contains(MALFORMED_MARKER), "a malformed file's content never reaches the log");
        try (SynapseClient client = SynapseClient.connect(URI.create("ws://127.0.0.1:" + filesPort + "/"), "posture/files")) {
            assertEquals(1008, client.awaitClose(Duration.ofSeconds(10)));
        }
    }

    @Test
    void theTeamSecurePresetWithoutItsMaterialIsNotReadyAndNamesEachPieceItLacks() throws IOException {
        assertEquals(503, teamReadiness.statusCode(), teamReadiness.body());
        assertTrue(teamReadiness.body().contains("\"synapse-posture\":\"false\""), teamReadiness.body());
        String refusal = Files.readString(teamLog).lines().filter(l -> l.contains("hub.posture=team-secure requires"))
                .findFirst().orElseThrow(() -> new AssertionError("no posture refusal logged; see " + teamLog));
        assertTrue(refusal.contains("SEVERE"), refusal);
        for (String missing : new String[] {"hub.token", "hub.identity-trust", "hub.role-grants"}) {
            assertTrue(refusal.contains(missing), missing + " not named: " + refusal);
        }
    }

    @Test
    void theParanoidPresetNamesEachPieceItLacks() throws IOException {
        String refusal = Files.readString(log).lines().filter(l -> l.contains("hub.posture=paranoid requires")).findFirst()
                .orElseThrow(() -> new AssertionError("no posture refusal logged; see " + log));
        assertTrue(refusal.contains("SEVERE"), refusal);
        for (String missing : new String[] {"hub.message-auth.key-file", "hub.acl-policy", "TLS (a keystore", "HUB_TLS_KEYSTORE",
                "hub.tls-terminated-by-proxy"}) {
            assertTrue(refusal.contains(missing), missing + " not named: " + refusal);
        }
        assertFalse(refusal.contains("hub.token"), "the connect token is configured: " + refusal);
        assertFalse(refusal.contains("durable journal"), "the journal is durable: " + refusal);
    }
}
