package org.switchboard.synapse.federation.outbound;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.regex.Pattern;
import org.switchboard.json.Jsons;

/**
 * The hub-to-hub frames as the origin writes and reads them (synapse-advanced §4.3, §4.4, §4.10): the
 * registration under this hub's own id, {@code multihub_message_forward}, and the strict reading of
 * the peer's {@code multihub_message_result}.
 */
public final class ForwardFrames {

    /** The wire version the origin registers with (the hub-to-hub frames' floor, §1.1). */
    public static final int PEER_PROTOCOL_VERSION = 5;
    public static final String FORWARD = "multihub_message_forward";
    public static final String RESULT = "multihub_message_result";
    static final int MAX_DETAIL_BYTES = 512;
    static final int MAX_BODY_BYTES = 262_144;
    private static final Pattern REASON_CODE = Pattern.compile("^[a-z][a-z0-9_]{0,63}$");
    private static final Set<String> DISPOSITIONS = Set.of(ForwardEntry.ACCEPTED, ForwardEntry.DUPLICATE, ForwardEntry.REFUSED);

    private ForwardFrames() {
    }

    /**
     * A new origin-unique forward id: 32 lower-case hex, as the reference's, but time-ordered (ours,
     * issue 18 speed): 12 hex of the epoch millisecond, then 20 hex (80 bits) of randomness. A peer
     * keys its inbound ledger by (origin, forward_id); random keys made every ledger insert dirty its
     * own page of that index, which the peer's commits then rewrote (its largest cost at saturation),
     * while ordered keys land side by side at the index's end.
     */
    public static String newForwardId() {
        return forwardId(System.currentTimeMillis(), RANDOM);
    }

    /** The forward id of {@link #newForwardId} for {@code epochMillis}, its random part from {@code random}. */
    static String forwardId(long epochMillis, java.util.Random random) {
        byte[] noise = new byte[10];
        random.nextBytes(noise);
        StringBuilder id = new StringBuilder(32);
        String millis = Long.toHexString(epochMillis & 0xFFFF_FFFF_FFFFL);
        id.append("0".repeat(12 - millis.length())).append(millis);
        for (byte b : noise) {
            id.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return id.toString();
    }

    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    /** The first frame on a peer connection: a heartbeat under this hub's id, v5, with the peer token when set. */
    public static JsonObject registration(String hubId, String token, double now) {
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder().add("type", "heartbeat").add("sender", hubId)
                .add("target", "System").add("payload", "online").add("timestamp", now)
                .add("protocol_version", PEER_PROTOCOL_VERSION);
        if (token != null && !token.isEmpty()) {
            b.add("token", token);
        }
        return b.build();
    }

    /** A {@code kind: chat} forward (§4.4): body {@code payload, origin_msg_id, origin_timestamp[, client_msg_id]}. */
    public static JsonObject chat(String hubId, String forwardId, String senderSeat, String targetSeat, JsonValue payload,
                                  long msgId, double timestamp, String clientMsgId) {
        JsonObjectBuilder body = Jsons.PROVIDER.createObjectBuilder()
                .add("payload", payload == null ? JsonValue.NULL : payload)
                .add("origin_msg_id", msgId).add("origin_timestamp", timestamp);
        if (clientMsgId != null) {
            body.add("client_msg_id", clientMsgId);
        }
        return forward(hubId, forwardId, "chat", senderSeat, targetSeat, body.build());
    }

    /** A {@code kind: who} forward (§4.8): no target seat, empty body. */
    public static JsonObject who(String hubId, String forwardId, String senderSeat) {
        return forward(hubId, forwardId, "who", senderSeat, null, JsonValue.EMPTY_JSON_OBJECT);
    }

    static JsonObject forward(String hubId, String forwardId, String kind, String senderSeat, String targetSeat, JsonObject body) {
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder().add("type", FORWARD).add("sender", hubId)
                .add("target", "System").add("forward_id", forwardId).add("kind", kind).add("sender_seat", senderSeat);
        if (targetSeat != null) {
            b.add("target_seat", targetSeat);
        }
        return b.add("body", body).build();
    }

    /** True when the body fits the §4.4 limit (compact JSON ≤ 262 144 bytes). */
    public static boolean bodyFits(JsonObject forward) {
        return forward.getJsonObject("body").toString().getBytes(StandardCharsets.UTF_8).length <= MAX_BODY_BYTES;
    }

    /** What the peer's answer means to the origin. */
    public enum Kind {
        /** A well-formed {@code multihub_message_result} for this forward. */
        RESULT,
        /** The peer answered with a plain {@code error} (e.g. older than v5): settle {@code refused}/{@code peer_rejected}. */
        REJECTED,
        /** Anything else: counts as no answer (the forward stays pending). */
        INVALID
    }

    /** A read answer; the fields other than {@code kind} are set only for {@link Kind#RESULT}. */
    public record Answer(Kind kind, String disposition, String answeringHub, String reasonCode, String detail,
                         JsonObject result) {
        static Answer of(Kind kind) {
            return new Answer(kind, null, null, "", "", null);
        }
    }

    /** Reads one answer frame for {@code forwardId} strictly against §4.4. */
    public static Answer read(JsonObject frame, String forwardId) {
        if (frame == null) {
            return Answer.of(Kind.INVALID);
        }
        String type = text(frame, "type");
        if ("error".equals(type)) {
            return Answer.of(Kind.REJECTED);
        }
        if (!RESULT.equals(type) || !forwardId.equals(text(frame, "forward_id"))) {
            return Answer.of(Kind.INVALID);
        }
        String disposition = text(frame, "disposition");
        String answering = text(frame, "answering_hub");
        if (disposition == null || !DISPOSITIONS.contains(disposition) || answering == null
                || !HubAddress.HUB_ID.matcher(answering).matches()) {
            return Answer.of(Kind.INVALID);
        }
        String code = frame.containsKey("reason_code") ? text(frame, "reason_code") : "";
        if (code == null || ForwardEntry.REFUSED.equals(disposition) && !REASON_CODE.matcher(code).matches()) {
            return Answer.of(Kind.INVALID);
        }
        String detail = frame.containsKey("detail") ? text(frame, "detail") : "";
        if (detail == null || detail.getBytes(StandardCharsets.UTF_8).length > MAX_DETAIL_BYTES) {
            return Answer.of(Kind.INVALID);
        }
        JsonValue result = frame.get("result");
        if (result != null && !(result instanceof JsonObject)) {
            return Answer.of(Kind.INVALID);
        }
        JsonObject r = result == null ? JsonValue.EMPTY_JSON_OBJECT : (JsonObject) result;
        if (r.toString().getBytes(StandardCharsets.UTF_8).length > MAX_BODY_BYTES) {
            return Answer.of(Kind.INVALID);
        }
        return new Answer(Kind.RESULT, disposition, answering, ForwardEntry.REFUSED.equals(disposition) ? code : "", detail, r);
    }

    private static String text(JsonObject frame, String key) {
        return frame.get(key) instanceof JsonString s ? s.getString() : null;
    }
}
