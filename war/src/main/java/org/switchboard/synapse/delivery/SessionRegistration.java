package org.switchboard.synapse.delivery;

import org.switchboard.synapse.wire.BoundedText;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The recipient registration fields of §2.2 ({@code protocol_version}, {@code delivery_session_token},
 * {@code delivery_capabilities}) checked in the order of its processing steps 3–5, then their shapes.
 * The token never leaves this check except as its digest.
 */
public final class SessionRegistration {

    /** The registration heartbeat's delivery fields, removed from the frame before anything else sees it. */
    public static final Set<String> FIELDS = Set.of("delivery_session_token", "delivery_capabilities");
    private static final Set<String> QUALITIES = Set.of("native", "emulated");

    /** Either the accepted incarnation and capabilities, or a refusal reason code. */
    public record Outcome(String incarnation, Map<String, String> capabilities, int version, String refusal) {
    }

    private SessionRegistration() {
    }

    /** The frame without the two delivery fields (what every other component sees). */
    public static JsonObject strip(JsonObject frame) {
        jakarta.json.JsonObjectBuilder b = org.switchboard.json.Jsons.PROVIDER.createObjectBuilder(frame);
        FIELDS.forEach(b::remove);
        return b.build();
    }

    /** True when the frame carries either delivery field. */
    public static boolean present(JsonObject frame) {
        return frame.containsKey("delivery_session_token") || frame.containsKey("delivery_capabilities");
    }

    /**
     * Checks a frame carrying the fields: {@code first} and {@code heartbeat} say whether it is the
     * socket's first frame and a heartbeat; {@code durable} whether the hub has a journal and a stable id.
     */
    public static Outcome check(JsonObject frame, boolean first, boolean heartbeat, boolean durable) {
        if (!first || !heartbeat) {
            return refuse(ReasonCodes.INVALID_SHAPE);
        }
        JsonValue version = frame.get("protocol_version");
        int negotiated;
        if (version instanceof JsonNumber n && n.isIntegral() && n.toString().matches("[3-6]")) {
            negotiated = n.intValue();
        } else {
            return refuse(ReasonCodes.UNSUPPORTED_PROTOCOL);
        }
        if (!durable) {
            return refuse(ReasonCodes.UNSUPPORTED_PROFILE);
        }
        if (!(frame.get("delivery_session_token") instanceof JsonString token) || !BoundedText.hex64(token.getString())) {
            return refuse(ReasonCodes.INVALID_SHAPE);
        }
        if (!(frame.get("delivery_capabilities") instanceof JsonObject capabilities) || capabilities.isEmpty()) {
            return refuse(ReasonCodes.INVALID_SHAPE);
        }
        Map<String, String> accepted = new TreeMap<>();
        for (Map.Entry<String, JsonValue> entry : capabilities.entrySet()) {
            if (!RequestValidation.MODES.contains(entry.getKey()) || !(entry.getValue() instanceof JsonString q)
                    || !QUALITIES.contains(q.getString())) {
                return refuse(ReasonCodes.INVALID_SHAPE);
            }
            accepted.put(entry.getKey(), q.getString());
        }
        return new Outcome(DeliveryDigests.incarnation(token.getString()), new LinkedHashMap<>(accepted), negotiated, null);
    }

    private static Outcome refuse(String code) {
        return new Outcome(null, null, 0, code);
    }
}
