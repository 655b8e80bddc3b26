package org.switchboard.synapse.wire;

import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;

/** The "bounded printable string" of synapse-advanced §1.2. */
public final class BoundedText {

    private BoundedText() {
    }

    /** True when {@code value} is a JSON string that is a bounded printable string of at most {@code maxBytes}. */
    public static boolean valid(JsonValue value, int maxBytes, boolean mayBeEmpty) {
        return value instanceof JsonString s && valid(s.getString(), maxBytes, mayBeEmpty);
    }

    /** The same check on a decoded string. */
    public static boolean valid(String s, int maxBytes, boolean mayBeEmpty) {
        if (s == null || (!mayBeEmpty && s.isEmpty())) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x1F || c == 0x7F) {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        // surrogates are paired here, so this length is the exact UTF-8 byte count
        return s.getBytes(StandardCharsets.UTF_8).length <= maxBytes;
    }

    /** True for exactly 64 lowercase hex characters (incarnations, operation keys, tokens). */
    public static boolean hex64(JsonValue value) {
        return value instanceof JsonString s && hex64(s.getString());
    }

    /** The same check on a decoded string. */
    public static boolean hex64(String s) {
        if (s == null || s.length() != 64) {
            return false;
        }
        for (int i = 0; i < 64; i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }
}
