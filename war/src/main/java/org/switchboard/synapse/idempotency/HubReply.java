package org.switchboard.synapse.idempotency;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.Map;

/**
 * One hub-originated frame a rule decided to send, without its envelope: the handler adds
 * {@code sender}, {@code target}, {@code timestamp} and {@code hub_id} with {@link #toFrame}.
 *
 * @param type      frame type, e.g. {@code claim_granted}
 * @param broadcast true = every bound socket ({@code target:"all"}), false = the requester only
 * @param payload   the human-readable sentence
 * @param fields    feature fields placed at the top level of the frame
 */
public record HubReply(String type, boolean broadcast, String payload, JsonObject fields) {

    /** A private reply. */
    public static HubReply toRequester(String type, String payload, JsonObject fields) {
        return new HubReply(type, false, payload, fields);
    }

    /** A broadcast reply. */
    public static HubReply toAll(String type, String payload, JsonObject fields) {
        return new HubReply(type, true, payload, fields);
    }

    /** The full frame; {@code requester} is used as target of private replies. */
    public JsonObject toFrame(String requester, double timestamp, String hubId) {
        JsonObjectBuilder b = PROVIDER.createObjectBuilder()
                .add("sender", IdempotencyLedger.HUB_SENDER)
                .add("target", broadcast ? "all" : requester)
                .add("type", type)
                .add("payload", payload)
                .add("timestamp", timestamp)
                .add("hub_id", hubId);
        for (Map.Entry<String, JsonValue> e : fields.entrySet()) {
            b.add(e.getKey(), e.getValue());
        }
        return b.build();
    }
}
