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
        assertEquals(expected, DeliveryFrames.withSeq(stored, 42L));
        assertEquals(42L, Jsons.PROVIDER.createReader(new java.io.StringReader(DeliveryFrames.withSeq(stored, 42L)))
                .readObject().getJsonNumber("event_seq").longValue());
    }
}
