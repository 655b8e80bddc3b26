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
    /**
     * Builders up to this many characters are kept for the thread's next object: a delivery cycle builds
     * about a dozen objects of 300–700 characters, and a fresh builder for each was ~10% of what the
     * hub-side flow allocates (DeliveryFlowBench); larger ones (rosters) are left to the collector.
     */
    static final int MAX_SPARE_CHARS = 8 * 1024;
    /**
     * Per thread, the builder of the last object built, lent to the next one (never to two at once). It
     * holds only a JDK object, so the container's pooled threads keep no application class after a redeploy.
     */
    private static final ThreadLocal<StringBuilder> SPARE = new ThreadLocal<>();

    private final StringBuilder out;
    private boolean empty = true;
    private boolean built;

    private JsonText(int capacity) {
        out = borrow(capacity).append('{');
    }

    /**
     * The thread's spare builder, emptied, or a new one: taken off the thread while in use, so an object
     * begun inside another gets its own.
     */
    private static StringBuilder borrow(int capacity) {
        StringBuilder spare = SPARE.get();
        if (spare == null) {
            return new StringBuilder(capacity);
        }
        SPARE.set(null);
        spare.setLength(0);
        spare.ensureCapacity(capacity);
        return spare;
    }

    /** The text written in {@code out}; the builder goes back to the thread unless it grew too large. */
    private static String giveBack(StringBuilder out) {
        String text = out.toString();
        if (out.capacity() <= MAX_SPARE_CHARS) {
            SPARE.set(out);
        }
        return text;
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
        appendNumber(name(name), value);
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

    /** Closes the object and returns its text; the object takes no more members after this. */
    public String build() {
        open();
        built = true;
        return giveBack(out.append('}'));
    }

    /** Refuses use after {@link #build()}: the builder may then be writing another object of this thread. */
    private void open() {
        if (built) {
            throw new IllegalStateException("JSON object already built");
        }
    }

    private StringBuilder name(String name) {
        open();
        if (!empty) {
            out.append(',');
        }
        empty = false;
        quote(out, name);
        return out.append(':');
    }

    /**
     * The compact text of an object with one more integer member last, from the object's own compact text
     * ({@code objectText} ends with its closing brace and has at least one member; {@code name} needs no
     * escaping and is not a member yet): the same text as copying the object, adding the member and
     * writing it again. Written in the thread's spare builder, like {@link #build()}.
     */
    public static String withLongMember(String objectText, String name, long value) {
        StringBuilder out = borrow(objectText.length() + name.length() + 24);
        // the whole text is appended (a copy of its array) and its closing brace then cut off
        out.append(objectText).setLength(objectText.length() - 1);
        return giveBack(out.append(",\"").append(name).append("\":").append(value).append('}'));
    }

    /** The provider's text for a {@code double}: the shortest decimal through {@link BigDecimal#valueOf(double)}. */
    public static String number(double value) {
        return appendNumber(new StringBuilder(24), value).toString();
    }

    /**
     * Appends {@link #number(double)}'s text to {@code out}, written from {@link Double#toString(double)} without
     * the {@code BigDecimal} for the forms timestamps take (every frame carries one or more; the round trip
     * cost ~2 KB of garbage per delivery cycle).
     */
    private static StringBuilder appendNumber(StringBuilder out, double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new NumberFormatException("JSON has no " + value);
        }
        if (value == 0) {
            return out.append("0.0"); // BigDecimal has no negative zero
        }
        String shortest = Double.toString(value);
        int e = shortest.indexOf('E');
        if (e < 0) {
            return out.append(shortest); // "digits.digits": BigDecimal's plain form of the same digits is this very text
        }
        int point = shortest.charAt(0) == '-' ? 2 : 1; // one digit before the point in this form
        int exponent = Integer.parseInt(shortest, e + 1, shortest.length(), 10);
        int fractionDigits = e - point - 1;
        if (exponent < 0) {
            return out.append(BigDecimal.valueOf(value)); // below 1e-3: rare, and its forms vary with the exponent
        }
        if (fractionDigits < exponent) {
            // a negative scale: BigDecimal writes the same digits in scientific form, with a plus sign
            return out.append(shortest, 0, e).append("E+").append(exponent);
        }
        out.append(shortest, 0, point).append(shortest, point + 1, point + 1 + exponent);
        if (fractionDigits > exponent) {
            out.append('.').append(shortest, point + 1 + exponent, e);
        }
        return out;
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
