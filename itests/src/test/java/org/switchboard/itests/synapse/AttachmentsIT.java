package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.support.SecuredHub.ownerOnlyPath;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Scoped attachments (synapse-advanced §3) on two hubs. The default hub lacks the §3.1 security
 * posture: even with {@code hub.attachments.dir} set, the store is not opened, every
 * {@code attachment_*} verb answers a private {@code attachment_result} {@code ok:false}
 * {@code "attachments disabled"}, the socket stays usable, and {@code /metrics} counts the refusals.
 * The secure hub has the whole posture, configured as an operator would (connect token, identity
 * trust bundle with required binding, HMAC keys with required message auth, ACL policy with required
 * ACL, role grants; every file 0600): clients sign their registration and HMAC every attachment frame.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AttachmentsIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final List<String> VERBS = List.of("attachment_begin", "attachment_chunk", "attachment_commit",
            "attachment_abort", "attachment_info", "attachment_read", "attachment_ref", "attachment_gc");
    private static final String TOKEN = "attachments-it-connect-token";
    private static final String ALICE_SECRET = "attachments-it-alice-hmac-5c2e";
    private static final String BOB_SECRET = "attachments-it-bob-hmac-9a41";
    private static final IdentityBindingIT.Key ACME_KEY = new IdentityBindingIT.Key(7);
    private static final int CHUNK = 32 * 1024;
    /**
     * Patience for one answer of the pipelined 5 MiB transfer: every read hashes the whole object, and
     * right after a restart a cold JVM on a busy 2-core machine has taken longer than {@link #WAIT}.
     */
    private static final Duration BULK_WAIT = Duration.ofSeconds(120);
    /** Requests of the 5 MiB transfer in flight at once. */
    private static final int WINDOW = 8;
    private static HubServer hub;
    private static Path attachmentsDir;
    private static HubServer secure;
    private static Path secureStore;
    private static String bigDigest;

    @BeforeAll
    static void start() throws Exception {
        attachmentsDir = Files.createTempDirectory("attachments-it").resolve("store");
        // the full §3.1 posture; createTempDirectory is owner-only, as the store requires of its parent
        Path dir = Files.createTempDirectory("attachments-it-secure");
        secureStore = dir.resolve("store");
        Map<String, String> secureEnv = HubServer.env("HUB_TOKEN", TOKEN, "HUB_ATTACHMENTS_DIR", secureStore.toString(),
                "HUB_IDENTITY_TRUST", ownerOnlyPath(dir.resolve("trust.json"), "{\"keys\":[{\"key_id\":\"acme-key\","
                        + "\"public_key\":\"" + ACME_KEY.publicBase64() + "\",\"senders\":[\"ACME/alice\",\"ACME/bob\","
                        + "\"ACME/old\"],\"projects\":[\"ACME\"]}]}"),
                "HUB_REQUIRE_IDENTITY_BINDING", "true",
                "HUB_MESSAGE_AUTH_KEY_FILE", ownerOnlyPath(dir.resolve("keys.json"), "{\"keys\":["
                        + "{\"kid\":\"att-alice\",\"secret\":\"" + ALICE_SECRET + "\",\"senders\":[\"ACME/alice\",\"ACME/old\"]},"
                        + "{\"kid\":\"att-bob\",\"secret\":\"" + BOB_SECRET + "\",\"senders\":[\"ACME/bob\"]}]}"),
                "HUB_REQUIRE_MESSAGE_AUTH", "true",
                // wide enough that a frame queued behind a busy 2-core machine is not refused as expired
                "HUB_MESSAGE_AUTH_WINDOW_SECONDS", "300",
                "HUB_ACL_POLICY", ownerOnlyPath(dir.resolve("policy.json"), "{\"rules\":["
                        + "{\"permission\":\"attachment-write\",\"target_kind\":\"attachment\",\"target_pattern\":\"ACME\",\"namespace\":\"ACME\"},"
                        + "{\"permission\":\"attachment-read\",\"target_kind\":\"attachment\",\"target_pattern\":\"ACME\",\"namespace\":\"ACME\"}]}"),
                "HUB_REQUIRE_ACL", "true",
                // bob passes the ACL but holds no role grant
                "HUB_ROLE_GRANTS", ownerOnlyPath(dir.resolve("grants.json"), "{\"grants\":["
                        + "{\"role\":\"ACME/attachment-write\",\"identities\":[\"ACME/alice\",\"ACME/old\"]},"
                        + "{\"role\":\"ACME/attachment-read\",\"identities\":[\"ACME/alice\",\"ACME/old\"]}]}"));
        // both hubs boot side by side
        List<HubServer> hubs = HubServer.startAll(List.of(Map.of("HUB_ATTACHMENTS_DIR", attachmentsDir.toString()), secureEnv));
        hub = hubs.get(0);
        secure = hubs.get(1);
    }

    @AfterAll
    static void stop() {
        for (HubServer server : new HubServer[] {hub, secure}) {
            if (server != null) {
                server.stop();
            }
        }
    }

    // --- a client of the secure hub: signed registration (§6.5), HMAC on every attachment frame (§6.3) ---

    private static SynapseClient login(String name, int version) {
        SynapseClient client = SynapseClient.connect(secure.webSocketUri(), name);
        client.sendRaw(ACME_KEY.registration(name, "acme-key", TOKEN,
                Json.createObjectBuilder().add("protocol_version", version).build()));
        client.expect(f -> "presence_update".equals(f.getString("type", "")) && name.equals(f.getString("agent", "")), WAIT);
        return client;
    }

    private static String kid(SynapseClient client) {
        return "ACME/bob".equals(client.name()) ? "att-bob" : "att-alice";
    }

    /** Sends a signed {@code type} request in scope ACME and returns its {@code attachment_result}. */
    private static JsonObject call(SynapseClient client, String type, JsonObjectBuilder fields) {
        send(client, type, fields);
        return result(client, type, WAIT);
    }

    /** Sends a signed {@code type} request in scope ACME without waiting (answers come in order). */
    private static void send(SynapseClient client, String type, JsonObjectBuilder fields) {
        String secret = "att-bob".equals(kid(client)) ? BOB_SECRET : ALICE_SECRET;
        client.sendRaw(MessageAuthIT.signed(fields.add("type", type).add("target", "System").add("payload", "")
                .add("scope", "ACME"), client.name(), kid(client), secret, MessageAuthIT.now()));
    }

    /** The next {@code attachment_result} for {@code type}; a refusal at an earlier step fails the test. */
    private static JsonObject result(SynapseClient client, String type, Duration wait) {
        JsonObject answer = client.expect(f -> "error".equals(f.getString("type", ""))
                || "attachment_result".equals(f.getString("type", "")) && type.equals(f.getString("operation", "")), wait);
        assertEquals("attachment_result", answer.getString("type"), answer.toString());
        return answer;
    }

    private static String ok(JsonObject result) {
        assertTrue(result.getBoolean("ok"), result.toString());
        return result.toString();
    }

    private static String error(JsonObject result) {
        assertFalse(result.getBoolean("ok"), result.toString());
        return result.getString("error");
    }

    private static JsonObjectBuilder begin(String digest, long length) {
        return Json.createObjectBuilder().add("digest", digest).add("length", length)
                .add("media_type", "application/octet-stream").add("provenance", "it:attachments")
                .add("expires_at", MessageAuthIT.now() + 86_400);
    }

    private static JsonObjectBuilder chunk(String uploadId, long offset, byte[] bytes, int from, int length) {
        return Json.createObjectBuilder().add("upload_id", uploadId).add("offset", offset)
                .add("body", Base64.getEncoder().encodeToString(Arrays.copyOfRange(bytes, from, from + length)));
    }

    private static JsonObjectBuilder digestOnly(String digest) {
        return Json.createObjectBuilder().add("digest", digest);
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    private static long stagedFiles() throws IOException {
        try (Stream<Path> files = Files.list(secureStore.resolve("staging"))) {
            return files.count();
        }
    }

    @Test
    @Order(0)
    void everyVerbAnswersAttachmentsDisabledPrivatelyAndTheSocketStaysUsable() throws Exception {
        JsonObject v4 = Json.createObjectBuilder().add("protocol_version", 4).build();
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "ACME/alice", v4);
             SynapseClient bob = SynapseClient.register(hub.webSocketUri(), "ACME/bob")) {
            for (String verb : VERBS) {
                alice.send(SynapseClient.frame(verb, "System", "").add("scope", "ACME")
                        .add("digest", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
                        .add("length", 4).add("media_type", "text/plain").add("provenance", "ci:run/551")
                        .add("expires_at", System.currentTimeMillis() / 1000.0 + 3600)
                        .add("upload_id", "0".repeat(48)).add("offset", 0).add("body", "dGVzdA=="));
                JsonObject result = alice.expect(f -> "attachment_result".equals(f.getString("type", "")), WAIT);
                assertEquals(Set.of("sender", "target", "type", "payload", "timestamp", "hub_id", "operation", "ok", "error"),
                        result.keySet(), result.toString());
                assertEquals(verb, result.getString("operation"));
                assertFalse(result.getBoolean("ok"));
                assertEquals("attachments disabled", result.getString("error"));
                assertEquals("", result.getString("payload"));
                assertEquals("ACME/alice", result.getString("target"));
            }
            // a frame missing every field, from a client that negotiated no version: the same answer
            bob.send(SynapseClient.frame("attachment_read", "System", ""));
            JsonObject bare = bob.expect(f -> "attachment_result".equals(f.getString("type", "")), WAIT);
            assertEquals("attachments disabled", bare.getString("error"));
            // still usable, and nothing was broadcast to the other socket
            alice.send(SynapseClient.frame("chat", "ACME/bob", "after the refusals"));
            bob.expect(f -> "chat".equals(f.getString("type", "")) && "after the refusals".equals(f.getString("payload", "")), WAIT);
            bob.expectNone(f -> f.getString("type", "").startsWith("attachment") && "ACME/alice".equals(f.getString("target", "")),
                    Duration.ofMillis(300));
        }
        assertFalse(Files.exists(attachmentsDir), "the store must not open without the §3.1 posture");
        String log = Files.readString(hub.logFile());
        assertTrue(log.contains("hub.attachments.dir is set but the store stays disabled"), "no WARNING naming the key");

        HttpResponse<String> metrics = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(hub.http("/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.body().contains("synapse_attachment_errors_total{error=\"attachments disabled\"} 9\n"),
                metrics.body());
        assertTrue(metrics.body().contains("synapse_attachment_errors_total{error=\"attachment digest mismatch\"} 0\n"));
    }

    @Test
    @Order(1)
    void theSecureHubOpensItsStoreOwnerOnlyAndSaysWhere() throws Exception {
        String log = Files.readString(secure.logFile());
        assertTrue(log.contains("SYNAPSE attachments: store open at " + secureStore.toAbsolutePath().normalize()), "no INFO line naming the store");
        for (Path dir : List.of(secureStore, secureStore.resolve("staging"), secureStore.resolve("objects"))) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)), dir.toString());
        }
    }

    @Test
    @Order(2)
    void aNegotiatedVersionThreeClientIsRefusedVersionFourRequired() {
        try (SynapseClient old = login("ACME/old", 3)) {
            assertEquals("attachment protocol version four required", error(call(old, "attachment_info", digestOnly("0".repeat(64)))));
        }
    }

    @Test
    @Order(3)
    void aSenderWithoutTheRoleGrantIsDenied() {
        try (SynapseClient bob = login("ACME/bob", 4)) {
            assertEquals("attachment access denied", error(call(bob, "attachment_begin", begin("1".repeat(64), 4))));
            assertEquals("attachment access denied", error(call(bob, "attachment_info", digestOnly("1".repeat(64)))));
        }
    }

    @Test
    @Order(4)
    void anUnsignedAttachmentFrameIsRefusedAtMessageAuthentication() {
        try (SynapseClient alice = login("ACME/alice", 4)) {
            alice.send(SynapseClient.frame("attachment_info", "System", "").add("scope", "ACME").add("digest", "2".repeat(64)));
            JsonObject refused = alice.expect(f -> "error".equals(f.getString("type", "")), WAIT);
            assertEquals("missing", refused.getString("verification_result"), refused.toString());
        }
    }

    @Test
    @Order(5)
    void aCommitWhoseDigestDoesNotMatchIsRefusedAndLeavesNothingReadable() throws Exception {
        byte[] promised = "the bytes the digest names".getBytes(StandardCharsets.UTF_8);
        byte[] sent = "the bytes actually uploaded".getBytes(StandardCharsets.UTF_8);
        String digest = sha256(promised);
        try (SynapseClient alice = login("ACME/alice", 4)) {
            JsonObject begun = call(alice, "attachment_begin", begin(digest, sent.length));
            ok(begun);
            ok(call(alice, "attachment_chunk", chunk(begun.getString("upload_id"), 0, sent, 0, sent.length)));
            assertEquals("attachment digest mismatch",
                    error(call(alice, "attachment_commit", Json.createObjectBuilder().add("upload_id", begun.getString("upload_id")))));
            assertEquals("attachment unavailable", error(call(alice, "attachment_info", digestOnly(digest))));
            assertEquals("attachment unavailable", error(call(alice, "attachment_read", digestOnly(digest).add("offset", 0))));
            assertEquals("attachment unavailable", error(call(alice, "attachment_info", digestOnly(sha256(sent)))));
        }
        assertEquals(0, stagedFiles(), "the refused upload's staging is discarded");
    }

    @Test
    @Order(6)
    void aDisconnectMidUploadDiscardsTheStagingAndNoOtherConnectionCanContinueIt() throws Exception {
        byte[] bytes = new byte[3 * CHUNK];
        new Random(6).nextBytes(bytes);
        String uploadId;
        try (SynapseClient alice = login("ACME/alice", 4)) {
            JsonObject begun = call(alice, "attachment_begin", begin(sha256(bytes), bytes.length));
            uploadId = begun.getString("upload_id");
            ok(call(alice, "attachment_chunk", chunk(uploadId, 0, bytes, 0, CHUNK)));
            assertEquals(1, stagedFiles());
        }
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (stagedFiles() != 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(0, stagedFiles(), "the staging directory is empty after the disconnect");
        try (SynapseClient again = login("ACME/alice", 4)) {
            assertEquals("unknown upload", error(call(again, "attachment_chunk", chunk(uploadId, CHUNK, bytes, CHUNK, CHUNK))));
            assertEquals("unknown upload", error(call(again, "attachment_commit", Json.createObjectBuilder().add("upload_id", uploadId))));
            assertEquals("attachment unavailable", error(call(again, "attachment_info", digestOnly(sha256(bytes)))));
        }
        assertEquals(0, stagedFiles());
    }

    @Test
    @Order(7)
    void fiveMebibytesInThirtyTwoKibChunksCommitSurviveKillNineAndReadBackWithTheirDigest() throws Exception {
        byte[] bytes = new byte[5 * 1024 * 1024];
        new Random(5).nextBytes(bytes);
        bigDigest = sha256(bytes);
        try (SynapseClient alice = login("ACME/alice", 4)) {
            String uploadId = call(alice, "attachment_begin", begin(bigDigest, bytes.length)).getString("upload_id");
            // the 160 chunks are pipelined, WINDOW at a time: one socket's frames are answered in order
            int sent = 0;
            for (int offset = 0; offset < bytes.length; offset += CHUNK) {
                for (; sent < bytes.length && sent < offset + WINDOW * CHUNK; sent += CHUNK) {
                    send(alice, "attachment_chunk", chunk(uploadId, sent, bytes, sent, CHUNK));
                }
                JsonObject received = result(alice, "attachment_chunk", BULK_WAIT);
                assertEquals(offset + CHUNK, received.getJsonNumber("received").longValue(), received.toString());
            }
            JsonObject metadata = call(alice, "attachment_commit", Json.createObjectBuilder().add("upload_id", uploadId))
                    .getJsonObject("metadata");
            assertEquals(bigDigest, metadata.getString("digest"));
            assertEquals(bytes.length, metadata.getJsonNumber("length").longValue());
            assertEquals("ACME", metadata.getString("scope"));
        }

        secure.kill9();
        secure.restart();

        ByteArrayOutputStream read = new ByteArrayOutputStream(bytes.length);
        try (SynapseClient alice = login("ACME/alice", 4)) {
            assertEquals(bytes.length, call(alice, "attachment_info", digestOnly(bigDigest)).getJsonObject("metadata")
                    .getJsonNumber("length").longValue());
            int requested = 0;
            for (int offset = 0; offset < bytes.length; offset += CHUNK) {
                for (; requested < bytes.length && requested < offset + WINDOW * CHUNK; requested += CHUNK) {
                    send(alice, "attachment_read", digestOnly(bigDigest).add("offset", requested));
                }
                JsonObject chunk = result(alice, "attachment_read", BULK_WAIT);
                ok(chunk);
                assertEquals(read.size(), chunk.getJsonNumber("offset").longValue());
                read.write(Base64.getDecoder().decode(chunk.getString("body")));
                assertEquals(read.size() == bytes.length, chunk.getBoolean("eof"), "eof only on the last chunk");
            }
        }
        assertEquals(bytes.length, read.size());
        assertEquals(bigDigest, sha256(read.toByteArray()), "the bytes read back after kill -9 carry the committed digest");
        assertEquals(0, stagedFiles());
        String log = Files.readString(secure.logFile());
        for (String secret : List.of(TOKEN, ALICE_SECRET, BOB_SECRET)) {
            assertFalse(log.contains(secret), "a secret reached the hub log");
        }
    }
}
