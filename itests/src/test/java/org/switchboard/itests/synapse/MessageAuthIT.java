package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.switchboard.itests.support.HmacSigner;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Per-message HMAC authentication (synapse-advanced §6.3) on the packaged hub, configured as an
 * operator would: a key file written owner-only by the test, {@code HUB_MESSAGE_AUTH_KEY_FILE} and
 * {@code HUB_REQUIRE_MESSAGE_AUTH=true}. One hub for every case; the last case restarts it to show
 * the replay store is durable, then greps the log and data directory for the secrets.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MessageAuthIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String ALICE = "ma/alice";
    private static final String BOB = "ma/bob";
    private static final Map<String, String> SECRETS = Map.of(
            "k-alice", "alice-hmac-secret-7f3e9c",
            "k-bob", "bob-hmac-secret-21d0aa",
            "k-old", "revoked-hmac-secret-55b1");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static HubServer hub;
    private static Path keyFile;
    private static String acceptedBeforeRestart;

    @BeforeAll
    static void start() throws IOException {
        Path dir = Path.of(System.getProperty("hub.workDir", "target/hubs"))
                .resolve("message-auth-keys-" + ProcessHandle.current().pid());
        Files.createDirectories(dir);
        keyFile = dir.resolve("keys.json");
        Files.writeString(keyFile, "{\"keys\":["
                + "{\"kid\":\"k-alice\",\"secret\":\"" + SECRETS.get("k-alice") + "\",\"senders\":[\"" + ALICE + "\"]},"
                + "{\"kid\":\"k-bob\",\"secret\":\"" + SECRETS.get("k-bob") + "\",\"senders\":[\"" + BOB + "\"]},"
                + "{\"kid\":\"k-old\",\"secret\":\"" + SECRETS.get("k-old") + "\",\"senders\":[\"" + ALICE + "\"],"
                + "\"revoked\":true}]}");
        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-------"));
        // a window wide enough that a frame sent before the restart is still inside it afterwards:
        // its refusal must then come from the replay store, not the clock
        hub = HubServer.start(HubServer.env("HUB_MESSAGE_AUTH_KEY_FILE", keyFile.toString(),
                "HUB_REQUIRE_MESSAGE_AUTH", "true", "HUB_MESSAGE_AUTH_WINDOW_SECONDS", "300"));
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    // --- a client's side of §6.3: support.HmacSigner (CJ-UTF8 without auth.value, HMAC-SHA256, lowercase hex) ---

    /** {@code frame} from {@code sender} with an {@code auth} by {@code kid}, MAC'd with {@code secret}, at {@code timestamp}. */
    static String signed(JsonObjectBuilder frame, String sender, String kid, String secret, long timestamp) {
        return new HmacSigner(kid, secret).sign(frame, sender, timestamp).toString();
    }

    static String signed(JsonObjectBuilder frame, String sender, String kid) {
        return signed(frame, sender, kid, SECRETS.get(kid), now());
    }

    static long now() {
        return System.currentTimeMillis() / 1000;
    }

    static JsonObjectBuilder claim(String task) {
        return Json.createObjectBuilder().add("type", "claim").add("target", "System").add("task_id", task)
                .add("paths", Json.createArrayBuilder().add("ma/" + task));
    }

    private static JsonObject awaitType(SynapseClient c, String type, String task) {
        return c.expect(f -> type.equals(f.getString("type", "")) && task.equals(f.getString("task_id", "")), WAIT);
    }

    private static String refusal(SynapseClient c) {
        JsonObject error = c.expect(f -> "error".equals(f.getString("type", "")) && f.containsKey("verification_result"), WAIT);
        assertEquals(c.name(), error.getString("target"), "the refusal is private");
        return error.getString("verification_result");
    }

    // --- the cases ---

    @Test
    @Order(1)
    void aSignedClaimIsGranted() {
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), ALICE)) {
            alice.sendRaw(signed(claim("ma-ok"), ALICE, "k-alice"));
            assertEquals(ALICE, awaitType(alice, "claim_granted", "ma-ok").getString("owner"));
        }
    }

    @Test
    @Order(2)
    void everyFailureIsRefusedWithItsResultAndChangesNothing() {
        List<String> refusedTasks = new ArrayList<>();
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), ALICE);
             SynapseClient bob = SynapseClient.register(hub.webSocketUri(), BOB)) {
            alice.send(claim("ma-missing").add("sender", ALICE).build());
            assertEquals("missing", refusal(alice));
            refusedTasks.add("ma-missing");

            alice.sendRaw(signed(claim("ma-expired"), ALICE, "k-alice", SECRETS.get("k-alice"), now() - 600));
            assertEquals("expired", refusal(alice));
            refusedTasks.add("ma-expired");

            alice.sendRaw(signed(claim("ma-badvalue"), ALICE, "k-alice", "not-the-secret", now()));
            assertEquals("bad_authentication", refusal(alice));
            refusedTasks.add("ma-badvalue");

            alice.sendRaw(signed(claim("ma-unknown"), ALICE, "k-nobody", "whatever", now()));
            assertEquals("unknown_key", refusal(alice));
            refusedTasks.add("ma-unknown");

            alice.sendRaw(signed(claim("ma-revoked"), ALICE, "k-old"));
            assertEquals("revoked_key", refusal(alice));
            refusedTasks.add("ma-revoked");

            // bob's key, correctly used, but on alice's socket
            alice.sendRaw(signed(claim("ma-foreign"), ALICE, "k-bob"));
            assertEquals("sender_mismatch", refusal(alice));
            refusedTasks.add("ma-foreign");

            // a granted claim, then the same frame again: replayed, and bob can take the task after alice releases it
            String once = signed(claim("ma-replay"), ALICE, "k-alice");
            alice.sendRaw(once);
            awaitType(alice, "claim_granted", "ma-replay");
            alice.sendRaw(once);
            assertEquals("replayed", refusal(alice));

            // a release refusal echoes the operation key and task (§10.2)
            alice.send(Json.createObjectBuilder().add("type", "release").add("target", "System").add("sender", ALICE)
                    .add("task_id", "ma-replay").add("idem_key", "op-ma-1").build());
            JsonObject release = alice.expect(f -> "error".equals(f.getString("type", ""))
                    && "op-ma-1".equals(f.getString("release_operation_id", "")), WAIT);
            assertEquals("missing", release.getString("verification_result"));
            assertEquals("ma-replay", release.getString("task_id"));
            // ... and the claim is still alice's: bob is denied it
            bob.sendRaw(signed(claim("ma-replay"), BOB, "k-bob"));
            assertEquals("LEASE_LIVE", awaitType(bob, "claim_denied", "ma-replay").getString("reason_code"));

            // nothing a refused frame named was claimed: bob, signing correctly, is granted every one
            for (String task : refusedTasks) {
                bob.sendRaw(signed(claim(task), BOB, "k-bob"));
                assertEquals(BOB, awaitType(bob, "claim_granted", task).getString("owner"), task);
            }
            assertFalse(alice.isClosed(), "the connection stays usable");
        }
    }

    @Test
    @Order(3)
    void metricsCountEveryResult() throws Exception {
        HttpResponse<String> metrics = HTTP.send(HttpRequest.newBuilder(hub.http("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode());
        for (String result : new String[] {"ok", "missing", "expired", "bad_authentication", "unknown_key",
                "revoked_key", "sender_mismatch", "replayed"}) {
            String line = metrics.body().lines().filter(l -> l.startsWith("synapse_message_auth_total{result=\"" + result + "\"}"))
                    .findFirst().orElseThrow(() -> new AssertionError("no counter for " + result));
            assertTrue(Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)) >= 1, line);
        }
    }

    @Test
    @Order(4)
    void aNonceAcceptedBeforeARestartIsStillReplayedAfterIt() throws IOException {
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), ALICE)) {
            acceptedBeforeRestart = signed(claim("ma-durable"), ALICE, "k-alice");
            alice.sendRaw(acceptedBeforeRestart);
            awaitType(alice, "claim_granted", "ma-durable");
        }
        hub.kill9();
        hub.restart();
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), ALICE)) {
            alice.sendRaw(acceptedBeforeRestart);
            assertEquals("replayed", refusal(alice), "a restart reopened the nonce");
        }
    }

    @Test
    @Order(5)
    void noSecretReachesTheLogOrTheDataDirectory() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(hub.logFile());
        try (Stream<Path> data = Files.walk(hub.dataDir())) {
            data.filter(Files::isRegularFile).forEach(files::add);
        }
        assertTrue(files.size() > 1, "the data directory holds files");
        for (Path file : files) {
            byte[] bytes = Files.readAllBytes(file);
            String text = new String(bytes, StandardCharsets.ISO_8859_1); // byte-for-byte, binary files too
            for (String secret : SECRETS.values()) {
                assertFalse(text.contains(secret), "a secret is in " + file);
            }
        }
    }
}
