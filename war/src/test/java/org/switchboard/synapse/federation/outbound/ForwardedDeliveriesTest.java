package org.switchboard.synapse.federation.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.TestHub;

/** Forwarded delivery intents (§4.7) over an in-memory hub and a scripted peer. */
class ForwardedDeliveriesTest {

    static final String KEY = "ab".repeat(32);
    final TestHub test = new TestHub(new InMemoryJournal());
    final ForwardServiceTest.ScriptedPeer peer = new ForwardServiceTest.ScriptedPeer();
    final MessagePeers peers = MessagePeers.parse("hub-b=ws://127.0.0.1:9877/", "", 60);
    Set<String> localKeys = Set.of();
    final ForwardedDeliveries deliveries = install();

    ForwardedDeliveries install() {
        ForwardService service = new ForwardService(test.hub.context(), peers, "peer-secret", peer, (f, d) -> { });
        ForwardedDeliveries d = new ForwardedDeliveries(test.hub.context(), peers, "peer-secret", peer, () -> true,
                key -> localKeys.contains(key));
        service.deliveries(d);
        test.hub.forwarding(service);
        return d;
    }

    TestHub.Client agent(String name) {
        return test.register(name, Json.createObjectBuilder().add("protocol_version", 3));
    }

    static JsonObjectBuilder request(String target) {
        return TestHub.frame("delivery_request", target, "deliver").add("protocol_version", 3).add("request_id", "r-1")
                .add("idempotency_key", "i-1").add("target_incarnation", "cd".repeat(32)).add("mode", "next_turn")
                .add("body", "please review").add("deadline", 1_767_229_200.0).add("token", "agent-secret");
    }

    static JsonObject statusAnswer(String key) {
        return Json.createObjectBuilder(ForwardServiceTest.accepted()).add("result", Json.createObjectBuilder()
                .add("status", Json.createObjectBuilder().add("type", "delivery_status").add("sender", "System")
                        .add("target", "ACME/alice@hub-a").add("operation_key", key).add("stage", "queued"))).build();
    }

    JsonObject refusal(TestHub.Client client) {
        return client.peer().lastOfType("delivery_refused");
    }

    @Test
    void aRequestIsRelayedAndItsRouteRemembered() {
        TestHub.Client alice = agent("ACME/alice");
        peer.answers.add(statusAnswer(KEY));
        alice.send(request("ACME/bob@hub-b"));
        JsonObject forward = peer.forwards.get(0);
        assertEquals("delivery_request", forward.getString("kind"));
        assertEquals("ACME/bob", forward.getString("target_seat"));
        assertEquals("ACME/alice", forward.getString("sender_seat"));
        JsonObject body = forward.getJsonObject("body");
        assertFalse(body.containsKey("token"), "credentials never travel");
        assertFalse(body.containsKey("sender"));
        assertFalse(body.containsKey("target"));
        assertEquals("please review", body.getString("body"));
        assertEquals("i-1", body.getString("idempotency_key"));
        JsonObject status = alice.peer().lastOfType("delivery_status");
        assertEquals("ACME/alice", status.getString("target"));
        assertEquals("hub-b", status.getString("remote_hub"));
        assertEquals(KEY, status.getString("operation_key"));
        JournalEvent route = test.journal.events().get(test.journal.events().size() - 1);
        assertEquals(ForwardedDeliveries.ROUTE, route.kind());
        assertEquals("hub-b", route.payload().getString("peer_hub"));
        assertEquals("ACME/alice", route.payload().getString("sender"));
    }

    @Test
    void followUpsGoToTheSamePeerOnlyFromTheRequester() {
        TestHub.Client alice = agent("ACME/alice");
        peer.answers.add(statusAnswer(KEY));
        alice.send(request("ACME/bob@hub-b"));
        TestHub.Client mallory = agent("ACME/mallory");
        mallory.send(TestHub.frame("delivery_status_request", "System", "status").add("protocol_version", 3)
                .add("operation_key", KEY));
        assertEquals("unauthorised_requester", refusal(mallory).getString("reason_code"));
        assertEquals(1, peer.forwards.size(), "nothing relayed for another seat");
        peer.answers.add(statusAnswer(KEY));
        alice.send(TestHub.frame("delivery_cancel", "System", "cancel").add("protocol_version", 3)
                .add("operation_key", KEY).add("mutation_id", "m-1"));
        JsonObject cancel = peer.forwards.get(1);
        assertEquals("delivery_cancel", cancel.getString("kind"));
        assertFalse(cancel.containsKey("target_seat"));
        assertEquals(KEY, cancel.getJsonObject("body").getString("operation_key"));
        assertEquals("m-1", cancel.getJsonObject("body").getString("mutation_id"));
        assertEquals("hub-b", alice.peer().lastOfType("delivery_status").getString("remote_hub"));
        // the route survives a restart
        ForwardedDeliveries restarted = new ForwardedDeliveries(test.hub.context(), peers, "", peer, () -> true, k -> false);
        test.journal.events().forEach(restarted::replay);
        assertEquals("ACME/alice", restarted.route(KEY).sender());
        assertNull(restarted.route("cd".repeat(32)));
    }

