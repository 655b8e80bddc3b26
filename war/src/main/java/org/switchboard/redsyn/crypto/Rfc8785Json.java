package org.switchboard.redsyn.crypto;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.switchboard.crypto.CryptoFormatException;

/**
 * RFC 8785 JSON Canonicalization Scheme (JCS): object members sorted by the UTF-16 code units of their
 * names, no whitespace, numbers as ECMAScript prints doubles, strings with the minimal escapes.
 *
 * <p>Accepts jakarta.json values, raw JSON text (parsed strictly: duplicate names, lone surrogates and
 * numbers outside the double range are refused, as I-JSON requires), and plain Java trees made of
 * {@link Map}, {@link Collection}, {@link String}, {@link Number}, {@link Boolean}, {@code null} and
 * {@link JsonValue}. Needs no JSON-P provider.
 */
public final class Rfc8785Json {

    private Rfc8785Json() {
    }

    /** The canonical text of a jakarta.json value. */
    public static String canonicalize(JsonValue value) {
        StringBuilder out = new StringBuilder();
        write(out, value);
        return out.toString();
    }

    /**
     * The canonical text of raw JSON text.
     *
     * @throws CryptoFormatException when the text is not strict I-JSON
     */
    public static String canonicalize(String jsonText) {
        StringBuilder out = new StringBuilder(jsonText.length());
        write(out, StrictJsonParser.parse(jsonText));
        return out.toString();
    }

    /** The canonical text of a plain Java tree (see the class comment for the types allowed). */
    public static String canonicalizeTree(Object tree) {
        StringBuilder out = new StringBuilder();
        write(out, tree);
        return out.toString();
    }

    /** The UTF-8 bytes of the canonical text of a jakarta.json value: what gets hashed or signed. */
    public static byte[] canonicalBytes(JsonValue value) {
        return canonicalize(value).getBytes(StandardCharsets.UTF_8);
    }

    /** Parses strict JSON text into a plain Java tree (LinkedHashMap, ArrayList, String, Double, Boolean, null). */
    public static Object parse(String jsonText) {
        return StrictJsonParser.parse(jsonText);
    }

    /** Whether two jakarta.json values are the same JSON once canonicalised (numbers compared as doubles). */
    public static boolean sameJson(JsonValue a, JsonValue b) {
        return canonicalize(a).equals(canonicalize(b));
    }

    /** The JSON number text of a double per RFC 8785 (ECMAScript formatting). */
    public static String formatNumber(double value) {
        return EcmaNumber.format(value);
    }

    private static void write(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof JsonValue) {
            writeJsonValue(out, (JsonValue) value);
        } else if (value instanceof String) {
            writeString(out, (String) value);
        } else if (value instanceof Boolean) {
            out.append(((Boolean) value).booleanValue() ? "true" : "false");
        } else if (value instanceof Number) {
            out.append(EcmaNumber.format(toDouble((Number) value)));
        } else if (value instanceof Map) {
            List<Map.Entry<String, Object>> members = new ArrayList<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                if (!(e.getKey() instanceof String)) {
                    throw new CryptoFormatException("object member names must be strings");
                }
                members.add(Map.entry((String) e.getKey(), e.getValue() == null ? JsonValue.NULL : e.getValue()));
            }
            writeMembers(out, members);
        } else if (value instanceof Collection) {
            out.append('[');
            boolean first = true;
            for (Object item : (Collection<?>) value) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                write(out, item);
            }
            out.append(']');
        } else {
            throw new CryptoFormatException("not a JSON value: " + value.getClass().getName());
        }
    }

    private static void writeJsonValue(StringBuilder out, JsonValue value) {
        switch (value.getValueType()) {
            case NULL -> out.append("null");
            case TRUE -> out.append("true");
            case FALSE -> out.append("false");
            case STRING -> writeString(out, ((JsonString) value).getString());
            case NUMBER -> out.append(EcmaNumber.format(toDouble((JsonNumber) value)));
            case ARRAY -> {
                out.append('[');
                boolean first = true;
                for (JsonValue item : (JsonArray) value) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    writeJsonValue(out, item);
                }
                out.append(']');
            }
            case OBJECT -> {
                List<Map.Entry<String, Object>> members = new ArrayList<>();
                for (Map.Entry<String, JsonValue> e : ((JsonObject) value).entrySet()) {
                    members.add(Map.entry(e.getKey(), e.getValue() == null ? JsonValue.NULL : e.getValue()));
                }
                writeMembers(out, members);
            }
            default -> throw new CryptoFormatException("unknown JSON value type " + value.getValueType());
        }
    }

    private static void writeMembers(StringBuilder out, List<Map.Entry<String, Object>> members) {
        // String.compareTo compares UTF-16 code units, exactly the order RFC 8785 section 3.2.3 asks for.
        members.sort(Map.Entry.comparingByKey());
        out.append('{');
        String previous = null;
        for (Map.Entry<String, Object> member : members) {
            if (member.getKey().equals(previous)) {
                throw new CryptoFormatException("duplicate object member name: " + member.getKey());
            }
            if (previous != null) {
                out.append(',');
            }
            previous = member.getKey();
            writeString(out, member.getKey());
            out.append(':');
            write(out, member.getValue());
        }
        out.append('}');
    }

    private static double toDouble(JsonNumber number) {
        // The decimal text converts with correct rounding; BigDecimal.doubleValue is not relied upon.
        return toDouble(number.bigDecimalValue());
    }

    private static double toDouble(Number number) {
        double d = Double.parseDouble(number.toString());
        if (Double.isInfinite(d)) {
            throw new CryptoFormatException("number out of the IEEE 754 double range: " + number);
        }
        return d;
    }

    /** RFC 8785 section 3.2.2.2: the two-character escapes, \\u00xx for other controls, the rest as is. */
    static void writeString(StringBuilder out, String s) {
        out.append('"');
        int length = s.length();
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xF, 16));
                    } else if (Character.isHighSurrogate(c)) {
                        if (i + 1 >= length || !Character.isLowSurrogate(s.charAt(i + 1))) {
                            throw new CryptoFormatException("string holds a lone surrogate");
                        }
                        out.append(c).append(s.charAt(++i));
                    } else if (Character.isLowSurrogate(c)) {
                        throw new CryptoFormatException("string holds a lone surrogate");
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
