package org.switchboard.synapse.federation.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.wire.HubFrames;

class ForwardReceiptsTest {

    private static final HubFrames FRAMES = new HubFrames("hub-a", () -> 100.0);
    private static final ForwardEntry PENDING = ForwardEntry.queued("f1", "hub-b", "ACME/alice", "ACME/bob@hub-b",
            Json.createObjectBuilder().build(), 7, 42L, "c-7", 10, 1000, true).failed(1, 11);
    private static final JsonObject PEER_RESULT = Json.createObjectBuilder().add("seq", 88).add("msg_id", 12)
            .add("delivered", true).add("recipients", Json.createArrayBuilder().add("ACME/bob"))
            .add("matched_recipients", Json.createArrayBuilder().add("ACME/bob"))
            .add("stale_recipients", Json.createArrayBuilder()).add("reason", "").add("dead_lettered", false).build();

    @Test
    void firstReceiptWhilePending() {
        JsonObject r = ForwardReceipts.build(FRAMES, PENDING, true);
        assertEquals("delivery_receipt", r.getString("type"));
        assertEquals("ACME/alice", r.getString("target"));
        assertEquals("ACME/bob@hub-b", r.getString("message_target"));
        assertEquals(7, r.getInt("message_id"));
        assertEquals(42, r.getInt("message_seq"));
        assertFalse(r.getBoolean("delivered"));
        assertTrue(r.getBoolean("deferred"));
        assertEquals("forward_pending", r.getString("reason"));
        assertEquals("pending", r.getString("forward_state"));
        assertEquals("f1", r.getString("forward_id"));
        assertEquals("hub-b", r.getString("forwarded_to"));
        assertEquals("c-7", r.getString("client_msg_id"));
        assertEquals(0, r.getJsonObject("recipient_wake_capabilities").size());
    }

    @Test
    void firstReceiptOfAnAcceptedForward() {
        ForwardEntry accepted = PENDING.settled("accepted", 1, PEER_RESULT, "hub-b", "", "", false);
        JsonObject r = ForwardReceipts.build(FRAMES, accepted, true);
        assertTrue(r.getBoolean("delivered"));
        assertFalse(r.getBoolean("deferred"));
        assertEquals("", r.getString("reason"));
        assertEquals(Json.createArrayBuilder().add("ACME/bob@hub-b").build(), r.getJsonArray("recipients"));
        assertEquals(Json.createArrayBuilder().add("ACME/bob@hub-b").build(), r.getJsonArray("matched_recipients"));
        assertEquals(0, r.getJsonArray("stale_recipients").size());
        assertEquals("accepted", r.getString("forward_state"));
    }

    @Test
    void laterReceiptsAreDeferredAndCarryNoSeq() {
        ForwardEntry accepted = PENDING.settled("duplicate", 3, PEER_RESULT, "hub-b", "", "", true);
        JsonObject r = ForwardReceipts.build(FRAMES, accepted, false);
        assertTrue(r.getBoolean("deferred"));
        assertFalse(r.containsKey("message_seq"));
        assertEquals("duplicate", r.getString("forward_state"));
        assertTrue(r.getBoolean("delivered"));
    }

    @Test
    void refusedAndExpiredReasons() {
        JsonObject refused = ForwardReceipts.build(FRAMES, PENDING.settled("refused", 2, PEER_RESULT, "hub-b",
                "namespace_not_granted", "", true), false);
        assertEquals("forward_refused", refused.getString("reason"));
        assertFalse(refused.getBoolean("delivered"));
        assertEquals(0, refused.getJsonArray("recipients").size());
        JsonObject expired = ForwardReceipts.build(FRAMES, PENDING.settled("expired", 9, null, null, "", "", true), false);
        assertEquals("forward_expired", expired.getString("reason"));
        assertEquals("expired", expired.getString("forward_state"));
    }
}
