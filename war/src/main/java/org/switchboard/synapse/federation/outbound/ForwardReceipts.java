package org.switchboard.synapse.federation.outbound;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.wire.HubFrames;

/**
 * The forward receipts of synapse-advanced §4.6: a core {@code delivery_receipt} with
 * {@code forward_id}, {@code forwarded_to} and {@code forward_state}; recipients qualified with the
 * peer's hub id; {@code deferred} while pending and on every receipt after the first.
 */
public final class ForwardReceipts {

    public static final String REASON_PENDING = "forward_pending";
    public static final String REASON_REFUSED = "forward_refused";
    public static final String REASON_EXPIRED = "forward_expired";

    private ForwardReceipts() {
    }

    /** The receipt for {@code e} as it stands; {@code first} for the one sent after the first attempt. */
    public static JsonObject build(HubFrames frames, ForwardEntry e, boolean first) {
        boolean answered = ForwardEntry.ACCEPTED.equals(e.state()) || ForwardEntry.DUPLICATE.equals(e.state());
        JsonObject r = answered && e.result() != null ? e.result() : JsonValue.EMPTY_JSON_OBJECT;
        String hub = e.answeringHub() != null ? e.answeringHub() : e.peer();
        String reason = switch (e.state()) {
            case ForwardEntry.PENDING -> REASON_PENDING;
            case ForwardEntry.EXPIRED -> REASON_EXPIRED;
            case ForwardEntry.REFUSED -> REASON_REFUSED;
            default -> r.get("reason") instanceof JsonString s ? s.getString() : "";
        };
        JsonObjectBuilder b = frames.hub("delivery_receipt", e.sender(), payload(e))
                .add("message_target", e.target()).add("message_id", e.msgId());
        if (first && e.seq() != null) {
            b.add("message_seq", e.seq());
        }
        b.add("delivered", answered && r.get("delivered") == JsonValue.TRUE)
                .add("deferred", !first || e.pending())
                .add("recipients", qualified(r.get("recipients"), hub))
                .add("matched_recipients", qualified(r.get("matched_recipients"), hub))
                .add("stale_recipients", qualified(r.get("stale_recipients"), hub))
                .add("reason", reason)
                .add("dead_lettered", answered && r.get("dead_lettered") == JsonValue.TRUE)
                .add("recipient_wake_capabilities", JsonValue.EMPTY_JSON_OBJECT)
                .add("forward_id", e.forwardId()).add("forwarded_to", e.peer()).add("forward_state", e.state());
        if (e.clientMsgId() != null) {
            b.add("client_msg_id", e.clientMsgId());
        }
        return b.build();
    }

    private static String payload(ForwardEntry e) {
        return switch (e.state()) {
            case ForwardEntry.PENDING -> "Forward to hub '" + e.peer() + "' pending; retrying";
            case ForwardEntry.EXPIRED -> "Forward to hub '" + e.peer() + "' expired unanswered";
            case ForwardEntry.REFUSED -> "Forward to hub '" + e.peer() + "' refused"
                    + (e.reasonCode().isEmpty() ? "" : " (" + e.reasonCode() + ")");
            default -> "Forward to hub '" + e.peer() + "' " + e.state();
        };
    }

    /** The peer's local names as {@code name@hub}; anything but strings is left out. */
    static JsonArray qualified(JsonValue names, String hub) {
        JsonArrayBuilder out = Jsons.PROVIDER.createArrayBuilder();
        if (names instanceof JsonArray array) {
            for (JsonValue v : array) {
                if (v instanceof JsonString s) {
                    out.add(HubAddress.qualify(s.getString(), hub));
                }
            }
        }
        return out.build();
    }
}
