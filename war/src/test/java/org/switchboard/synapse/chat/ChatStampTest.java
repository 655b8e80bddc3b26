package org.switchboard.synapse.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.PayloadCodec;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.wire.JsonFields;

class ChatStampTest {

    private static final double NOW = 1796038265.615;
    private static final String HUB = "hub-0123456789ab";

    /** The stamping as an object-model copy: the specification of the order and values of members. */
    private static String viaObjectModel(JsonObject frame, String clientMsgId, Long msgId) {
        JsonObjectBuilder stamped = Jsons.PROVIDER.createObjectBuilder(frame);
        stamped.remove("client_timestamp");
        stamped.remove("seq");
        stamped.remove("replayed");
        Double clientTimestamp = JsonFields.number(frame, "timestamp");
        if (clientTimestamp != null && clientTimestamp != 0) {
            stamped.add("client_timestamp", clientTimestamp);
        }
        stamped.add("timestamp", NOW);
        if (clientMsgId == null) {
            stamped.remove("client_msg_id");
        } else {
            stamped.add("client_msg_id", clientMsgId);
        }
        stamped.add("type", "chat").add("hub_id", HUB);
        if (msgId != null) {
            stamped.add("msg_id", msgId);
        }
        return stamped.build().toString();
    }

    private static String stamp(JsonObject frame, String clientMsgId, Long msgId) {
        return ChatStamp.json(frame, JsonFields.number(frame, "timestamp"), NOW, clientMsgId, HUB, msgId);
    }

    @Test
    void writesTheSameTextAsCopyingTheFrameIntoAnObject() {
        List<String> frames = List.of(
                "{\"type\":\"chat\",\"sender\":\"a\",\"target\":\"b\",\"payload\":\"hi\"}",
                "{\"type\":\"chat\",\"sender\":\"a\",\"target\":\"b\",\"payload\":\"hi\",\"timestamp\":1796038000.25}",
                "{\"timestamp\":0,\"type\":\"chat\",\"sender\":\"a\",\"target\":\"all\",\"payload\":{\"k\":[1,2.5,true,null,\"x\"]}}",
                "{\"type\":\"chat\",\"seq\":9,\"replayed\":true,\"client_timestamp\":5,\"sender\":\"a\",\"target\":\"b\",\"payload\":\"é\\u2028\\\"\"}",
                "{\"sender\":\"a\",\"hub_id\":\"spoofed\",\"msg_id\":77,\"target\":\"b\",\"type\":\"chat\",\"payload\":\"x\",\"timestamp\":1.0E9}",
                "{\"sender\":\"a\",\"target\":\"b\",\"client_msg_id\":\"  m-1 \",\"payload\":\"x\",\"channel\":\"c1\",\"receipt_requested\":true}",
                "{\"sender\":\"a\",\"target\":\"b\",\"client_msg_id\":\"\",\"payload\":\"x\",\"timestamp\":\"not a number\"}");
        for (String text : frames) {
            JsonObject frame = PayloadCodec.decode(text);
            String clientMsgId = DuplicateSuppressor.normaliseId(JsonFields.string(frame, "client_msg_id"));
            for (Long msgId : new Long[] {42L, null}) {
                assertEquals(viaObjectModel(frame, clientMsgId, msgId), stamp(frame, clientMsgId, msgId), text);
            }
        }
    }

    @Test
    void keepsANonZeroClientTimestampAndDropsRelayOnlyFields() {
        JsonObject frame = PayloadCodec.decode("{\"type\":\"chat\",\"sender\":\"a\",\"target\":\"b\",\"timestamp\":12.5,"
                + "\"seq\":3,\"replayed\":true,\"payload\":\"p\"}");

        JsonObject stamped = PayloadCodec.decode(stamp(frame, null, 7L));

        assertEquals(12.5, stamped.getJsonNumber("client_timestamp").doubleValue());
        assertEquals(NOW, stamped.getJsonNumber("timestamp").doubleValue());
        assertEquals(7, stamped.getInt("msg_id"));
        assertEquals(HUB, stamped.getString("hub_id"));
        assertFalse(stamped.containsKey("seq"));
        assertFalse(stamped.containsKey("replayed"));
        assertTrue(stamp(frame, null, 7L).endsWith(",\"client_timestamp\":12.5,\"hub_id\":\"" + HUB + "\",\"msg_id\":7}"));
    }
}
