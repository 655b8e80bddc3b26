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
import java.util.ArrayList;
import java.util.List;
import org.switchboard.crypto.Hex;
import org.switchboard.json.JsonText;

/**
 * Strict canonical JSON (synapse-core §15.4, synapse-advanced §1.3): keys sorted by code point,
 * no whitespace, Python-{@code repr} floats; {@link #ascii} escapes every non-ASCII character
 * (CJ-ASCII), {@link #utf8} keeps it raw (CJ-UTF8).
 *
 * <p>Numbers: a JSON number whose decimal form has scale 0 (written without fraction or
 * exponent) stays an integer; every other number is a float rendered the way Python's
 * {@code repr(float)} does. Stateless and thread-safe.
 */
public final class SynapseCanonicalJson {

    private SynapseCanonicalJson() {
    }

    /** CJ-ASCII text of {@code value}; throws {@link NonCanonicalException} if not representable. */
    public static String ascii(JsonValue value) {
        StringBuilder out = new StringBuilder(256);
        write(value, out, true);
        return out.toString();
    }

    /** CJ-UTF8 text of {@code value} (non-ASCII kept raw). */
    public static String utf8(JsonValue value) {
        StringBuilder out = new StringBuilder(256);
        write(value, out, false);
        return out.toString();
    }

    /** Lowercase hex SHA-256 of the CJ-ASCII form of {@code value} (request and chat content digests). */
    public static String sha256Hex(JsonValue value) {
        return sha256Hex(ascii(value));
    }

