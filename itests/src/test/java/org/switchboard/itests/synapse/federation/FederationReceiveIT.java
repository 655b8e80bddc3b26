package org.switchboard.itests.synapse.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * The receiving side of cross-hub features (synapse-advanced §4.5) on one packaged hub. The test
 * plays the origin hub exactly as §4.3 says: a fresh connection registers under its hub id
 * ({@code hub-a}) at {@code protocol_version} 5 with the connect token, sends one
 * {@code multihub_message_forward} and reads one {@code multihub_message_result}.
 */
class FederationReceiveIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String TOKEN = "federation-it-connect-token";
    private static HubServer hub;
    private static Path dir;
    private static String spendLedger;
    private static final String POLICY = """
            {"version":1,"grants":[
              {"sender":"hub-a","namespace":"ACME","verbs":["message","read","spend"]},
              {"sender":"hub-r","namespace":"ACME","verbs":["read"]}]}
            """;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("federation-it");
        String policy = ownerOnly(dir.resolve("multihub.json"), POLICY);
        spendLedger = ownerOnly(dir.resolve("spend.json"),
                "{\"version\":1,\"pools\":[{\"pool_id\":\"gpu\",\"window\":\"2026-12\",\"capacity\":\"10.05\"}]}");
        hub = HubServer.start(HubServer.env("HUB_TOKEN", TOKEN, "HUB_MULTIHUB_POLICY", policy, "HUB_SPEND_LEDGER", spendLedger));
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    static String ownerOnly(Path file, String content) throws IOException {
        if (!Files.exists(file)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        Files.writeString(file, content, StandardCharsets.UTF_8);
        return file.toAbsolutePath().toString();
    }

    /** Connects and registers {@code name} with the connect token at {@code version}; waits for the welcome. */
    static SynapseClient login(String name, int version) {
        SynapseClient client = SynapseClient.connect(hub.webSocketUri(), name);
        client.send(SynapseClient.frame("heartbeat", "System", "online").add("token", TOKEN)
                .add("protocol_version", version));
        client.expectType("welcome");
        return client;
    }

    static JsonObjectBuilder forward(String id, String kind, String sender, String target, JsonObjectBuilder body) {
        JsonObjectBuilder f = Json.createObjectBuilder().add("type", "multihub_message_forward").add("target", "System")
                .add("payload", "").add("forward_id", id).add("kind", kind).add("sender_seat", sender).add("body", body);
        if (target != null) {
            f.add("target_seat", target);
        }
        return f;
    }

    static JsonObjectBuilder chatBody(String payload) {
        return Json.createObjectBuilder().add("payload", payload).add("origin_msg_id", 311)
                .add("origin_timestamp", 1790000001.5);
    }

    /** One §4.3 exchange: fresh peer connection as {@code peerId}, one forward, one result (or error), close. */
    static JsonObject exchange(String peerId, int version, JsonObjectBuilder forward) {
        try (SynapseClient peer = login(peerId, version)) {
            peer.send(forward.build());
            return peer.expect(f -> "multihub_message_result".equals(f.getString("type", ""))
                    || "error".equals(f.getString("type", "")), WAIT);
        }
    }

    static String id(String prefix) {
        return prefix + "-" + System.nanoTime();
    }

    @Test
    void aForwardedChatIsAcceptedAndSeenByTheLocalSeat() {
        try (SynapseClient bob = login("ACME/bob", 4)) {
            String fid = id("chat");
            JsonObject r = exchange("hub-a", 5, forward(fid, "chat", "ACME/alice", "ACME/bob", chatBody("Build is green.")));
            assertEquals("multihub_message_result", r.getString("type"), r.toString());
            assertEquals("accepted", r.getString("disposition"), r.toString());
            assertEquals(fid, r.getString("forward_id"));
            JsonObject result = r.getJsonObject("result");
            assertTrue(result.getBoolean("delivered"), r.toString());
            assertEquals(List.of("ACME/bob"), result.getJsonArray("recipients").getValuesAs(JsonString::getString));
            JsonObject seen = bob.expect(f -> "chat".equals(f.getString("type", ""))
                    && "Build is green.".equals(f.getString("payload", "")), WAIT);
            assertEquals("ACME/alice@hub-a", seen.getString("sender"));
            assertEquals("hub-a", seen.getString("forwarded_from"));
            assertEquals(fid, seen.getString("forward_id"));

            // the same forward again on a fresh connection: answered from the durable ledger
            JsonObject again = exchange("hub-a", 5, forward(fid, "chat", "ACME/alice", "ACME/bob", chatBody("Build is green.")));
            assertEquals("duplicate", again.getString("disposition"), again.toString());
            assertEquals(result, again.getJsonObject("result"));
            JsonObject conflict = exchange("hub-a", 5, forward(fid, "chat", "ACME/alice", "ACME/bob", chatBody("changed")));
            assertEquals("refused", conflict.getString("disposition"));
            assertEquals("forward_id_conflict", conflict.getString("reason_code"));
            bob.expectNone(f -> "chat".equals(f.getString("type", "")), Duration.ofMillis(500));
        }
    }

    @Test
    void refusalsCarryTheirCodes() {
        Map<String, JsonObjectBuilder> cases = Map.of(
                "invalid_target", forward(id("t"), "chat", "ACME/alice", "ACME/*", chatBody("x")),
                "namespace_not_granted", forward(id("n"), "chat", "ACME/alice", "OTHER/bob", chatBody("x")),
                "invalid_shape", forward(id("s"), "chat", "ACME/alice", "ACME/bob", Json.createObjectBuilder().add("payload", 1)));
        cases.forEach((code, frame) -> {
            JsonObject r = exchange("hub-a", 5, frame);
            assertEquals("refused", r.getString("disposition"), r.toString());
            assertEquals(code, r.getString("reason_code"), r.toString());
        });
        JsonObject r = exchange("hub-r", 5, forward(id("p"), "chat", "ACME/alice", "ACME/bob", chatBody("x")));
        assertEquals("peer_not_authorised", r.getString("reason_code"), r.toString());
    }

    @Test
    void aMalformedForwardGetsThePlainErrorAndTheSocketStaysUsable() {
        try (SynapseClient peer = login("hub-a", 5)) {
            peer.send(forward(id("m"), "gossip", "ACME/alice", "ACME/bob", chatBody("x")).build());
            JsonObject e = peer.expect(f -> "error".equals(f.getString("type", "")), WAIT);
            assertEquals("Malformed multi-hub message forward", e.getString("payload"));
            peer.send(forward(id("w"), "who", "ACME/alice", null, Json.createObjectBuilder()).build());
            assertEquals("accepted", peer.expectType("multihub_message_result").getString("disposition"));
        }
    }

    @Test
    void nonPeersAreRefusedWithAPrivateError() {
        for (String name : List.of("hub-z", "ACME/carol")) {
            JsonObject r = exchange(name, 5, forward(id("np"), "chat", "ACME/alice", "ACME/bob", chatBody("x")));
            assertEquals("error", r.getString("type"), r.toString());
            assertEquals("Hub-to-hub frames are served only to a granted peer hub", r.getString("payload"));
        }
        JsonObject old = exchange("hub-a", 4, forward(id("v4"), "chat", "ACME/alice", "ACME/bob", chatBody("x")));
        assertEquals("error", old.getString("type"), old.toString());
    }

    @Test
    void whoListsOnlyGrantedNamespaces() {
        try (SynapseClient bob = login("ACME/dave", 4); SynapseClient eve = login("OTHER/eve", 4)) {
            JsonObject r = exchange("hub-a", 5, forward(id("who"), "who", "ACME/alice", null, Json.createObjectBuilder()));
            assertEquals("accepted", r.getString("disposition"), r.toString());
            List<String> online = r.getJsonObject("result").getJsonArray("online_agents").getValuesAs(JsonString::getString);
            assertTrue(online.contains("ACME/dave"), online.toString());
            assertFalse(online.contains("OTHER/eve"), online.toString());
            assertFalse(online.contains("hub-a"), online.toString());
        }
    }

    @Test
    void aForwardedDeliveryRequestIsAdmittedAndItsStatusRead() {
        String session = "ef".repeat(32);
        SynapseClient builder = SynapseClient.connect(hub.webSocketUri(), "ACME/builder");
        builder.send(SynapseClient.frame("heartbeat", "System", "online").add("token", TOKEN).add("protocol_version", 3)
                .add("delivery_session_token", session)
                .add("delivery_capabilities", Json.createObjectBuilder().add("follow_up", "native").add("steer", "native")));
        String incarnation = builder.expectType("delivery_session").getString("incarnation");
        try (builder) {
            JsonObject r = exchange("hub-a", 5, forward(id("dr"), "delivery_request", "ACME/planner", "ACME/builder",
                    requestBody(incarnation, "follow_up")));
            assertEquals("accepted", r.getString("disposition"), r.toString());
            JsonObject status = r.getJsonObject("result").getJsonObject("status");
            String key = status.getString("operation_key");
            JsonObject offer = builder.expectType("delivery_offer");
            assertEquals("ACME/planner@hub-a", offer.getString("sender"));
            assertEquals(key, offer.getString("operation_key"));
            JsonObject read = exchange("hub-a", 5, forward(id("ds"), "delivery_status", "ACME/planner", null,
                    Json.createObjectBuilder().add("operation_key", key).add("protocol_version", 3)));
            assertEquals("accepted", read.getString("disposition"), read.toString());
            assertEquals(key, read.getJsonObject("result").getJsonObject("status").getString("operation_key"));
            JsonObject steer = exchange("hub-a", 5, forward(id("st"), "delivery_request", "ACME/planner", "ACME/builder",
                    requestBody(incarnation, "steer")));
            assertEquals("unauthorised_requester", steer.getString("reason_code"), steer.toString());
        }
    }

    /** A fresh delivery_request body (a builder is emptied by build(), so each forward gets its own). */
    static JsonObjectBuilder requestBody(String incarnation, String mode) {
        String requestId = id("rq");
        return Json.createObjectBuilder().add("payload", "").add("protocol_version", 3)
                .add("request_id", requestId).add("idempotency_key", "ik-" + requestId)
                .add("target_incarnation", incarnation).add("mode", mode).add("task_id", "T-7")
                .add("body", "please rebuild").add("deadline", System.currentTimeMillis() / 1000.0 + 600);
    }

    static JsonObjectBuilder reserve(String key, String amount) {
        return Json.createObjectBuilder().add("pool_id", "gpu").add("seat", "ACME/alice").add("task", "T-1")
                .add("operation", "train").add("key", key).add("amount", Json.createValue(new java.math.BigDecimal(amount)))
                .add("provenance", "ci:run/1");
    }

    static JsonObject spend(String peerId, String action, JsonObjectBuilder doc) {
        try (SynapseClient peer = login(peerId, 5)) {
            peer.send(Json.createObjectBuilder().add("type", "spend_request").add("target", "System").add("payload", "")
                    .add("spend_action", action).add("spend", doc).build());
            JsonObject r = peer.expectType("spend_result");
            assertEquals(action, r.getString("spend_action"));
            return r.getJsonObject("spend_result");
        }
    }

    @Test
    void spendReserveRetryConflictQueryAndTheUniformRefusal() throws Exception {
        String key = id("k");
        JsonObject first = spend("hub-a", "reserve", reserve(key, "10.00"));
        assertTrue(first.getBoolean("admitted"), first.toString());
        assertEquals(new java.math.BigDecimal("10.00"), first.getJsonNumber("amount").bigDecimalValue());
        assertEquals(first, spend("hub-a", "reserve", reserve(key, "10.00")));
        assertEquals("idempotency_conflict", spend("hub-a", "reserve", reserve(key, "2")).getString("reason"));
        JsonObject found = spend("hub-a", "query", Json.createObjectBuilder().add("pool_id", "gpu").add("seat", "ACME/alice")
                .add("task", "T-1").add("operation", "train").add("key", key));
        assertEquals(first.getString("reservation_id"), found.getString("reservation_id"));
        JsonObject over = spend("hub-a", "reserve", reserve(id("k"), "0.06"));
        JsonObject notGranted = spend("hub-r", "reserve", reserve(id("k"), "0.01"));
        JsonObject unknownPool = spend("hub-a", "reserve", reserve(id("k"), "0.01").add("pool_id", "tpu"));
        for (JsonObject refused : List.of(over, notGranted, unknownPool)) {
            assertEquals(Json.createObjectBuilder().add("admitted", false).add("reason", "not-admitted").build(), refused);
        }
        String onDisk = Files.readString(Path.of(spendLedger));
        assertTrue(onDisk.contains(first.getString("reservation_id")), "the reservation is in the owner-only ledger");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(spendLedger))));
    }

    @Test
    void peerAttachmentRequestsGetTheUniformRefusalWhenNothingIsGranted() {
        try (SynapseClient peer = login("hub-a", 6)) {
            peer.send(Json.createObjectBuilder().add("type", "attachment_peer_request").add("target", "System")
                    .add("payload", "").add("action", "info").add("scope", "ACME").add("digest", "a".repeat(64)).build());
            JsonObject r = peer.expectType("attachment_peer_result");
            assertFalse(r.getBoolean("ok"));
            assertEquals("attachment unavailable", r.getString("error"));
            assertFalse(r.containsKey("metadata"));
        }
    }

    @Test
    void metricsCountTheReceivingSide() throws Exception {
        exchange("hub-a", 5, forward(id("mw"), "who", "ACME/alice", null, Json.createObjectBuilder()));
        String metrics = hub.httpClient().send(java.net.http.HttpRequest.newBuilder(hub.http("/metrics")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(metrics.contains("synapse_federation_forwards_received_total{kind=\"who\",outcome=\"accepted\"}"), metrics);
        assertTrue(metrics.contains("synapse_federation_peer_attachment_requests_total{decision=\"denied\"}"), metrics);
    }

    @Test
    void aRevokedGrantStopsTheNextForwardOnTheSameSocket() throws Exception {
        Path policy = dir.resolve("multihub.json");
        try (SynapseClient peer = login("hub-a", 5)) {
            peer.send(forward(id("rv"), "who", "ACME/alice", null, Json.createObjectBuilder()).build());
            assertEquals("accepted", peer.expectType("multihub_message_result").getString("disposition"));
            ownerOnly(policy, POLICY.replace("\"verbs\":[\"message\",\"read\",\"spend\"]}",
                    "\"verbs\":[\"message\",\"read\",\"spend\"],\"revoked\":true}"));
            Files.setLastModifiedTime(policy, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 2000));
            peer.send(forward(id("rv"), "who", "ACME/alice", null, Json.createObjectBuilder()).build());
            JsonObject refused = peer.expect(f -> "error".equals(f.getString("type", ""))
                    || "multihub_message_result".equals(f.getString("type", "")), WAIT);
            assertEquals("error", refused.getString("type"), refused.toString());
            assertEquals("Hub-to-hub frames are served only to a granted peer hub", refused.getString("payload"));
        } finally {
            ownerOnly(policy, POLICY);
            Files.setLastModifiedTime(policy, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 4000));
        }
    }
}
