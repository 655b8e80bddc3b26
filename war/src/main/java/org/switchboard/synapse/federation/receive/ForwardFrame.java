package org.switchboard.synapse.federation.receive;

import org.switchboard.synapse.wire.BoundedText;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.wire.NonCanonicalException;
import org.switchboard.synapse.wire.SynapseCanonicalJson;

/**
 * A decoded {@code multihub_message_forward} (synapse-advanced §4.4): the field rules checked, the
 * request digest of §4.5 step 3 computed. {@link #decode} returns null for a frame that breaks a
 * rule, which the receiver answers with the plain "Malformed multi-hub message forward" error.
 */
public record ForwardFrame(String forwardId, String kind, String senderSeat, String targetSeat, JsonObject body,
                           String digest) {

    /** The five kinds of §4.4. */
    public static final Set<String> KINDS = Set.of("chat", "delivery_request", "delivery_status", "delivery_cancel", "who");
    /** Largest compact body and result. */
    public static final int MAX_BODY_BYTES = 262_144;

    /** True for the kinds that name a target seat. */
    public boolean targeted() {
        return "chat".equals(kind) || "delivery_request".equals(kind);
    }

    /** The frame decoded, or null when it is malformed. */
    public static ForwardFrame decode(JsonObject frame) {
        String forwardId = string(frame, "forward_id");
        String kind = string(frame, "kind");
        String sender = string(frame, "sender_seat");
        if (!BoundedText.valid(forwardId, 128, false) || kind == null || !KINDS.contains(kind) || !seat(sender)) {
            return null;
        }
        boolean targeted = "chat".equals(kind) || "delivery_request".equals(kind);
        JsonValue targetValue = frame.get("target_seat");
        String target;
        if (targeted) {
            target = string(frame, "target_seat");
            if (!seat(target)) {
                return null;
            }
        } else {
            if (targetValue != null && targetValue != JsonValue.NULL
                    && !(targetValue instanceof JsonString s && s.getString().isEmpty())) {
                return null;
            }
            target = "";
        }
        if (!(frame.get("body") instanceof JsonObject body)) {
            return null;
        }
        if (body.toString().getBytes(StandardCharsets.UTF_8).length > MAX_BODY_BYTES) {
            return null;
        }
        String digest;
        try {
            JsonObject request = Jsons.PROVIDER.createObjectBuilder().add("forward_id", forwardId).add("kind", kind)
                    .add("sender_seat", sender).add("target_seat", target).add("body", body).build();
            digest = SynapseCanonicalJson.sha256Hex(SynapseCanonicalJson.utf8(request));
        } catch (NonCanonicalException e) {
            return null;
        }
        return new ForwardFrame(forwardId, kind, sender, target, body, digest);
    }

    /** The §4.4 seat grammar: bounded printable ≤ 256 bytes, no {@code @}, no surrounding whitespace. */
    static boolean seat(String seat) {
        return BoundedText.valid(seat, 256, false) && seat.indexOf('@') < 0 && seat.equals(seat.strip());
    }

    /**
     * The "single seat" rule of §4.1: not {@code all}, and none of {@code , * ? [}. (Emptiness and
     * padding are grammar faults already refused by {@link #decode}.)
     */
    public static boolean singleSeat(String seat) {
        if (seat == null || seat.isEmpty() || !seat.equals(seat.strip()) || "all".equalsIgnoreCase(seat)) {
            return false;
        }
        for (char c : new char[] {',', '*', '?', '['}) {
            if (seat.indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }

    /** The project of a seat ({@code ACME/bob} → {@code ACME}); empty when it has none. */
    public static String project(String seat) {
        int slash = seat.indexOf('/');
        return slash <= 0 ? "" : seat.substring(0, slash);
    }

    private static String string(JsonObject frame, String key) {
        return frame.get(key) instanceof JsonString s ? s.getString() : null;
    }
}