    /** Lowercase hex SHA-256 of the UTF-8 bytes of {@code text}. */
    public static String sha256Hex(String text) {
        return Hex.sha256Hex(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Appends {@code s} as a CJ-ASCII string (quotes and escapes included), for callers that write a
     * canonical form of known shape directly instead of building a JSON object to sort.
     */
    public static StringBuilder appendAsciiString(StringBuilder out, String s) {
        writeString(s, out, true);
        return out;
    }

    /** Appends the CJ-ASCII form of {@code value}. */
    public static StringBuilder appendAscii(StringBuilder out, JsonValue value) {
        write(value, out, true);
        return out;
    }

    private static void write(JsonValue value, StringBuilder out, boolean asciiOnly) {
        if (value == null) {
            throw new NonCanonicalException("null Java reference");
        }
        switch (value.getValueType()) {
            case OBJECT -> {
                JsonObject object = (JsonObject) value;
                List<String> keys = new ArrayList<>(object.keySet());
                keys.sort(SynapseCanonicalJson::compareCodePoints);
                out.append('{');
                boolean first = true;
                for (String key : keys) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    writeString(key, out, asciiOnly);
                    out.append(':');
                    write(object.get(key), out, asciiOnly);
                }
                out.append('}');
            }
            case ARRAY -> {
                JsonArray array = (JsonArray) value;
                out.append('[');
                for (int i = 0; i < array.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(array.get(i), out, asciiOnly);
                }
                out.append(']');
            }
            case STRING -> writeString(((JsonString) value).getString(), out, asciiOnly);
            case NUMBER -> writeNumber((JsonNumber) value, out);
            case TRUE -> out.append("true");
            case FALSE -> out.append("false");
            case NULL -> out.append("null");
            default -> throw new NonCanonicalException("unsupported JSON value");
        }
    }

    /** Python sorts str keys by code point; Java's String order is by UTF-16 unit, which differs for astral characters. */
    public static int compareCodePoints(String a, String b) {
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

    private static void writeString(String s, StringBuilder out, boolean asciiOnly) {
        if (!asciiOnly) {
            JsonText.quote(out, s); // CJ-UTF8 escapes exactly what a compact JSON writer escapes
            return;
        }
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
                    // Python's ensure_ascii escapes everything outside ' '..'~' (so DEL too).
                    boolean escape = c < 0x20 || c > 0x7e;
                    if (escape) {
                        out.append("\\u");
                        String hex = Integer.toHexString(c);
                        out.append("0000", 0, 4 - hex.length()).append(hex);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static void writeNumber(JsonNumber number, StringBuilder out) {
        BigDecimal exact = number.bigDecimalValue();
        if (exact.scale() == 0) {
            out.append(exact.toBigInteger().toString());
            return;
        }
        double d = exact.doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new NonCanonicalException("non-finite number");
        }
        out.append(pythonRepr(d));
    }

    /** Python {@code repr(float)}: shortest round-trip digits, exponent form below 1e-4 or from 1e16. */
    public static String pythonRepr(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new NonCanonicalException("non-finite number");
        }
        if (d == 0.0) {
            return (1.0 / d < 0) ? "-0.0" : "0.0";
        }
        String sign = d < 0 ? "-" : "";
        BigDecimal shortest = shortestRoundTrip(Math.abs(d));
        String digits = shortest.unscaledValue().toString();
        // strip trailing zeros of the digit string (shortest already has none except for the single "0" case)
        int end = digits.length();
        while (end > 1 && digits.charAt(end - 1) == '0') {
            end--;
        }
        int trailing = digits.length() - end;
        digits = digits.substring(0, end);
        // value = 0.d1d2... * 10^decpt
        int decpt = digits.length() - shortest.scale() + trailing;
        StringBuilder sb = new StringBuilder(sign);
        if (decpt <= -4 || decpt > 16) {
            sb.append(digits.charAt(0));
            if (digits.length() > 1) {
                sb.append('.').append(digits, 1, digits.length());
            }
            int exp = decpt - 1;
            sb.append('e').append(exp < 0 ? '-' : '+');
            int abs = Math.abs(exp);
            if (abs < 10) {
                sb.append('0');
            }
            sb.append(abs);
        } else if (decpt <= 0) {
            sb.append("0.");
            sb.append("0".repeat(-decpt));
            sb.append(digits);
        } else if (decpt >= digits.length()) {
            sb.append(digits).append("0".repeat(decpt - digits.length())).append(".0");
        } else {
            sb.append(digits, 0, decpt).append('.').append(digits, decpt, digits.length());
        }
        return sb.toString();
    }

    /** The shortest decimal that parses back to {@code d}; among equals in length, the nearest. */
    private static BigDecimal shortestRoundTrip(double d) {
        BigDecimal exact = new BigDecimal(d);
        // Double.toString always round-trips and is at most a digit or so longer than the shortest
        // (JDK 17), so the search starts just below its length instead of at 1: the per-precision
        // rounding is what made this the dearest part of a delivery request's digest. If something
        // already round-trips at the starting precision, a shorter form may exist: search from 1.
        int start = Math.max(1, significantDigits(Double.toString(d)) - 2);
        if (start > 1 && roundTrips(exact, start, d)) {
            start = 1;
        }
        return shortestFrom(exact, start, d);
    }

    private static boolean roundTrips(BigDecimal exact, int precision, double d) {
        return exact.round(new MathContext(precision, RoundingMode.FLOOR)).doubleValue() == d
                || exact.round(new MathContext(precision, RoundingMode.CEILING)).doubleValue() == d;
    }

    /** Digits of a positive {@link Double#toString} form without leading and trailing zeros. */
    static int significantDigits(String javaForm) {
        int end = javaForm.indexOf('E');
        if (end < 0) {
            end = javaForm.length();
        }
        int first = -1;
        int last = -1;
        for (int i = 0; i < end; i++) {
            char c = javaForm.charAt(i);
            if (c >= '1' && c <= '9') {
                if (first < 0) {
                    first = i;
                }
                last = i;
            }
        }
        if (first < 0) {
            return 1;
        }
        int dot = javaForm.indexOf('.');
        int digits = last - first + 1;
        return dot > first && dot < last ? digits - 1 : digits;
    }

    private static BigDecimal shortestFrom(BigDecimal exact, int start, double d) {
        for (int precision = start; precision <= 17; precision++) {
            BigDecimal down = exact.round(new MathContext(precision, RoundingMode.FLOOR));
            BigDecimal up = exact.round(new MathContext(precision, RoundingMode.CEILING));
            boolean downOk = down.doubleValue() == d;
            boolean upOk = up.doubleValue() == d;
            if (downOk && upOk) {
                int cmp = exact.subtract(down).compareTo(up.subtract(exact));
                if (cmp < 0) {
                    return down;
                }
                if (cmp > 0) {
                    return up;
                }
                return exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
            }
            if (downOk) {
                return down;
            }
            if (upOk) {
                return up;
            }
        }
        return exact.round(new MathContext(17, RoundingMode.HALF_EVEN));
    }
}
