package org.switchboard.synapse.board;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/** Lenient field readers shared by the board's request parsers. */
final class BoardFields {

    private BoardFields() {
    }

    /** The string at {@code key}, or "" when absent or not a string. Not trimmed. */
    static String string(JsonObject frame, String key) {
        return frame.get(key) instanceof JsonString s ? s.getString() : "";
    }

    /** Trimmed string at {@code key} or "". */
    static String trimmed(JsonObject frame, String key) {
        return string(frame, key).strip();
    }

    /** Parse-level refusals checked before anything else: expected_version type, causal_parent shape; null when fine. */
    static String problems(JsonObject frame) {
        JsonValue ev = frame.get("expected_version");
        if (ev != null && ev.getValueType() != JsonValue.ValueType.NULL
                && !(ev instanceof JsonNumber n && n.isIntegral())) {
            return Blackboard.EXPECTED_VERSION_MALFORMED;
        }
        try {
            String problem = CausalParent.problem(frame.get("causal_parent"));
            return problem == null ? null : "Malformed frame: " + problem;
        } catch (RuntimeException unexpected) {
            return Blackboard.CAUSAL_PARENT_FAULT;
        }
    }

    /** {@code expected_version} when it is a number, else null (no compare-and-set). */
    static JsonNumber expectedVersion(JsonObject frame) {
        return frame.get("expected_version") instanceof JsonNumber n ? n : null;
    }

    /** {@code causal_parent} when it is an object, else null; it is journalled beside the task fields. */
    static JsonObject causalParent(JsonObject frame) {
        JsonValue parent = frame.get("causal_parent");
        return parent != null && parent.getValueType() == JsonValue.ValueType.OBJECT ? parent.asJsonObject() : null;
    }
}
