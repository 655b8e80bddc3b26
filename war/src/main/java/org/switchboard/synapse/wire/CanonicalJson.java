package org.switchboard.synapse.wire;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Canonical JSON of synapse-core §15.4 (sorted keys by code point, no whitespace, ASCII-only
 * escaping, Python {@code repr} floats) and its SHA-256 digest, used for request digests and
 * chat content digests (§7.7).
 */
public final class CanonicalJson {

    private CanonicalJson() {
    }

    /** Lower-case hex SHA-256 of the canonical form. */
    public static String sha256Hex(JsonValue value) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(canonical(value).getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The canonical text; throws {@link IllegalArgumentException} for non-finite numbers. */
    public static String canonical(JsonValue value) {
        StringBuilder out = new StringBuilder(256);
        write(value, out);
        return out.toString();
    }

    private static void write(JsonValue value, StringBuilder out) {
        switch (value.getValueType()) {
            case OBJECT -> {
                JsonObject object = (JsonObject) value;
                List<String> keys = new ArrayList<>(object.keySet());
                keys.sort(CanonicalJson::compareCodePoints);
                out.append('{');
                boolean first = true;
                for (String key : keys) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    writeString(key, out);
                    out.append(':');
                    write(object.get(key), out);
                }
                out.append('}');
            }
            case ARRAY -> {
                out.append('[');
                boolean first = true;
                for (JsonValue item : (JsonArray) value) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    write(item, out);
                }
                out.append(']');
            }
            case STRING -> writeString(((JsonString) value).getString(), out);
            case NUMBER -> writeNumber((JsonNumber) value, out);
            case TRUE -> out.append("true");
            case FALSE -> out.append("false");
            case NULL -> out.append("null");
            default -> throw new IllegalArgumentException("unsupported JSON value");
        }
    }

    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    private static void writeString(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c >= 0x20 && c <= 0x7e) {
                        out.append(c);
                    } else {
                        out.append("\\u").append(String.format("%04x", (int) c));
                    }
                }
            }
        }
        out.append('"');
    }

    private static void writeNumber(JsonNumber number, StringBuilder out) {
        String literal = number.toString();
        boolean written = literal.indexOf('.') < 0 && literal.indexOf('e') < 0 && literal.indexOf('E') < 0;
        if (written) {
            out.append(number.bigIntegerValue().toString());
            return;
        }
        double d = number.doubleValue();
        if (!Double.isFinite(d)) {
            throw new IllegalArgumentException("non-finite number");
        }
        out.append(pythonRepr(d));
    }

    /** Python's {@code repr(float)}: shortest round-trip digits, exponent form below 1e-4 or from 1e16. */
    public static String pythonRepr(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("non-finite number");
        }
        if (d == 0) {
            return (1 / d < 0) ? "-0.0" : "0.0";
        }
        BigDecimal exact = new BigDecimal(d);
        BigDecimal shortest = exact;
        for (int precision = 1; precision <= 17; precision++) {
            BigDecimal candidate = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
            if (candidate.doubleValue() == d) {
                shortest = candidate;
                break;
            }
        }
        shortest = shortest.stripTrailingZeros();
        String digits = shortest.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - shortest.scale(); // decimal exponent of the first digit
        String sign = d < 0 ? "-" : "";
        if (exponent < -4 || exponent >= 16) {
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            String exp = String.format("%02d", Math.abs(exponent));
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + exp;
        }
        if (exponent < 0) {
            return sign + "0." + "0".repeat(-exponent - 1) + digits;
        }
        if (digits.length() <= exponent + 1) {
            return sign + digits + "0".repeat(exponent + 1 - digits.length()) + ".0";
        }
        return sign + digits.substring(0, exponent + 1) + "." + digits.substring(exponent + 1);
    }
}
