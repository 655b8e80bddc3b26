package org.switchboard.synapse.federation.receive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.federation.FederationService;

/** The receiving algorithm of synapse-advanced §4.5 on a hub built in memory, driven by a fake peer hub. */
class ForwardReceiveTest {

    static final String TOKEN = "peer-test-token-0123456789";

    @TempDir
    Path dir;

    TestHub hub;

    @BeforeEach
    void hub() throws Exception {
        Path policy = dir.resolve("multihub.json");
        Files.writeString(policy, """
                {"version":1,"grants":[
                  {"sender":"hub-a","namespace":"ACME","verbs":["message","read"]},
                  {"sender":"hub-r","namespace":"ACME","verbs":["read"]},
                  {"sender":"hub-x","namespace":"ACME","verbs":["message"],"revoked":true}]}
                """);
        Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));
        hub = new TestHub(SynapseSettings.builder().token(TOKEN).multihubPolicy(policy.toString()).build(),
                new InMemoryJournal());
    }

    TestHub.Client peer(String id, int version) {
        return hub.register(id, Json.createObjectBuilder().add("token", TOKEN).add("protocol_version", version));
    }

    TestHub.Client agent(String name) {
        return hub.register(name, Json.createObjectBuilder().add("token", TOKEN).add("protocol_version", 4));
    }

    static JsonObjectBuilder forward(String id, String kind, String sender, String target, JsonObjectBuilder body) {
        JsonObjectBuilder f = Json.createObjectBuilder().add("type", "multihub_message_forward").add("target", "System")
                .add("forward_id", id).add("kind", kind).add("sender_seat", sender).add("body", body);
        if (target != null) {
            f.add("target_seat", target);
        }
        return f;
    }

    static JsonObjectBuilder chatBody(String payload) {
        return Json.createObjectBuilder().add("payload", payload).add("origin_msg_id", 311)
                .add("origin_timestamp", 1790000001.5).add("client_msg_id", "c-311");
    }

    static JsonObject result(TestHub.Client peer) {
        return peer.peer().lastOfType("multihub_message_result");
    }

    @Test
    void oneConnectionCarriesManyForwardsAndEachResultOffersReuse() {
        agent("ACME/bob");
        TestHub.Client a = peer("hub-a", 5);
        a.send(forward("f1", "chat", "ACME/alice", "ACME/bob", chatBody("one")));
        a.send(forward("f2", "chat", "ACME/alice", "ACME/bob", chatBody("two")));
        List<JsonObject> results = a.peer().ofType("multihub_message_result");
        assertEquals(2, results.size());
        assertEquals(java.util.Set.of("f1", "f2"),
                java.util.Set.of(results.get(0).getString("forward_id"), results.get(1).getString("forward_id")));
        for (JsonObject r : results) {
            assertEquals("accepted", r.getString("disposition"));
            assertEquals(jakarta.json.JsonValue.TRUE, r.get("connection_reuse"), "ours: the origin may keep the connection");
        }
    }

    @Test
    void anAcceptedChatReachesTheLocalSeatAsSeatAtOrigin() {
        TestHub.Client bob = agent("ACME/bob");
        TestHub.Client a = peer("hub-a", 5);
        a.send(forward("f1", "chat", "ACME/alice", "ACME/bob", chatBody("Build is green.")));
        JsonObject r = result(a);
        assertEquals("accepted", r.getString("disposition"));
        assertEquals("f1", r.getString("forward_id"));
        assertEquals(hub.hub.hubId(), r.getString("answering_hub"));
        assertEquals("", r.getString("reason_code"));
        JsonObject res = r.getJsonObject("result");
        assertTrue(res.getBoolean("delivered"));
        assertEquals(List.of("ACME/bob"), res.getJsonArray("recipients").getValuesAs(jakarta.json.JsonString::getString));
        assertTrue(res.getJsonNumber("seq").longValue() > 0, "journalled");
        JsonObject seen = bob.peer().last(f -> "chat".equals(f.getString("type", ""))
                && "Build is green.".equals(f.getString("payload", "")));
        assertEquals("ACME/alice@hub-a", seen.getString("sender"));
        assertEquals("hub-a", seen.getString("forwarded_from"));
        assertEquals("f1", seen.getString("forward_id"));
        assertEquals(res.getJsonNumber("msg_id").longValue(), seen.getJsonNumber("msg_id").longValue());
        assertTrue(a.peer().ofType("chat").isEmpty(), "the chat is not copied back to the peer's socket");
        assertTrue(hub.journal.events().stream().anyMatch(e -> "chat".equals(e.kind())
                && "ACME/alice@hub-a".equals(e.payload().getString("sender", ""))), "journalled like any chat");
    }

    @Test
    void aRepeatIsADuplicateAndAChangedRepeatAConflict() {
        agent("ACME/bob");
        TestHub.Client a = peer("hub-a", 5);
        a.send(forward("f2", "chat", "ACME/alice", "ACME/bob", chatBody("one")));
        JsonObject first = result(a);
        a.peer().clear();
        a.send(forward("f2", "chat", "ACME/alice", "ACME/bob", chatBody("one")));
        JsonObject again = result(a);
        assertEquals("duplicate", again.getString("disposition"));
        assertEquals(first.getJsonObject("result"), again.getJsonObject("result"));
        a.peer().clear();
        a.send(forward("f2", "chat", "ACME/alice", "ACME/bob", chatBody("two")));
        assertEquals("forward_id_conflict", result(a).getString("reason_code"));
        assertEquals("refused", result(a).getString("disposition"));
        long chats = hub.journal.events().stream().filter(e -> "chat".equals(e.kind())).count();
        assertEquals(1, chats, "neither repeat was routed again");
    }

    @Test
    void refusalsCarryTheirReasonCodesAndAreNotRemembered() {
        TestHub.Client a = peer("hub-a", 5);
        a.send(forward("r1", "chat", "ACME/alice", "ACME/*", chatBody("x")));
        assertEquals("invalid_target", result(a).getString("reason_code"));
        a.send(forward("r2", "chat", "ACME/alice", "all", chatBody("x")));
        assertEquals("invalid_target", result(a).getString("reason_code"));
        a.send(forward("r3", "chat", "ACME/alice", "OTHER/bob", chatBody("x")));
        assertEquals("namespace_not_granted", result(a).getString("reason_code"));
        a.send(forward("r4", "chat", "ACME/alice", "bob", chatBody("x")));
        assertEquals("namespace_not_granted", result(a).getString("reason_code"));
        a.send(forward("r5", "chat", "ACME/alice", "ACME/bob", Json.createObjectBuilder().add("payload", 7)));
        assertEquals("invalid_shape", result(a).getString("reason_code"));
        // a transient refusal is not remembered: the same forward_id succeeds once the target is granted
        a.send(forward("r5", "chat", "ACME/alice", "ACME/bob", chatBody("fixed")));
        assertEquals("accepted", result(a).getString("disposition"));
        TestHub.Client r = peer("hub-r", 5);
        r.send(forward("r6", "chat", "ACME/alice", "ACME/bob", chatBody("x")));
        assertEquals("peer_not_authorised", result(r).getString("reason_code"));
        r.send(forward("r7", "who", "ACME/alice", null, Json.createObjectBuilder()));
        assertEquals("peer_not_authorised", result(r).getString("reason_code"));
    }

    @Test
    void aMalformedForwardGetsThePlainErrorAndNoResult() {
        TestHub.Client a = peer("hub-a", 5);
        a.send(forward("m1", "gossip", "ACME/alice", "ACME/bob", chatBody("x")));
        a.send(forward("m2", "chat", "ACME/alice", null, chatBody("x")));
        a.send(forward("m3", "chat", "ACME/al@ice", "ACME/bob", chatBody("x")));
        a.send(forward("m4", "who", "ACME/alice", "ACME/bob", Json.createObjectBuilder()));
        a.send(Json.createObjectBuilder().add("type", "multihub_message_forward").add("forward_id", "m5")
                .add("kind", "chat").add("sender_seat", "ACME/alice").add("target_seat", "ACME/bob").add("body", "x"));
        assertEquals(5, a.peer().ofType("error").stream()
                .filter(e -> ForwardReceiver.MALFORMED.equals(e.getString("payload", ""))).count());
        assertTrue(a.peer().ofType("multihub_message_result").isEmpty());
        assertTrue(a.peer().isOpen());
    }

    @Test
    void onlyAProvenGrantedPeerIsServed() {
        for (TestHub.Client c : List.of(peer("hub-z", 5), peer("hub-x", 5), peer("hub-a-old", 5), agent("ACME/carol"))) {
            c.send(forward("n1", "chat", "ACME/alice", "ACME/bob", chatBody("x")));
            assertEquals(FederationService.NOT_A_PEER, c.peer().lastOfType("error").getString("payload"), c.name());
            assertTrue(c.peer().ofType("multihub_message_result").isEmpty());
            assertTrue(c.peer().isOpen());
        }
        TestHub.Client old = peer("hub-a", 4);
        old.send(forward("n2", "chat", "ACME/alice", "ACME/bob", chatBody("x")));
        assertEquals(FederationService.NOT_A_PEER, old.peer().lastOfType("error").getString("payload"),
                "a peer below version 5 is not served");
    }

    @Test
    void withoutAConnectTokenNoPeerIsProven() {
        TestHub open = new TestHub(SynapseSettings.builder().multihubPolicy(
                dir.resolve("multihub.json").toString()).build(), new InMemoryJournal());
        TestHub.Client a = open.register("hub-a", Json.createObjectBuilder().add("protocol_version", 5));
        a.send(forward("t1", "chat", "ACME/alice", "ACME/bob", chatBody("x")));
        assertEquals(FederationService.NOT_A_PEER, a.peer().lastOfType("error").getString("payload"));
    }

    @Test
    void whoListsOnlyNamesInGrantedNamespaces() {
        agent("ACME/bob");
        agent("OTHER/eve");
        agent("plain");
        TestHub.Client a = peer("hub-a", 5);
        a.send(forward("w1", "who", "ACME/alice", null, Json.createObjectBuilder()));
        JsonObject r = result(a);
        assertEquals("accepted", r.getString("disposition"));
        assertEquals(List.of("ACME/bob"), r.getJsonObject("result").getJsonArray("online_agents")
                .getValuesAs(jakarta.json.JsonString::getString));
        assertTrue(r.getJsonObject("result").containsKey("delivery_sessions"));
    }

    @Test
    void theDigestCoversTheFiveFieldsInCanonicalForm() {
        JsonObject a = forward("d", "chat", "ACME/a", "ACME/b", Json.createObjectBuilder().add("payload", "x").add("n", 1)).build();
        JsonObject b = forward("d", "chat", "ACME/a", "ACME/b", Json.createObjectBuilder().add("n", 1).add("payload", "x"))
                .add("extra_envelope_field", true).build();
        assertEquals(ForwardFrame.decode(a).digest(), ForwardFrame.decode(b).digest(), "member order and envelope do not count");
        JsonObject c = forward("d", "chat", "ACME/a", "ACME/b", Json.createObjectBuilder().add("payload", "y").add("n", 1)).build();
        assertFalse(ForwardFrame.decode(a).digest().equals(ForwardFrame.decode(c).digest()));
    }

    @Test
    void aPeerMayHoldSeveralForwardSocketsAtOnceAndIsNoAgent() {
        TestHub.Client bob = agent("ACME/bob");
        TestHub.Client first = peer("hub-a", 5);
        TestHub.Client second = peer("hub-a", 5); // §4.3: one socket per forward, several in flight
        assertTrue(second.peer().ofType("name_conflict").isEmpty(), second.peer().toString());
        assertEquals(1, second.peer().ofType("welcome").size(), "§1.4 step 9: the welcome on a secured hub");
        first.send(forward("p1", "chat", "ACME/alice", "ACME/bob", chatBody("one")));
        second.send(forward("p2", "chat", "ACME/alice", "ACME/bob", chatBody("two")));
        assertEquals("accepted", result(first).getString("disposition"));
        assertEquals("accepted", result(second).getString("disposition"));
        assertTrue(bob.peer().ofType("presence_update").stream().noneMatch(p -> "hub-a".equals(p.getString("agent", ""))),
                "a peer socket is no agent: no presence");
        assertTrue(!hub.hub.context().registry().roster().contains("hub-a"), "nor in the roster");
        // an agent cannot take a peer's name without the peer's proof: a v4 registration binds as usual
        TestHub.Client impostor = hub.register("hub-a", Json.createObjectBuilder().add("token", TOKEN).add("protocol_version", 4));
        impostor.send(forward("p3", "chat", "ACME/alice", "ACME/bob", chatBody("three")));
        assertEquals(FederationService.NOT_A_PEER, impostor.peer().lastOfType("error").getString("payload"));
    }
}
