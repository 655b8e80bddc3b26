package org.switchboard.json;

import java.math.BigDecimal;

/**
 * Writes one compact JSON object straight into a {@link StringBuilder}, producing the same text as
 * building a {@code JsonObject} with the shared provider and calling {@code toString()} (member order
 * as added, the provider's string escapes and number forms), without the intermediate maps. For frames
 * and journal payloads the hub builds thousands of times a second; a later member with an earlier
 * member's name is the caller's mistake here, not a replacement as in a builder.
 */
public final class JsonText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final StringBuilder out;
    private boolean empty = true;

    private JsonText(int capacity) {
        out = new StringBuilder(capacity).append('{');
    }

    /** A new object expected to need about {@code capacity} characters. */
    public static JsonText object(int capacity) {
        return new JsonText(capacity);
    }

    /** A string member; a null value is written as JSON {@code null}. */
    public JsonText add(String name, String value) {
        name(name);
        if (value == null) {
            out.append("null");
        } else {
            quote(out, value);
        }
        return this;
    }

    /** An integer member. */
    public JsonText add(String name, long value) {
        name(name).append(value);
        return this;
    }

    /** A floating-point member, written as the provider writes a {@code double} value. */
    public JsonText add(String name, double value) {
        name(name).append(number(value));
        return this;
    }

    /** A boolean member. */
    public JsonText add(String name, boolean value) {
        name(name).append(value);
        return this;
    }

    /** A member whose value is already JSON text (an object or array written elsewhere). */
    public JsonText addJson(String name, CharSequence json) {
        name(name).append(json);
        return this;
    }

    /** A member holding an array of strings. */
    public JsonText addStrings(String name, Iterable<String> values) {
        name(name).append('[');
        boolean first = true;
        for (String v : values) {
            if (!first) {
                out.append(',');
            }
            first = false;
            quote(out, v);
        }
        out.append(']');
        return this;
    }

    /** Closes the object and returns its text. */
    public String build() {
        return out.append('}').toString();
    }

    private StringBuilder name(String name) {
        if (!empty) {
            out.append(',');
        }
        empty = false;
        quote(out, name);
        return out.append(':');
    }

    /** The provider's text for a {@code double}: the shortest decimal through {@link BigDecimal#valueOf(double)}. */
    public static String number(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new NumberFormatException("JSON has no " + value);
        }
        return BigDecimal.valueOf(value).toString();
    }

    /** Appends {@code s} as a JSON string: quote, backslash and control characters escaped, the rest as is. */
    public static void quote(StringBuilder out, String s) {
        out.append('"');
        int from = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            out.append(s, from, i);
            from = i + 1;
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        out.append(s, from, s.length()).append('"');
    }
}
