package org.switchboard.synapse.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.switchboard.json.Jsons;

class DeliveryFramesTest {

    @Test
    void withSeqAddsEventSeqLastWithTheBytesOfACopiedObject() {
        JsonObject stored = Jsons.PROVIDER.createObjectBuilder().add("type", "delivery_status").add("stage", "queued")
                .add("body", "a \"quoted\" }").add("n", 1.5).build();
        String expected = Jsons.PROVIDER.createObjectBuilder(stored).add("event_seq", 42L).build().toString();
        assertEquals(expected, DeliveryFrames.withSeq(stored.toString(), 42L));
        assertEquals(42L, Jsons.PROVIDER.createReader(new java.io.StringReader(DeliveryFrames.withSeq(stored.toString(), 42L)))
                .readObject().getJsonNumber("event_seq").longValue());
    }

    @Test
    void aStoredNotificationKeepsItsChangesTimeInTheEnvelopesPlace() {
        DeliveryFrames frames = new DeliveryFrames(new org.switchboard.synapse.wire.HubFrames("hub-a", () -> 2000.5));
        DeliveryIntent intent = new DeliveryIntent("planner", "rq-1", "ik-1", "builder", "a".repeat(64), "follow_up",
                java.util.List.of(), "T", "body", 3000.0);
        JsonObject n = Jsons.PROVIDER.createReader(new java.io.StringReader(frames.notification(intent,
                new PendingNotifications.Entry(7, "planner", "b".repeat(64), 2, Stage.REJECTED, false, Stage.Source.RECIPIENT,
                        1000.25)))).readObject();
        assertEquals(1000.25, n.getJsonNumber("timestamp").doubleValue());
        assertEquals(java.util.List.of("sender", "target", "type", "payload", "timestamp", "hub_id", "audience"),
                java.util.List.copyOf(n.keySet()).subList(0, 7));
        assertEquals("delivery:" + "b".repeat(64) + ":2", n.getString("notification_id"));
    }
}
