package org.switchboard.synapse.federation.receive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.delivery.DeliveryDigests;

/** Forwarded delivery intents (synapse-advanced §4.5 delivery kinds) admitted through the local delivery service. */
class DeliveryForwardsTest {

    static final String SESSION = "cd".repeat(32);
    static final String INC = DeliveryDigests.incarnation(SESSION);

    @TempDir
    Path dir;

    TestHub hub;
    TestHub.Client peer;
    TestHub.Client builder;

    @BeforeEach
    void hub() throws Exception {
        Path policy = dir.resolve("multihub.json");
        Files.writeString(policy, "{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"message\"]}]}");
        Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));
        hub = new TestHub(SynapseSettings.builder().token(ForwardReceiveTest.TOKEN).multihubPolicy(policy.toString()).build(),
                new InMemoryJournal());
        builder = hub.register("ACME/builder", Json.createObjectBuilder().add("token", ForwardReceiveTest.TOKEN)
                .add("protocol_version", 3).add("delivery_session_token", SESSION)
                .add("delivery_capabilities", Json.createObjectBuilder().add("follow_up", "native").add("steer", "native")));
        peer = hub.register("hub-a", Json.createObjectBuilder().add("token", ForwardReceiveTest.TOKEN).add("protocol_version", 5));
    }

    static JsonObjectBuilder requestBody(String id, String mode) {
        return Json.createObjectBuilder().add("payload", "").add("protocol_version", 3).add("request_id", id)
                .add("idempotency_key", "ik-" + id).add("target_incarnation", INC).add("mode", mode)
                .add("task_id", "T-1").add("body", "please").add("deadline", 1_767_225_600.0 + 600)
                .add("sender", "ignored-field-never-copied");
    }

    JsonObject send(JsonObjectBuilder forward) {
        peer.peer().clear();
        peer.send(forward);
        return peer.peer().lastOfType("multihub_message_result");
    }

    @Test
    void aForwardedRequestIsAdmittedAndItsStatusAndCancelAreServed() {
        JsonObject r = send(ForwardReceiveTest.forward("d1", "delivery_request", "ACME/planner", "ACME/builder",
                requestBody("rq-1", "follow_up")));
        assertEquals("accepted", r.getString("disposition"), r.toString());
        JsonObject status = r.getJsonObject("result").getJsonObject("status");
        assertEquals("delivery_status", status.getString("type"));
        String key = status.getString("operation_key");
        assertEquals(DeliveryDigests.operationKey("hub-a", "ACME/planner@hub-a", "rq-1"), key,
                "the requester is seat@origin, its origin hub the peer (§4.5: origin_hub = origin)");
        JsonObject offer = builder.peer().lastOfType("delivery_offer");
        assertEquals("ACME/planner@hub-a", offer.getString("sender"));
        assertEquals("hub-a", offer.getString("origin_hub"));
        assertEquals(hub.hub.hubId(), offer.getString("hub_id"), "the receiving hub sends the offer");
        JsonObject stored = hub.journal.events().stream().filter(e -> "delivery_intent_accepted".equals(e.kind()))
                .reduce((x, y) -> y).orElseThrow().payload().getJsonObject("request");
        assertEquals("hub-a", stored.getString("origin_hub"), "the stored intent names the real origin hub");
        assertEquals(hub.hub.hubId(), stored.getString("receiving_hub"));

        JsonObject read = send(ForwardReceiveTest.forward("d2", "delivery_status", "ACME/planner", null,
                Json.createObjectBuilder().add("operation_key", key).add("protocol_version", 3)));
        assertEquals("accepted", read.getString("disposition"), read.toString());
        assertEquals(key, read.getJsonObject("result").getJsonObject("status").getString("operation_key"));

        JsonObject other = send(ForwardReceiveTest.forward("d3", "delivery_status", "ACME/mallory", null,
                Json.createObjectBuilder().add("operation_key", key).add("protocol_version", 3)));
        assertEquals("unauthorised_requester", other.getString("reason_code"), "only the requesting seat may follow up");

        JsonObject cancel = send(ForwardReceiveTest.forward("d4", "delivery_cancel", "ACME/planner", null,
                Json.createObjectBuilder().add("operation_key", key).add("protocol_version", 3).add("mutation_id", "m-1")));
        assertEquals("accepted", cancel.getString("disposition"), cancel.toString());
        assertTrue(cancel.getJsonObject("result").getJsonObject("status").getBoolean("cancel_requested"));

        JsonObject unknown = send(ForwardReceiveTest.forward("d5", "delivery_status", "ACME/planner", null,
                Json.createObjectBuilder().add("operation_key", "0".repeat(64)).add("protocol_version", 3)));
        assertEquals("unknown_request", unknown.getString("reason_code"));
    }

    @Test
    void steerIsNeverGrantedAndNamespacesAreChecked() {
        JsonObject steer = send(ForwardReceiveTest.forward("s1", "delivery_request", "ACME/planner", "ACME/builder",
                requestBody("rq-2", "steer")));
        assertEquals("refused", steer.getString("disposition"));
        assertEquals("unauthorised_requester", steer.getString("reason_code"));
        JsonObject ns = send(ForwardReceiveTest.forward("s2", "delivery_request", "ACME/planner", "OTHER/builder",
                requestBody("rq-3", "follow_up")));
        assertEquals("namespace_not_granted", ns.getString("reason_code"));
    }

    @Test
    void followUpsAreRefusedOnceTheGrantNoLongerCoversTheStoredTarget() throws Exception {
        JsonObject r = send(ForwardReceiveTest.forward("n1", "delivery_request", "ACME/planner", "ACME/builder",
                requestBody("rq-9", "follow_up")));
        String key = r.getJsonObject("result").getJsonObject("status").getString("operation_key");
        // the grant is narrowed to another namespace: hub-a is still a peer, but not for ACME
        Path policy = dir.resolve("multihub.json");
        Files.writeString(policy, "{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"OPS\",\"verbs\":[\"message\"]}]}");
        JsonObject read = send(ForwardReceiveTest.forward("n2", "delivery_status", "ACME/planner", null,
                Json.createObjectBuilder().add("operation_key", key).add("protocol_version", 3)));
        assertEquals("refused", read.getString("disposition"), read.toString());
        assertEquals("namespace_not_granted", read.getString("reason_code"));
        JsonObject cancel = send(ForwardReceiveTest.forward("n3", "delivery_cancel", "ACME/planner", null,
                Json.createObjectBuilder().add("operation_key", key).add("protocol_version", 3).add("mutation_id", "m-9")));
        assertEquals("namespace_not_granted", cancel.getString("reason_code"), cancel.toString());
        assertTrue(hub.journal.events().stream().noneMatch(e -> "delivery_cancel_requested".equals(e.kind())),
                "nothing was cancelled");
    }
}
