package org.switchboard.ops.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.switchboard.ops.operator.QueueOperations;
import org.switchboard.synapse.delivery.DeliveryQueueView;

/** The console's JSON of the delivery and forward queues (what console.js renders). */
class ConsoleJsonTest {

    @Test
    void deliveryQueueCarriesCountsRequestsAndAudiences() {
        DeliveryQueueView.Request r = new DeliveryQueueView.Request("ab".repeat(32), "rq-1", "planner", "builder", "i".repeat(64),
                "T-1", "steer", "follow_up", "queued", true, 2000.5, 1, 12);
        JsonObject json = ConsoleJson.delivery(new QueueOperations.DeliveryQueue(true, Map.of("queued", 1), 1, 1, 3, 2,
                List.of(r), List.of(new DeliveryQueueView.AudienceBacklog("planner", 3, 1000.25))));
        assertEquals(1, json.getJsonObject("open_by_stage").getInt("queued"));
        assertEquals(3, json.getInt("notifications_pending"));
        assertEquals(2, json.getInt("notifications_dropped"));
        JsonObject request = json.getJsonArray("requests").getJsonObject(0);
        assertEquals("ab".repeat(32), request.getString("operation_key"));
        assertEquals("follow_up", request.getString("selected_mode"));
        assertEquals(true, request.getBoolean("cancel_requested"));
        assertEquals(2000.5, request.getJsonNumber("deadline").doubleValue());
        assertFalse(request.containsKey("body"));
        JsonObject audience = json.getJsonArray("audiences").getJsonObject(0);
        assertEquals("planner", audience.getString("audience"));
        assertEquals(3, audience.getInt("pending"));
    }

    @Test
    void forwardQueueCarriesPeersAndPendingForwards() {
        JsonObject json = ConsoleJson.forwards(new QueueOperations.ForwardQueue(true,
                List.of(new QueueOperations.PeerQueue("hub-b", 1, 4.5)), 1, 4.5,
                List.of(new QueueOperations.PendingForward("f-1", "hub-b", "ACME/alice", "ACME/bob@hub-b", "pending", 2, 100, 104, 160))));
        assertEquals(true, json.getBoolean("configured"));
        assertEquals(1, json.getInt("pending"));
        assertEquals("hub-b", json.getJsonArray("peers").getJsonObject(0).getString("peer"));
        JsonObject forward = json.getJsonArray("forwards").getJsonObject(0);
        assertEquals("f-1", forward.getString("forward_id"));
        assertEquals(2, forward.getInt("attempts"));
        assertEquals(104.0, forward.getJsonNumber("next_attempt_at").doubleValue());
        assertEquals(160.0, forward.getJsonNumber("expires_at").doubleValue());
    }
}
