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

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("federation-it");
        String policy = ownerOnly(dir.resolve("multihub.json"), """
                {"version":1,"grants":[
                  {"sender":"hub-a","namespace":"ACME","verbs":["message","read","spend"]},
                  {"sender":"hub-r","namespace":"ACME","verbs":["read"]}]}
                """);
        hub = HubServer.start(HubServer.env("HUB_TOKEN", TOKEN, "HUB_MULTIHUB_POLICY", policy));
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
}
