package org.switchboard.ops.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.delivery.DeliveryDigests;
import org.switchboard.synapse.delivery.DeliveryQueueView;
import org.switchboard.synapse.federation.outbound.ForwardService;
import org.switchboard.synapse.federation.outbound.MessagePeers;

/** The operator's queue views over a real (in-memory) hub: delivery requests and notifications, the forward outbox. */
class QueueOperationsTest {

    static final String TOKEN = "cd".repeat(32);
    static final String INC = DeliveryDigests.incarnation(TOKEN);

    final TestHub test = new TestHub();
    final List<String> scheduled = new ArrayList<>();
    ForwardService forwards;
    final QueueOperations queues = new QueueOperations(() -> test.hub.delivery(), () -> forwards);

    TestHub.Client recipient(String name) {
        return test.register(name, Json.createObjectBuilder().add("protocol_version", 3).add("delivery_session_token", TOKEN)
                .add("delivery_capabilities", Json.createObjectBuilder().add("follow_up", "native")));
    }

    static JsonObjectBuilder request(String target, String id) {
        return TestHub.frame("delivery_request", target, "").add("protocol_version", 3).add("request_id", id)
                .add("idempotency_key", "ik-" + id).add("target_incarnation", INC).add("mode", "follow_up")
                .add("task_id", "T-1").add("body", "body of " + id).add("deadline", 1_767_225_600.0 + 600);
    }

    @Test
    void openRequestsAreListedOldestFirstWithoutTheirBodyAndOneIsReadByKey() {
        TestHub.Client builder = recipient("builder");
        TestHub.Client planner = test.register("planner", Json.createObjectBuilder().add("protocol_version", 3));
        planner.send(request("builder", "rq-1"));
        planner.send(request("builder", "rq-2"));
        JsonObject offer = builder.peer().lastOfType("delivery_offer");

        QueueOperations.DeliveryQueue queue = queues.deliveryQueue();
        assertTrue(queue.durable());
        assertEquals(2, queue.openTotal());
        assertEquals(2, queue.openByStage().get("queued"));
        assertEquals(0, queue.openByStage().get("boundary_delivered"));
        assertEquals(2, queue.offersPending());
        assertEquals(List.of("rq-1", "rq-2"), queue.oldestOpen().stream().map(DeliveryQueueView.Request::requestId).toList());
        DeliveryQueueView.Request second = queue.oldestOpen().get(1);
        assertEquals(offer.getString("operation_key"), second.operationKey());
        assertEquals("planner", second.sender());
        assertEquals("builder", second.target());
        assertEquals(INC, second.targetIncarnation());
        assertEquals("queued", second.stage());
        assertFalse(second.toString().contains("body of"), "the request body is not shown: " + second);

        DeliveryQueueView.Request read = queues.deliveryRequest(" " + offer.getString("operation_key") + " ");
        assertEquals("rq-2", read.requestId());
        OperatorRefusal malformed = assertThrows(OperatorRefusal.class, () -> queues.deliveryRequest("ABC"));
        assertEquals(400, malformed.status());
        OperatorRefusal unknown = assertThrows(OperatorRefusal.class, () -> queues.deliveryRequest("0".repeat(64)));
        assertEquals(404, unknown.status());
    }

    @Test
    void notificationsOfAnAbsentAudienceAreCountedPerAudienceMostFirst() {
        TestHub.Client builder = recipient("builder");
        TestHub.Client planner = test.register("planner", Json.createObjectBuilder().add("protocol_version", 3));
        TestHub.Client other = test.register("other", Json.createObjectBuilder().add("protocol_version", 3));
        planner.send(request("builder", "rq-1"));
        planner.send(request("builder", "rq-2"));
        other.send(request("builder", "rq-3"));
        List<JsonObject> offers = builder.peer().frames().stream().filter(f -> "delivery_offer".equals(f.getString("type", ""))).toList();
        assertEquals(3, offers.size());
        planner.disconnect();
        other.disconnect();
        for (JsonObject offer : offers) {
            builder.send(TestHub.frame("delivery_boundary", "System", "").add("protocol_version", 3)
                    .add("operation_key", offer.getString("operation_key")).add("request_id", offer.getString("request_id"))
                    .add("task_id", offer.getString("task_id")).add("mutation_id", "b-" + offer.getString("request_id"))
                    .add("evidence", Json.createObjectBuilder().add("boundary", "turn-end")));
        }

        QueueOperations.DeliveryQueue queue = queues.deliveryQueue();
        assertEquals(3, queue.openByStage().get("boundary_delivered"));
        assertEquals(0, queue.offersPending());
        assertEquals(3, queue.notificationsPending());
        assertEquals(List.of("planner", "other"), queue.notificationBacklog().stream()
                .map(DeliveryQueueView.AudienceBacklog::audience).toList());
        assertEquals(2, queue.notificationBacklog().get(0).pending());
        assertEquals(1_767_225_600.0, queue.notificationBacklog().get(0).oldestAt(), 1.0);
    }

