package org.switchboard.synapse.delivery;

import org.switchboard.synapse.wire.BoundedText;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The shape checks of a {@code delivery_request} in the exact order of §2.5 (first failure wins):
 * profile, unknown keys, protocol, request_id, idempotency_key, target, target_incarnation, mode,
 * fallbacks, task_id, body, deadline. A refusal echoes {@code request_id} only when it was valid.
 */
public final class RequestValidation {

    /** The only top-level keys a request may carry. */
    public static final Set<String> ALLOWED_KEYS = Set.of("sender", "type", "target", "payload", "timestamp",
            "protocol_version", "request_id", "idempotency_key", "target_incarnation", "mode", "allowed_fallbacks",
            "task_id", "body", "deadline", "token", "idem_key", "auth");
    /** The four delivery modes. */
    public static final Set<String> MODES = Set.of("interrupt", "steer", "follow_up", "next_turn");
    /** The delivery contract version every delivery frame carries. */
    public static final int CONTRACT_VERSION = 3;
    static final int ID_BYTES = 128;
    static final int TARGET_BYTES = 256;
    static final int BODY_BYTES = 8192;
    static final int MAX_FALLBACKS = 3;
    static final double MAX_DEADLINE_AHEAD = 86_400;

    /** Either a valid intent or a refusal. */
    public record Outcome(DeliveryIntent intent, Refusal refusal) {
    }

    private RequestValidation() {
    }

    /**
     * Validates {@code frame} (already normalised: {@code sender} is the bound name) from a connection
     * whose negotiated version is {@code negotiated}, on a hub that is {@code durable}, at {@code now}.
     */
    public static Outcome validate(JsonObject frame, String sender, int negotiated, boolean durable, double now) {
        String echo = echoableRequestId(frame);
        if (negotiated < CONTRACT_VERSION) {
            return refuse(ReasonCodes.UNSUPPORTED_PROTOCOL, "delivery needs protocol version 3", echo);
        }
        if (!durable) {
            return refuse(ReasonCodes.UNSUPPORTED_PROFILE, "this hub has no durable delivery journal", echo);
        }
        for (String key : frame.keySet()) {
            if (!ALLOWED_KEYS.contains(key)) {
                return refuse(ReasonCodes.INVALID_SHAPE, "unknown field in delivery_request", echo);
            }
        }
        if (!isContractVersion(frame.get("protocol_version"))) {
            return refuse(ReasonCodes.UNSUPPORTED_PROTOCOL, "delivery frames carry protocol_version 3", echo);
        }
        if (!BoundedText.valid(frame.get("request_id"), ID_BYTES, false)) {
            return refuse(ReasonCodes.INVALID_SHAPE, "request_id must be a printable string of at most 128 bytes", "");
        }
        if (!BoundedText.valid(frame.get("idempotency_key"), ID_BYTES, false)) {
            return refuse(ReasonCodes.INVALID_SHAPE, "idempotency_key must be a printable string of at most 128 bytes", echo);
        }
        JsonValue targetValue = frame.get("target");
        if (!BoundedText.valid(targetValue, TARGET_BYTES, false) || !exactIdentity(((JsonString) targetValue).getString())) {
            return refuse(ReasonCodes.INVALID_SHAPE, "target must name exactly one identity", echo);
        }
        if (!BoundedText.hex64(frame.get("target_incarnation"))) {
            return refuse(ReasonCodes.INVALID_SHAPE, "target_incarnation must be 64 lowercase hex characters", echo);
        }
        JsonValue modeValue = frame.get("mode");
        if (!(modeValue instanceof JsonString m) || !MODES.contains(m.getString())) {
            return refuse(ReasonCodes.UNSUPPORTED_MODE, "mode must be interrupt, steer, follow_up or next_turn", echo);
        }
        String mode = m.getString();
        List<String> fallbacks = new ArrayList<>();
        JsonValue fallbackValue = frame.get("allowed_fallbacks");
        if (fallbackValue != null) {
            if (!(fallbackValue instanceof JsonArray array) || array.size() > MAX_FALLBACKS) {
                return refuse(ReasonCodes.INVALID_SHAPE, "allowed_fallbacks must be an array of at most three modes", echo);
            }
            for (JsonValue entry : array) {
                if (!(entry instanceof JsonString s) || !MODES.contains(s.getString())) {
                    return refuse(ReasonCodes.UNSUPPORTED_MODE, "allowed_fallbacks names an unknown mode", echo);
                }
            }
            for (JsonValue entry : array) {
                String candidate = ((JsonString) entry).getString();
                if (candidate.equals(mode) || fallbacks.contains(candidate)) {
                    return refuse(ReasonCodes.INVALID_SHAPE, "allowed_fallbacks must not repeat a mode", echo);
                }
                fallbacks.add(candidate);
            }
        }
        String taskId = "";
        JsonValue taskValue = frame.get("task_id");
        if (taskValue != null) {
            if (!BoundedText.valid(taskValue, ID_BYTES, true)) {
                return refuse(ReasonCodes.INVALID_SHAPE, "task_id must be a printable string of at most 128 bytes", echo);
            }
            taskId = ((JsonString) taskValue).getString();
        }
        if (!BoundedText.valid(frame.get("body"), BODY_BYTES, false)) {
            return refuse(ReasonCodes.INVALID_SHAPE, "body must be a non-empty printable string of at most 8192 bytes", echo);
        }
        JsonValue deadlineValue = frame.get("deadline");
        if (!(deadlineValue instanceof JsonNumber number) || !Double.isFinite(number.doubleValue())) {
            return refuse(ReasonCodes.INVALID_SHAPE, "deadline must be a finite number of Unix seconds", echo);
        }
        double deadline = number.doubleValue();
        if (deadline <= now) {
            return refuse(ReasonCodes.DEADLINE_EXPIRED, "deadline already passed", echo);
        }
        if (deadline > now + MAX_DEADLINE_AHEAD) {
            return refuse(ReasonCodes.INVALID_SHAPE, "deadline more than a day ahead", echo);
        }
        return new Outcome(new DeliveryIntent(sender, echo, ((JsonString) frame.get("idempotency_key")).getString(),
                ((JsonString) targetValue).getString(), ((JsonString) frame.get("target_incarnation")).getString(), mode,
                List.copyOf(fallbacks), taskId, ((JsonString) frame.get("body")).getString(), deadline), null);
    }

    /** The frame's {@code request_id} when it is a valid one, else {@code ""} (an invalid id is never echoed). */
    public static String echoableRequestId(JsonObject frame) {
        JsonValue id = frame.get("request_id");
        return BoundedText.valid(id, ID_BYTES, false) ? ((JsonString) id).getString() : "";
    }

    /** True for the integer 3 (not a boolean, not 3.5; 3.0 is not an integer on the wire either). */
    public static boolean isContractVersion(JsonValue value) {
        return value instanceof JsonNumber n && n.isIntegral() && n.toString().equals("3");
    }

    private static boolean exactIdentity(String target) {
        return !target.equals("all") && target.indexOf('*') < 0 && target.indexOf('?') < 0 && target.indexOf('[') < 0;
    }

    private static Outcome refuse(String code, String explanation, String echo) {
        return new Outcome(null, new Refusal(code, explanation, echo));
    }
}
