package org.switchboard.synapse.claims;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/** Lenient field readers shared by the claim-family request parsers. */
final class FrameFields {

    private FrameFields() {
    }

    /** The string at {@code key}, or null when absent or not a string. */
    static String string(JsonObject frame, String key) {
        return frame.get(key) instanceof JsonString s ? s.getString() : null;
    }

    /** The string at {@code key}; when that is absent (missing or null) the one at {@code fallback}; else "". Not trimmed. */
    static String raw(JsonObject frame, String key, String fallback) {
        String v = string(frame, key);
        if (v == null && fallback != null && absent(frame, key)) {
            v = string(frame, fallback);
        }
        return v == null ? "" : v;
    }

    /** Trimmed string at {@code key} or "". */
    static String trimmed(JsonObject frame, String key) {
        String v = string(frame, key);
        return v == null ? "" : v.strip();
    }

    /** Whether {@code key} is absent or JSON null. */
    static boolean absent(JsonObject frame, String key) {
        JsonValue v = frame.get(key);
        return v == null || v.getValueType() == JsonValue.ValueType.NULL;
    }

    /** A JSON integer (not boolean, no fraction) as a long, or null. */
    static Long integer(JsonValue v) {
        if (v instanceof JsonNumber n && n.isIntegral()) {
            try {
                return n.bigIntegerValueExact().longValueExact();
            } catch (ArithmeticException e) {
                return null;
            }
        }
        return null;
    }
}
