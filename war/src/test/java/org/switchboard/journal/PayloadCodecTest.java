package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PayloadCodecTest {

    @Test
    void roundTripsAnObjectAsCompactJson() {
        JsonObject payload = Json.createObjectBuilder().add("type", "chat").add("msg_id", 12)
                .add("payload", "h\u00e9llo \"quoted\"").add("seq", 3301L).addNull("channel").build();

        String text = PayloadCodec.encode(payload);

        assertEquals(payload, PayloadCodec.decode(text));
        assertTrue(!text.contains("\n") && !text.contains(": "), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "not json", "[1,2]", "\"text\"", "42", "{\"a\":", "{\"a\":1} trailing", "null"})
    void anythingButOneJsonObjectIsCorrupt(String stored) {
        PayloadCodec.CorruptPayloadException e =
                assertThrows(PayloadCodec.CorruptPayloadException.class, () -> PayloadCodec.decode(stored));
        assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
    }

    @Test
    void nullIsCorruptAndCannotBeEncoded() {
        assertThrows(PayloadCodec.CorruptPayloadException.class, () -> PayloadCodec.decode(null));
        assertThrows(IllegalArgumentException.class, () -> PayloadCodec.encode(null));
    }
}
