package org.switchboard.synapse.chat;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonGenerator;
import java.io.StringWriter;
import java.util.Map;
import org.switchboard.json.Jsons;

/**
 * The compact JSON of a chat as the hub relays it (§7.2 stamping), written straight from the
 * client's frame: {@code client_timestamp}, {@code seq} and {@code replayed} dropped, the client's
 * own {@code timestamp} kept as {@code client_timestamp} (when non-zero), and {@code timestamp},
 * {@code client_msg_id}, {@code type}, {@code hub_id} and {@code msg_id} set. Members keep the
 * frame's order, a set member takes the place of the client's one, and new members follow in that
 * order; the text is the same as copying the frame into an object builder, making those changes
 * and serialising it, without the copy (which was a quarter of the inbound thread's work at load).
 */
final class ChatStamp {

    private ChatStamp() {
    }

    /**
     * The stamped chat's JSON.
     *
     * @param clientTimestamp the frame's own {@code timestamp} (null or 0: none kept)
     * @param clientMsgId     the normalised {@code client_msg_id} (null: the member is dropped)
     * @param msgId           the hub's {@code msg_id} (null: not stamped yet, for sizing and digests; a
     *                        client's own {@code msg_id} then stays as sent)
     */
    static String json(JsonObject frame, Double clientTimestamp, double now, String clientMsgId, String hubId,
                       Long msgId) {
        StringWriter out = new StringWriter(256);
        JsonValue stampedNow = Jsons.PROVIDER.createValue(now);
        try (JsonGenerator json = Jsons.PROVIDER.createGenerator(out)) {
            json.writeStartObject();
            for (Map.Entry<String, JsonValue> member : frame.entrySet()) {
                String key = member.getKey();
                switch (key) {
                    case "client_timestamp", "seq", "replayed" -> { }
                    case "timestamp" -> json.write(key, stampedNow);
                    case "client_msg_id" -> {
                        if (clientMsgId != null) {
                            json.write(key, clientMsgId);
                        }
                    }
                    case "type" -> json.write(key, "chat");
                    case "hub_id" -> json.write(key, hubId);
                    case "msg_id" -> {
                        if (msgId != null) {
                            json.write(key, msgId);
                        } else {
                            json.write(key, member.getValue());
                        }
                    }
                    default -> json.write(key, member.getValue());
                }
            }
            if (clientTimestamp != null && clientTimestamp != 0) {
                json.write("client_timestamp", Jsons.PROVIDER.createValue(clientTimestamp));
            }
            if (!frame.containsKey("timestamp")) {
                json.write("timestamp", stampedNow);
            }
            if (clientMsgId != null && !frame.containsKey("client_msg_id")) {
                json.write("client_msg_id", clientMsgId);
            }
            if (!frame.containsKey("type")) {
                json.write("type", "chat");
            }
            if (!frame.containsKey("hub_id")) {
                json.write("hub_id", hubId);
            }
            if (msgId != null && !frame.containsKey("msg_id")) {
                json.write("msg_id", msgId);
            }
            json.writeEnd();
        }
        return out.toString();
    }
}
