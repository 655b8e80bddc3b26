package org.switchboard.itests.synapse.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Terminal delivery requests forgotten from the hub's memory ({@code hub.delivery-terminal-retention-seconds}),
 * against the packaged hub: a request closed longer than the retention is unknown to status reads and its
 * idempotency pair admits anew, while a request whose sender has not yet taken its final notification is
 * kept until the sender comes back for it.
 */
class DeliveryForgetIT {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final double DEADLINE = Math.floor(System.currentTimeMillis() / 1000.0) + 3000.5;
    private static HubServer hub;

    @BeforeAll
    static void start() {
        hub = HubServer.start(HubServer.env("HUB_DELIVERY_TERMINAL_RETENTION_SECONDS", "2"));
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    private static SynapseClient sender(String name) {
        return SynapseClient.register(hub.webSocketUri(), name, Json.createObjectBuilder().add("protocol_version", 3).build());
    }

    private static JsonObjectBuilder request(String target, String id, String incarnation) {
        return SynapseClient.frame("delivery_request", target, "").add("protocol_version", 3).add("request_id", id)
                .add("idempotency_key", "ik-" + id).add("target_incarnation", incarnation).add("mode", "follow_up")
                .add("task_id", "T-7").add("body", "Run the nightly checks. " + id).add("deadline", DEADLINE);
    }

    private static JsonObjectBuilder reject(JsonObject offer, String mutation) {
        return SynapseClient.frame("delivery_outcome", "System", "").add("protocol_version", 3)
                .add("operation_key", offer.getString("operation_key")).add("request_id", offer.getString("request_id"))
                .add("task_id", offer.getString("task_id")).add("mutation_id", mutation)
                .add("evidence", Json.createObjectBuilder().add("reason_code", "busy")).add("stage", "rejected");
    }

    private static JsonObject reply(SynapseClient client) {
        return client.expect(f -> "delivery_status".equals(f.getString("type", "")) && !f.containsKey("audience"), WAIT);
    }

    private static JsonObject notification(SynapseClient client, String stage) {
        return client.expect(f -> "delivery_status".equals(f.getString("type", "")) && f.containsKey("audience")
                && stage.equals(f.getString("stage", "")), WAIT);
    }

    @Test
    void aClosedRequestIsForgottenAfterTheRetentionUnlessItsNotificationIsStillOwed() throws Exception {
        String token = "f".repeat(64);
        String incarnation = DeliveryIT.incarnation(token);
        try (SynapseClient worker = SynapseClient.register(hub.webSocketUri(), "ops/worker", Json.createObjectBuilder()
                .add("protocol_version", 3).add("delivery_session_token", token)
                .add("delivery_capabilities", Json.createObjectBuilder().add("follow_up", "native")).build())) {
            String taken;
            try (SynapseClient planner = sender("ops/planner")) {
                planner.send(request("ops/worker", "rq-1", incarnation));
                taken = reply(planner).getString("operation_key");
                worker.send(reject(worker.expectType("delivery_offer"), "no-1"));
                assertEquals("rejected", reply(worker).getString("stage"));
                assertEquals(taken, notification(planner, "rejected").getString("operation_key"), "the sender took it at once");
            }
            // the sender is away when its second request closes: the rejected notification waits for it
            String owed;
            JsonObject secondOffer;
            try (SynapseClient planner = sender("ops/planner")) {
                planner.send(request("ops/worker", "rq-2", incarnation));
                owed = reply(planner).getString("operation_key");
                secondOffer = worker.expectType("delivery_offer");
            }
            Thread.sleep(500);
            worker.send(reject(secondOffer, "no-2"));
            assertEquals("rejected", reply(worker).getString("stage"));

            // past the 2 s retention and a 5 s sweep: the first request goes, the second stays for its sender
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (hub.metric("synapse_delivery_terminal_forgotten_total") < 1 && System.nanoTime() < until) {
                Thread.sleep(250);
            }
            Thread.sleep(6_000); // one more sweep
            assertEquals(1.0, hub.metric("synapse_delivery_terminal_forgotten_total"), "only the request nothing is owed for");

            try (SynapseClient planner = sender("ops/planner")) {
                assertEquals(owed, notification(planner, "rejected").getString("operation_key"),
                        "the owed notification arrives on return: its request was kept for it");
                planner.send(keyed(taken));
                JsonObject refused = planner.expect(f -> "delivery_refused".equals(f.getString("type", "")), WAIT);
                assertEquals("unknown_request", refused.getString("reason_code"));
                planner.send(keyed(owed));
                assertEquals("rejected", reply(planner).getString("stage"));

                planner.send(request("ops/worker", "rq-1", incarnation));
                JsonObject again = reply(planner);
                assertEquals("queued", again.getString("stage"), "a forgotten request's idempotency pair admits anew");
                assertEquals(again.getString("operation_key"), worker.expectType("delivery_offer").getString("operation_key"));
            }
        }
    }

    private static JsonObjectBuilder keyed(String operationKey) {
        return SynapseClient.frame("delivery_status_request", "System", "").add("protocol_version", 3)
                .add("operation_key", operationKey);
    }
}
