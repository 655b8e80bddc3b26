package org.switchboard.itests.synapse.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.Signature;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.CanonicalJson;
import org.switchboard.itests.support.HmacSigner;
import org.switchboard.itests.support.FixedEd25519;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Cross-hub forwarding between two packaged hubs (synapse-advanced §4, §5): hub-a (origin, this
 * issue's outbound side) forwards to hub-b (the receiving side) over loopback {@code ws://} with the
 * peer token. Chat with both receipts' facts, the origin's and the receiver's refusals, the remote
 * roster, forwarded delivery intents (§4.7), and the outbox gauges on /metrics and /health. Both hubs
 * run the full attachment posture (§3.1: token, trust bundle with required binding, HMAC with required
 * message auth, ACL with required ACL, role grants), so agents sign their registration, and each hub
 * signs its peer registrations with its identity key ({@code hub.message-peer-identity-key}): hub-a is
 * also the source of peer attachment reads (§5) that hub-b's agents make through hub-b.
 */
class FederationIT {

    static final Duration WAIT = Duration.ofSeconds(30);
    static final String PEER_TOKEN = "federation-it-peer-token";
    static final String POLICY = "{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"message\",\"read\"]}]}";

    private static final String AGENT_KEY_ID = "fed-agents";
    private static final Key AGENTS = new Key(21);
    private static final Key HUB_A_KEY = new Key(31);
    private static final Key HUB_B_KEY = new Key(41);
    private static final String SECRET_A = "federation-it-hmac-a-7d31";
    private static final String SECRET_B = "federation-it-hmac-b-52e9";
    /** The object hub-a serves to hub-b (granted in hub-a's recipient policy) and one it does not grant. */
    static final byte[] EVIDENCE = "cross-hub evidence: build 551 is green".getBytes(StandardCharsets.UTF_8);
    static final byte[] PRIVATE = "not for hub-b".getBytes(StandardCharsets.UTF_8);
    private static final List<String> NAMES_A = List.of("ACME/alice", "ACME/alice2", "ACME/alice3", "ACME/alice4",
            "ACME/alice5", "ACME/uploader", "ACME/alice-many");
    private static final List<String> NAMES_B = List.of("ACME/bob", "ACME/bob-roster", "OTHER/dave", "ACME/reader",
            "ACME/stranger", "ACME/builder", "ACME/bob-many");

    private static HubServer hubB;
    private static HubServer hubA;
    private static Path recipientPolicyA;
    private static Path multihubPolicyB;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "federation-it"));
        int portA = HubServer.freePort();
        int portB = HubServer.freePort();
        multihubPolicyB = ownerOnly(dir.resolve("multihub-policy.json"), POLICY).toAbsolutePath();
        recipientPolicyA = ownerOnly(dir.resolve("recipient-policy-a.json"), recipientPolicy(sha256(EVIDENCE))).toAbsolutePath();
        Map<String, String> envB = posture(dir, "b", NAMES_B, HUB_A_KEY, "hub-a", HUB_B_KEY, SECRET_B,
                List.of("ACME/reader", "ACME/stranger"), "{\"role\":\"ACME/attachment-read\",\"identities\":[\"ACME/reader\"]}",
                "HUB_ID", "hub-b", "HUB_MULTIHUB_POLICY", multihubPolicyB.toString(),
                "HUB_MESSAGE_PEERS", "hub-a=ws://127.0.0.1:" + portA + "/");
        Map<String, String> envA = posture(dir, "a", NAMES_A, HUB_B_KEY, "hub-b", HUB_A_KEY, SECRET_A,
                List.of("ACME/uploader"), "{\"role\":\"ACME/attachment-write\",\"identities\":[\"ACME/uploader\"]},"
                        + "{\"role\":\"ACME/attachment-read\",\"identities\":[\"ACME/uploader\"]}",
                "HUB_ID", "hub-a", "HUB_MESSAGE_PEERS", "hub-b=ws://127.0.0.1:" + portB + "/",
                // hub-a serves peer attachment reads to hub-b (§5.1)
                "HUB_MULTIHUB_POLICY", ownerOnly(dir.resolve("multihub-policy-a.json"), "{\"version\":1,\"grants\":[{"
                        + "\"sender\":\"hub-b\",\"namespace\":\"ACME\",\"verbs\":[\"read\"]}]}").toAbsolutePath().toString(),
                "HUB_ATTACHMENT_RECIPIENT_POLICY", recipientPolicyA.toString());
        hubB = HubServer.prepare(envB, portB);
        hubA = HubServer.prepare(envA, portA);
        // both boot side by side (two cores): each names the other by its port, known before either runs
        CompletableFuture<Void> bootB = CompletableFuture.runAsync(hubB::restart);
        hubA.restart();
        bootB.join();
    }

    /**
     * The §3.1 posture of one hub: token, trust bundle (the agents' key for {@code names}, the peer hub's
     * key for its id), HMAC keys for {@code signers}, ACL (message to any agent, attachment read/write in
     * ACME), role grants, an owner-only attachment root, and this hub's own peer identity key.
     */
    private static Map<String, String> posture(Path dir, String hub, List<String> names, Key peerKey, String peerId,
                                               Key ownKey, String secret, List<String> signers, String roles,
                                               String... more) throws Exception {
        Path own = Files.createTempDirectory("federation-it-" + hub);
        String quoted = String.join("\",\"", names);
        Map<String, String> env = new java.util.HashMap<>(HubServer.env(more));
        env.putAll(HubServer.env("HUB_TOKEN", PEER_TOKEN, "HUB_MESSAGE_PEER_TOKEN", PEER_TOKEN,
                "HUB_MESSAGE_PEER_IDENTITY_KEY", ownerOnly(dir.resolve("peer-identity-" + hub + ".json"), ownKey.identityFile(
                        "hub-" + hub + "-2026")).toAbsolutePath().toString(),
                "HUB_ATTACHMENTS_DIR", own.resolve("store").toString(),
                "HUB_IDENTITY_TRUST", ownerOnly(dir.resolve("trust-" + hub + ".json"), "{\"keys\":["
                        + "{\"key_id\":\"" + AGENT_KEY_ID + "\",\"public_key\":\"" + AGENTS.publicBase64() + "\",\"senders\":[\""
                        + quoted + "\"]},{\"key_id\":\"" + peerId + "-2026\",\"public_key\":\"" + peerKey.publicBase64()
                        + "\",\"senders\":[\"" + peerId + "\"]}]}").toAbsolutePath().toString(),
                "HUB_REQUIRE_IDENTITY_BINDING", "true",
                "HUB_MESSAGE_AUTH_KEY_FILE", ownerOnly(dir.resolve("hmac-" + hub + ".json"), "{\"keys\":[{\"kid\":\"fed-" + hub
                        + "\",\"secret\":\"" + secret + "\",\"senders\":[\"" + String.join("\",\"", signers) + "\"]}]}")
                        .toAbsolutePath().toString(),
                "HUB_REQUIRE_MESSAGE_AUTH", "true",
                "HUB_MESSAGE_AUTH_WINDOW_SECONDS", "300",
                "HUB_ACL_POLICY", ownerOnly(dir.resolve("acl-" + hub + ".json"), "{\"rules\":["
                        + "{\"permission\":\"message\",\"target_kind\":\"agent\",\"target_pattern\":\"*\",\"namespace\":\"ACME\"},"
                        + "{\"permission\":\"attachment-write\",\"target_kind\":\"attachment\",\"target_pattern\":\"ACME\",\"namespace\":\"ACME\"},"
                        + "{\"permission\":\"attachment-read\",\"target_kind\":\"attachment\",\"target_pattern\":\"ACME\",\"namespace\":\"ACME\"}]}")
                        .toAbsolutePath().toString(),
                "HUB_REQUIRE_ACL", "true",
                "HUB_ROLE_GRANTS", ownerOnly(dir.resolve("roles-" + hub + ".json"), "{\"grants\":[" + roles + "]}")
                        .toAbsolutePath().toString()));
        return env;
    }

    static String recipientPolicy(String... digests) {
        StringBuilder grants = new StringBuilder();
        long expires = System.currentTimeMillis() / 1000 + 86_400;
        for (String digest : digests) {
            grants.append(grants.length() == 0 ? "" : ",").append("{\"recipient_hub\":\"hub-b\",\"scope\":\"ACME\",\"digest\":\"")
                    .append(digest).append("\",\"expires_at\":").append(expires).append('}');
        }
        return "{\"version\":1,\"grants\":[" + grants + "]}";
    }

    static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    @AfterAll
    static void stop() {
        for (HubServer hub : new HubServer[] {hubA, hubB}) {
            if (hub != null) {
                hub.stop();
            }
        }
    }

    /** A fixed Ed25519 key (seed bytes first, first+1, …) for v1 registration proofs (§6.5). */
    record Key(KeyPair pair, byte[] seed, String publicBase64) {

        Key(int first) {
            this(FixedEd25519.seed(first));
        }

        private Key(byte[] seed) {
            this(FixedEd25519.pair(seed), seed);
        }

        private Key(KeyPair pair, byte[] seed) {
            this(pair, seed, Base64.getEncoder().encodeToString(FixedEd25519.rawPublic(pair)));
        }

        /** The {@code hub.message-peer-identity-key} file of this key. */
        String identityFile(String keyId) {
            return "{\"key_id\":\"" + keyId + "\",\"public_key\":\"" + publicBase64 + "\",\"private_key\":\""
                    + Base64.getEncoder().encodeToString(seed) + "\"}";
        }

        /** The signed first frame of {@code name} with the token and {@code extra} fields inside the signature. */
        String registration(String name, JsonObjectBuilder extra) {
            JsonObjectBuilder frame = Json.createObjectBuilder().add("type", "heartbeat").add("target", "System")
                    .add("payload", "online").add("sender", name).add("token", PEER_TOKEN).add("identity_public_key", publicBase64)
                    .add("signature", Json.createObjectBuilder().add("version", 1).add("key_id", AGENT_KEY_ID)
                            .add("algorithm", "ed25519"));
            extra.build().forEach(frame::add);
            JsonObject unsigned = frame.build();
            try {
                Signature signer = Signature.getInstance("Ed25519");
                signer.initSign(pair.getPrivate());
                signer.update(CanonicalJson.utf8(unsigned).getBytes(StandardCharsets.UTF_8));
                return Json.createObjectBuilder(unsigned).add("signature", Json.createObjectBuilder(
                        unsigned.getJsonObject("signature")).add("value", Base64.getEncoder().encodeToString(signer.sign())))
                        .build().toString();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** An agent of {@code hub}, registered with a signed first frame (plus {@code extra}) and seen joined. */
    static SynapseClient login(HubServer hub, String name, JsonObjectBuilder extra) {
        return login(hub, name, extra, Json.createObjectBuilder());
    }

    /**
     * As above, with {@code unsigned} fields added after signing: the hub takes the delivery-session
     * fields off the first frame before any other step sees it (§2.2 step 1), the identity proof included.
     */
    static SynapseClient login(HubServer hub, String name, JsonObjectBuilder extra, JsonObjectBuilder unsigned) {
        SynapseClient client = SynapseClient.connect(hub.webSocketUri(), name);
        JsonObjectBuilder frame = Json.createObjectBuilder(Json.createReader(new StringReader(AGENTS.registration(name, extra)))
                .readObject());
        unsigned.build().forEach(frame::add);
        client.sendRaw(frame.build().toString());
        client.expect(f -> "presence_update".equals(f.getString("type", "")) && name.equals(f.getString("agent", "")), WAIT);
        return client;
    }

    static SynapseClient onA(String name) {
        return login(hubA, name, Json.createObjectBuilder().add("protocol_version", 6));
    }

    static Path ownerOnly(Path file, String content) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, content, StandardCharsets.UTF_8);
        return file;
    }

    /** A local agent of hub-b (signed registration at v6). */
    static SynapseClient onB(String name) {
        return login(hubB, name, Json.createObjectBuilder().add("protocol_version", 6));
    }

    /** A local agent of a token-secured hub without identity binding (the outage test's hub-b). */
    static SynapseClient onB(HubServer hub, String name) {
        SynapseClient client = SynapseClient.connect(hub.webSocketUri(), name);
        client.send(SynapseClient.frame("heartbeat", "System", "online").add("token", PEER_TOKEN));
        client.expect(f -> "presence_update".equals(f.getString("type", "")) && name.equals(f.getString("agent", "")), WAIT);
        return client;
    }

    static JsonObject receiptFor(SynapseClient client, String state) {
        return client.expect(f -> "delivery_receipt".equals(f.getString("type", ""))
                && state.equals(f.getString("forward_state", "")), WAIT);
    }

    @Test
    void chatReachesTheSeatOnThePeerAndTheSenderGetsAReceipt() {
        try (SynapseClient bob = onB("ACME/bob");
             SynapseClient alice = onA("ACME/alice")) {
            alice.send(SynapseClient.frame("chat", "ACME/bob@hub-b", "Build is green.")
                    .add("receipt_requested", true).add("client_msg_id", "fed-1"));
            JsonObject own = alice.expect(f -> "chat".equals(f.getString("type", ""))
                    && "fed-1".equals(f.getString("client_msg_id", "")), WAIT);
            String forwardId = own.getString("forward_id");
            JsonObject got = bob.expect(f -> "chat".equals(f.getString("type", ""))
                    && "Build is green.".equals(f.getString("payload", "")), WAIT);
            assertEquals("ACME/alice@hub-a", got.getString("sender"));
            assertEquals("hub-a", got.getString("forwarded_from"));
            assertEquals(forwardId, got.getString("forward_id"));
            JsonObject receipt = receiptFor(alice, "accepted");
            assertEquals(forwardId, receipt.getString("forward_id"));
            assertEquals("hub-b", receipt.getString("forwarded_to"));
            assertEquals("ACME/bob@hub-b", receipt.getString("message_target"));
            assertTrue(receipt.getJsonArray("matched_recipients").toString().contains("ACME/bob@hub-b"), receipt.toString());
            assertFalse(receipt.getBoolean("deferred"));
            assertTrue(receipt.containsKey("message_seq"));
            assertEquals("fed-1", receipt.getString("client_msg_id"));
            bob.expectNone(f -> "chat".equals(f.getString("type", "")) && "Build is green.".equals(f.getString("payload", "")),
                    Duration.ofSeconds(2));
        }
    }

    @Test
    void chatsInARowShareReusedPeerConnectionsAndEachArrivesOnce() throws Exception {
        long reusedBefore = metric(hubA, "synapse_message_forward_reused_total");
        long openedBefore = metric(hubA, "synapse_message_forward_connections_opened_total");
        int n = 12;
        try (SynapseClient bob = onB("ACME/bob-many");
             SynapseClient alice = onA("ACME/alice-many")) {
            for (int i = 0; i < n; i++) {
                alice.send(SynapseClient.frame("chat", "ACME/bob-many@hub-b", "row " + i).add("receipt_requested", true)
                        .add("client_msg_id", "many-" + i));
                receiptFor(alice, "accepted"); // one at a time: each forward's connection choice sees the last answer
            }
            for (int i = 0; i < n; i++) {
                String payload = "row " + i;
                bob.expect(f -> "chat".equals(f.getString("type", "")) && payload.equals(f.getString("payload", "")), WAIT);
            }
            bob.expectNone(f -> "chat".equals(f.getString("type", "")) && f.getString("payload", "").startsWith("row "),
                    Duration.ofSeconds(1));
        }
        long reused = metric(hubA, "synapse_message_forward_reused_total") - reusedBefore;
        long opened = metric(hubA, "synapse_message_forward_connections_opened_total") - openedBefore;
        assertTrue(reused >= n - 1, "forwards after the first ride a reused connection (ours): " + reused);
        assertTrue(opened <= 2, "connections opened for " + n + " forwards: " + opened);
    }

    /** A counter's value on a hub's /metrics. */
    static long metric(HubServer hub, String name) throws Exception {
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(hub.http("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (String line : metrics.split("\n")) {
            if (line.startsWith(name + " ")) {
                return Long.parseLong(line.substring(name.length() + 1).strip());
            }
        }
        throw new AssertionError(name + " not on /metrics");
    }

    @Test
    void theOriginRefusesBadTargetsBeforeStoringAnything() {
        try (SynapseClient alice = onA("ACME/alice2")) {
            alice.send(SynapseClient.frame("chat", "ACME/bob@hub-z", "x"));
            assertEquals("Hub 'hub-z' is not a configured message peer", alice.expectType("error").getString("payload"));
            alice.send(SynapseClient.frame("chat", "ACME/a@hub-b,ACME/b@hub-b", "x"));
            assertEquals("Cross-hub target must be exactly one seat", alice.expectType("error").getString("payload"));
            alice.send(SynapseClient.frame("chat", "ACME/*@hub-b", "x"));
            assertTrue(alice.expectType("error").getString("payload").startsWith("Cross-hub target refused"));
        }
    }

    @Test
    void aNamespaceThePeerDidNotGrantSettlesRefused() {
        try (SynapseClient alice = onA("ACME/alice3")) {
            alice.send(SynapseClient.frame("chat", "OTHER/carol@hub-b", "not for you").add("receipt_requested", true));
            JsonObject receipt = receiptFor(alice, "refused");
            assertEquals("forward_refused", receipt.getString("reason"));
            assertFalse(receipt.getBoolean("delivered"));
        }
    }

    @Test
    void remoteRosterShowsThePeersGrantedSeatsQualified() {
        try (SynapseClient bob = onB("ACME/bob-roster");
             SynapseClient hidden = onB("OTHER/dave");
             SynapseClient alice = onA("ACME/alice4")) {
            alice.send(SynapseClient.frame("who_request", "System", "who").add("hub", "hub-b"));
            JsonObject who = alice.expect(f -> "who_snapshot".equals(f.getString("type", ""))
                    && "hub-b".equals(f.getString("remote_hub", "")), WAIT);
            String online = who.getJsonArray("online_agents").toString();
            assertTrue(online.contains("ACME/bob-roster@hub-b"), online);
            assertFalse(online.contains("OTHER/dave"), online);
            alice.send(SynapseClient.frame("who_request", "System", "who").add("hub", "hub-z"));
            assertTrue(alice.expectType("error").getString("payload").startsWith("Roster of hub 'hub-z' unavailable (unknown_hub)"));
        }
    }

    @Test
    void metricsAndHealthReportTheOutbox() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String metrics = http.send(HttpRequest.newBuilder(hubA.http("/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(metrics.contains("\nsynapse_message_forward_pending "), metrics);
        assertTrue(metrics.contains("\nsynapse_message_forward_oldest_pending_seconds "), metrics);
        String health = http.send(HttpRequest.newBuilder(hubA.http("/health")).build(), HttpResponse.BodyHandlers.ofString()).body();
        try (JsonReader reader = Json.createReader(new StringReader(health))) {
            JsonObject peer = reader.readObject().getJsonObject("message_forward").getJsonObject("hub-b");
            assertTrue(peer.containsKey("pending") && peer.containsKey("oldest_pending_seconds"), health);
        }
    }

    // ---- §5: a local agent of hub-b reads hub-a's object through hub-b (source_hub) ----

    /** Sends an HMAC-signed attachment frame and returns its {@code attachment_result}. */
    static JsonObject attachment(SynapseClient client, String kid, String secret, String type, JsonObjectBuilder fields) {
        client.sendRaw(new HmacSigner(kid, secret).sign(fields.add("type", type).add("target", "System").add("payload", "")
                .add("scope", "ACME"), client.name()).toString());
        return client.expect(f -> "attachment_result".equals(f.getString("type", "")) && type.equals(f.getString("operation", "")),
                WAIT);
    }

    static void upload(SynapseClient uploader, byte[] bytes) throws Exception {
        JsonObject begun = attachment(uploader, "fed-a", SECRET_A, "attachment_begin", Json.createObjectBuilder()
                .add("digest", sha256(bytes)).add("length", bytes.length).add("media_type", "text/plain")
                .add("provenance", "ci:run/551").add("expires_at", System.currentTimeMillis() / 1000 + 3600));
        assertTrue(begun.getBoolean("ok"), begun.toString());
        String upload = begun.getString("upload_id");
        assertTrue(attachment(uploader, "fed-a", SECRET_A, "attachment_chunk", Json.createObjectBuilder().add("upload_id", upload)
                .add("offset", 0).add("body", Base64.getEncoder().encodeToString(bytes))).getBoolean("ok"));
        JsonObject committed = attachment(uploader, "fed-a", SECRET_A, "attachment_commit",
                Json.createObjectBuilder().add("upload_id", upload));
        assertTrue(committed.getBoolean("ok"), committed.toString());
    }

    static JsonObject readThroughB(SynapseClient reader, String type, String digest) {
        JsonObjectBuilder fields = Json.createObjectBuilder().add("digest", digest).add("source_hub", "hub-a");
        if ("attachment_read".equals(type)) {
            fields.add("offset", 0);
        }
        return attachment(reader, "fed-b", SECRET_B, type, fields);
    }

    @Test
    void aLocalAgentReadsThePeersObjectThroughItsOwnHubUntilTheGrantIsRevoked() throws Exception {
        String evidence = sha256(EVIDENCE);
        String unshared = sha256(PRIVATE);
        try (SynapseClient uploader = onA("ACME/uploader");
             SynapseClient reader = onB("ACME/reader");
             SynapseClient stranger = onB("ACME/stranger")) {
            upload(uploader, EVIDENCE);
            upload(uploader, PRIVATE);
            // the reference reaches hub-b's agent in a forwarded chat
            uploader.send(SynapseClient.frame("chat", "ACME/reader@hub-b", "evidence " + evidence));
            JsonObject chat = reader.expect(f -> "chat".equals(f.getString("type", ""))
                    && f.getString("payload", "").startsWith("evidence "), WAIT);
            assertEquals("hub-a", chat.getString("forwarded_from"));
            String digest = chat.getString("payload").substring("evidence ".length());

            JsonObject info = readThroughB(reader, "attachment_info", digest);
            assertTrue(info.getBoolean("ok"), info.toString());
            assertEquals("hub-a", info.getString("source_hub"));
            assertEquals(EVIDENCE.length, info.getJsonObject("metadata").getInt("length"));
            assertEquals("text/plain", info.getJsonObject("metadata").getString("media_type"));
            JsonObject read = readThroughB(reader, "attachment_read", digest);
            assertTrue(read.getBoolean("ok"), read.toString());
            assertTrue(read.getBoolean("eof"));
            assertEquals(new String(EVIDENCE, StandardCharsets.UTF_8),
                    new String(Base64.getDecoder().decode(read.getString("body")), StandardCharsets.UTF_8));

            // an object hub-a did not grant to hub-b, and one that does not exist: the same uniform refusal
            for (String other : List.of(unshared, "0".repeat(64))) {
                JsonObject refused = readThroughB(reader, "attachment_read", other);
                assertFalse(refused.getBoolean("ok"));
                assertEquals("attachment unavailable", refused.getString("error"));
                assertFalse(refused.containsKey("metadata"), refused.toString());
            }
            // hub-b's own gate: the stranger has no role grant for ACME/attachment-read here
            assertEquals("attachment access denied", readThroughB(stranger, "attachment_info", digest).getString("error"));

            // hub-a's operator revokes the recipient grant: the next request is refused (re-read per request)
            ownerOnly(recipientPolicyA, recipientPolicy());
            JsonObject revoked = readThroughB(reader, "attachment_read", digest);
            assertFalse(revoked.getBoolean("ok"), revoked.toString());
            assertEquals("attachment unavailable", revoked.getString("error"));
            assertEquals("attachment unavailable", readThroughB(reader, "attachment_info", digest).getString("error"));
        } finally {
            ownerOnly(recipientPolicyA, recipientPolicy(evidence));
        }
    }

    // ---- §4.7: a forwarded delivery intent, its origin and its follow-ups ----

    static String operationKey(String originHub, String sender, String requestId) throws Exception {
        String canonical = CanonicalJson.utf8(Json.createArrayBuilder().add(originHub).add(sender).add(requestId).build());
        return sha256(canonical.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aForwardedDeliveryRecordsItsOriginAndFollowUpsAreRecheckedAgainstTheStoredTarget() throws Exception {
        String token = "5e".repeat(32);
        String incarnation = sha256(token.getBytes(StandardCharsets.US_ASCII));
        try (SynapseClient builder = login(hubB, "ACME/builder", Json.createObjectBuilder().add("protocol_version", 3),
                Json.createObjectBuilder().add("delivery_session_token", token)
                .add("delivery_capabilities", Json.createObjectBuilder().add("follow_up", "native")));
             SynapseClient alice = login(hubA, "ACME/alice5", Json.createObjectBuilder().add("protocol_version", 3))) {
            alice.send(SynapseClient.frame("delivery_request", "ACME/builder@hub-b", "").add("protocol_version", 3)
                    .add("request_id", "fed-rq-1").add("idempotency_key", "fed-ik-1").add("target_incarnation", incarnation)
                    .add("mode", "follow_up").add("body", "Rebase on main.")
                    .add("deadline", System.currentTimeMillis() / 1000 + 600));
            JsonObject status = alice.expect(f -> "delivery_status".equals(f.getString("type", ""))
                    || "delivery_refused".equals(f.getString("type", "")), WAIT);
            assertEquals("delivery_status", status.getString("type"), status.toString());
            assertEquals("hub-b", status.getString("remote_hub"));
            String key = status.getString("operation_key");
            // the receiving hub keys and records the request under its real origin (§4.5: origin_hub = origin)
            assertEquals(operationKey("hub-a", "ACME/alice5@hub-a", "fed-rq-1"), key);
            JsonObject offer = builder.expect(f -> "delivery_offer".equals(f.getString("type", "")), WAIT);
            assertEquals("ACME/alice5@hub-a", offer.getString("sender"));
            assertEquals("hub-a", offer.getString("origin_hub"));
            assertEquals("hub-b", offer.getString("hub_id"));

            alice.send(SynapseClient.frame("delivery_status_request", "System", "").add("protocol_version", 3)
                    .add("operation_key", key));
            JsonObject read = alice.expect(f -> "delivery_status".equals(f.getString("type", ""))
                    || "delivery_refused".equals(f.getString("type", "")), WAIT);
            assertEquals("queued", read.getString("stage"), read.toString());

            // hub-b's operator narrows hub-a's grant to another namespace: follow-ups on the stored ACME target stop
            ownerOnly(multihubPolicyB, "{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"OTHER\","
                    + "\"verbs\":[\"message\"]}]}");
            alice.send(SynapseClient.frame("delivery_status_request", "System", "").add("protocol_version", 3)
                    .add("operation_key", key));
            JsonObject narrowed = alice.expect(f -> "delivery_refused".equals(f.getString("type", ""))
                    || "delivery_status".equals(f.getString("type", "")), WAIT);
            assertEquals("namespace_not_granted", narrowed.getString("reason_code", narrowed.toString()));
            alice.send(SynapseClient.frame("delivery_cancel", "System", "").add("protocol_version", 3)
                    .add("operation_key", key).add("mutation_id", "fed-cancel-1"));
            JsonObject cancelRefused = alice.expect(f -> "delivery_refused".equals(f.getString("type", ""))
                    || "delivery_status".equals(f.getString("type", "")), WAIT);
            assertEquals("namespace_not_granted", cancelRefused.getString("reason_code", cancelRefused.toString()));

            ownerOnly(multihubPolicyB, POLICY);
            alice.send(SynapseClient.frame("delivery_cancel", "System", "").add("protocol_version", 3)
                    .add("operation_key", key).add("mutation_id", "fed-cancel-2"));
            JsonObject cancelled = alice.expect(f -> "delivery_status".equals(f.getString("type", ""))
                    || "delivery_refused".equals(f.getString("type", "")), WAIT);
            assertTrue(cancelled.getBoolean("cancel_requested"), cancelled.toString());
            assertEquals("hub-b", cancelled.getString("remote_hub"));
            JsonObject told = builder.expect(f -> "delivery_status".equals(f.getString("type", ""))
                    && key.equals(f.getString("operation_key", "")), WAIT);
            assertTrue(told.getBoolean("cancel_requested"), told.toString());
        } finally {
            ownerOnly(multihubPolicyB, POLICY);
        }
    }
}