    @Test
    void theOpenRequestListIsBounded() {
        // 16 open requests per sender and incarnation (§2.8): eight senders fill more than MAX_ROWS
        TestHub.Client builder = recipient("builder");
        int sent = 0;
        for (int s = 0; s < 8; s++) {
            TestHub.Client sender = test.register("s" + s, Json.createObjectBuilder().add("protocol_version", 3));
            for (int i = 0; i < 16; i++) {
                sender.send(request("builder", "rq-" + s + "-" + i));
                sent++;
            }
        }
        QueueOperations.DeliveryQueue queue = queues.deliveryQueue();
        assertEquals(sent, queue.openTotal());
        assertEquals(QueueOperations.MAX_ROWS, queue.oldestOpen().size());
        assertEquals("rq-0-0", queue.oldestOpen().get(0).requestId());
        assertTrue(builder.peer().frames().size() > sent);
    }

    @Test
    void withoutForwardingTheForwardQueueIsEmptyAndSaysSo() {
        QueueOperations.ForwardQueue queue = queues.forwardQueue();
        assertFalse(queue.configured());
        assertEquals(0, queue.pending());
        assertTrue(queue.peers().isEmpty());
    }

    @Test
    void pendingForwardsAreListedPerConfiguredPeerWithZeroes() {
        forwards = new ForwardService(test.hub.context(), MessagePeers.parse("hub-b=ws://127.0.0.1:9877/,hub-c=ws://127.0.0.1:9878/", "", 60),
                "peer-secret", (peer, registration, forward, id) -> {
                    throw new IOException("connection refused");
                }, (id, delay) -> scheduled.add(id));
        test.hub.forwarding(forwards);
        TestHub.Client alice = test.register("ACME/alice");
        alice.send(TestHub.frame("chat", "ACME/bob@hub-b", "first").add("receipt_requested", true));
        test.advance(5);
        alice.send(TestHub.frame("chat", "ACME/carol@hub-b", "second"));
        assertEquals(2, scheduled.size());
        forwards.attempt(scheduled.get(0)); // fails: one attempt counted, the next one later
        test.advance(1);

        QueueOperations.ForwardQueue queue = queues.forwardQueue();
        assertTrue(queue.configured());
        assertEquals(2, queue.pending());
        assertEquals(6.0, queue.oldestPendingSeconds(), 0.01);
        assertEquals(List.of(new QueueOperations.PeerQueue("hub-b", 2, 6.0), new QueueOperations.PeerQueue("hub-c", 0, 0)),
                queue.peers());
        QueueOperations.PendingForward first = queue.oldestPending().get(0);
        assertEquals(scheduled.get(0), first.forwardId());
        assertEquals("hub-b", first.peer());
        assertEquals("ACME/alice", first.sender());
        assertEquals("ACME/bob@hub-b", first.target());
        assertEquals("pending", first.state());
        assertEquals(1, first.attempts());
        assertTrue(first.nextAttemptAt() > first.createdAt(), first.toString());
        assertEquals(first.createdAt() + 60, first.expiresAt(), 0.01);
        assertEquals(Map.of("hub-b", 2L, "hub-c", 0L), Map.of(queue.peers().get(0).peer(), queue.peers().get(0).pending(),
                queue.peers().get(1).peer(), queue.peers().get(1).pending()));
        assertEquals(0, queue.oldestPending().get(1).attempts());
    }
}