    @Test
    void everyForwardingReasonCode() {
        TestHub.Client alice = agent("ACME/alice");
        alice.send(request("ACME/bob@hub-z"));
        assertEquals("unknown_hub", refusal(alice).getString("reason_code"));
        assertEquals("r-1", refusal(alice).getString("request_id"));
        alice.send(request("ACME/*@hub-b"));
        assertEquals("invalid_target", refusal(alice).getString("reason_code"));
        alice.send(request("ACME/a@hub-b,ACME/b@hub-b"));
        assertEquals("invalid_target", refusal(alice).getString("reason_code"));
        alice.send(request("ACME/bob@hub-b").add("protocol_version", 2));
        assertEquals("unsupported_protocol", refusal(alice).getString("reason_code"));
        alice.send(request("ACME/bob@hub-b")); // peer down
        assertEquals("peer_unreachable", refusal(alice).getString("reason_code"));
        peer.answers.add(Json.createObjectBuilder().add("type", "error").add("payload", "Unknown type").build());
        alice.send(request("ACME/bob@hub-b"));
        assertEquals("peer_rejected", refusal(alice).getString("reason_code"));
        peer.answers.add(Json.createObjectBuilder(ForwardServiceTest.accepted()).add("disposition", "refused")
                .add("reason_code", "stale_incarnation").build());
        alice.send(request("ACME/bob@hub-b"));
        assertEquals("stale_incarnation", refusal(alice).getString("reason_code"));
        peer.answers.add(statusAnswer("NOT-HEX"));
        alice.send(request("ACME/bob@hub-b"));
        assertEquals("peer_invalid_answer", refusal(alice).getString("reason_code"));
        localKeys = Set.of(KEY);
        peer.answers.add(statusAnswer(KEY));
        alice.send(request("ACME/bob@hub-b"));
        assertEquals("peer_invalid_answer", refusal(alice).getString("reason_code"), "a key naming a local delivery");
        assertTrue(alice.peer().ofType("delivery_status").isEmpty());
        assertTrue(test.journal.events().stream().noneMatch(e -> ForwardedDeliveries.ROUTE.equals(e.kind())));
    }

    @Test
    void aKeyAlreadyRoutedForAnotherSeatIsRefused() {
        TestHub.Client alice = agent("ACME/alice");
        peer.answers.add(statusAnswer(KEY));
        alice.send(request("ACME/bob@hub-b"));
        TestHub.Client eve = agent("ACME/eve");
        peer.answers.add(statusAnswer(KEY));
        eve.send(request("ACME/bob@hub-b"));
        assertEquals("peer_invalid_answer", refusal(eve).getString("reason_code"));
        assertEquals("ACME/alice", deliveries.route(KEY).sender());
    }

    @Test
    void aFollowUpWithoutTheContractVersionIsRefusedBeforeItIsRelayed() {
        TestHub.Client alice = agent("ACME/alice");
        peer.answers.add(statusAnswer(KEY));
        alice.send(request("ACME/bob@hub-b"));
        alice.send(TestHub.frame("delivery_status_request", "System", "status").add("protocol_version", 2)
                .add("operation_key", KEY));
        assertEquals("unsupported_protocol", refusal(alice).getString("reason_code"));
        alice.send(TestHub.frame("delivery_cancel", "System", "cancel").add("operation_key", KEY).add("mutation_id", "m-1"));
        assertEquals("unsupported_protocol", refusal(alice).getString("reason_code"));
        assertEquals(1, peer.forwards.size(), "neither follow-up was relayed");
    }
}
