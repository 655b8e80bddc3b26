package org.switchboard.synapse.messageauth;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.wire.NonCanonicalException;
import org.switchboard.synapse.wire.SynapseCanonicalJson;

/**
 * The bytes a §6.3 MAC covers: the frame exactly as received, as CJ-UTF8 (keys sorted at every
 * level, compact separators, non-ASCII raw), with only {@code auth.value} removed; and the
 * HMAC-SHA256 over them in lowercase hex.
 *
 * <p>The hub's per-frame path ({@link #write}, {@link #matches}) writes the canonical bytes straight
 * into a reusable buffer, skipping {@code auth.value} on the way instead of copying the frame, and
 * compares the MAC with the hex text without building either as a string: it runs for every signed
 * frame (issue 17's target is ≤ 10 µs per frame).
 */
public final class MacInput {

    private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private MacInput() {
    }

    /** The canonical text the MAC covers; throws {@link NonCanonicalException} if not representable. */
    public static String text(JsonObject frame) {
        return new String(bytes(frame), StandardCharsets.UTF_8);
    }

    /** The UTF-8 bytes of {@link #text}. */
    public static byte[] bytes(JsonObject frame) {
        Buffer out = new Buffer(512);
        write(frame, out);
        return Arrays.copyOf(out.bytes, out.length);
    }

    /** Lowercase hex HMAC-SHA256 of {@code input} under {@code secret}. */
    public static String hmacHex(byte[] secret, byte[] input) {
        return HexFormat.of().formatHex(newMac(secret).doFinal(input));
    }

    /** A new {@code Mac} initialised with {@code secret} (callers keep one per thread: {@code Mac} is not thread-safe). */
    public static Mac newMac(byte[] secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac;
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /**
     * True when {@code valueHex} is the lowercase hex MAC of {@code frame} under {@code mac}'s key.
     * {@code out} is the caller's scratch buffer. The compare touches every digit whatever the
     * input (constant time over the expected length); a value of another length simply fails.
     * Throws {@link NonCanonicalException} when the frame has no canonical form.
     */
    public static boolean matches(Mac mac, JsonObject frame, String valueHex, Buffer out) {
        out.length = 0;
        write(frame, out);
        mac.update(out.bytes, 0, out.length);
        byte[] digest = mac.doFinal(); // also resets the Mac for the next frame
        if (valueHex.length() != digest.length * 2) {
            return false;
        }
        int diff = 0;
        for (int i = 0; i < digest.length; i++) {
            diff |= HEX_DIGITS[(digest[i] >> 4) & 0xf] ^ valueHex.charAt(2 * i);
            diff |= HEX_DIGITS[digest[i] & 0xf] ^ valueHex.charAt(2 * i + 1);
        }
        return diff == 0;
    }

    /** Appends the CJ-UTF8 bytes of {@code frame} without {@code auth.value} to {@code out}. */
    static void write(JsonObject frame, Buffer out) {
        writeObject(frame, out, true, null);
    }

    /**
     * One object, keys in code-point order, {@code skip} left out; at the frame's level the
     * {@code auth} object is written without its {@code value} (§6.3: every other field is covered).
     */
    private static void writeObject(JsonObject object, Buffer out, boolean frameLevel, String skip) {
        String[] keys = object.keySet().toArray(new String[0]);
        if (keys.length > 1) {
            Arrays.sort(keys, SynapseCanonicalJson::compareCodePoints);
        }
        out.put('{');
        boolean first = true;
        for (String key : keys) {
            if (key.equals(skip)) {
                continue;
            }
            if (!first) {
                out.put(',');
            }
            first = false;
            writeString(key, out);
            out.put(':');
            JsonValue value = object.get(key);
            if (frameLevel && key.equals("auth") && value instanceof JsonObject auth) {
                writeObject(auth, out, false, "value");
            } else {
                writeValue(value, out);
            }
        }
        out.put('}');
    }

    private static void writeValue(JsonValue value, Buffer out) {
        if (value == null) {
            throw new NonCanonicalException("null Java reference");
        }
        switch (value.getValueType()) {
            case OBJECT -> writeObject((JsonObject) value, out, false, null);
            case ARRAY -> {
                JsonArray array = (JsonArray) value;
                out.put('[');
                for (int i = 0; i < array.size(); i++) {
                    if (i > 0) {
                        out.put(',');
                    }
                    writeValue(array.get(i), out);
                }
                out.put(']');
            }
            case STRING -> writeString(((JsonString) value).getString(), out);
            // numbers are rare in a frame and their Python-repr form is the canonical writer's to decide
            case NUMBER -> out.putAscii(SynapseCanonicalJson.utf8((JsonNumber) value));
            case TRUE -> out.putAscii("true");
            case FALSE -> out.putAscii("false");
            case NULL -> out.putAscii("null");
            default -> throw new NonCanonicalException("unsupported JSON value");
        }
    }

    /** A JSON string in CJ-UTF8: the escapes of {@link SynapseCanonicalJson}, everything else as UTF-8. */
    private static void writeString(String s, Buffer out) {
        out.put('"');
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x80) {
                if (c == '"' || c == '\\') {
                    out.put('\\');
                }
                out.put(c);
            } else if (c < 0x20) {
                switch (c) {
                    case '\n' -> out.putAscii("\\n");
                    case '\r' -> out.putAscii("\\r");
                    case '\t' -> out.putAscii("\\t");
                    case '\b' -> out.putAscii("\\b");
                    case '\f' -> out.putAscii("\\f");
                    default -> {
                        out.putAscii("\\u00");
                        out.put(HEX_DIGITS[c >> 4]);
                        out.put(HEX_DIGITS[c & 0xf]);
                    }
                }
            } else if (c < 0x800) {
                out.put(0xc0 | (c >> 6));
                out.put(0x80 | (c & 0x3f));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                out.put(0xf0 | (cp >> 18));
                out.put(0x80 | ((cp >> 12) & 0x3f));
                out.put(0x80 | ((cp >> 6) & 0x3f));
                out.put(0x80 | (cp & 0x3f));
            } else if (Character.isSurrogate(c)) {
                out.put('?'); // a lone surrogate, as String.getBytes(UTF_8) encodes it
            } else {
                out.put(0xe0 | (c >> 12));
                out.put(0x80 | ((c >> 6) & 0x3f));
                out.put(0x80 | (c & 0x3f));
            }
        }
        out.put('"');
    }

    /** {@code frame} with {@code member} removed from its object {@code envelope} (a copy; other members kept). */
    static JsonObject withoutMember(JsonObject frame, String envelope, String member) {
        if (!(frame.get(envelope) instanceof JsonObject inner) || !inner.containsKey(member)) {
            return frame;
        }
        JsonObjectBuilder innerCopy = Jsons.PROVIDER.createObjectBuilder(inner);
        innerCopy.remove(member);
        return Jsons.PROVIDER.createObjectBuilder(frame).add(envelope, innerCopy).build();
    }

    /** A growable byte buffer reused across frames by one thread. */
    public static final class Buffer {
        private byte[] bytes;
        private int length;

        /** An empty buffer of {@code capacity} bytes to start with. */
        public Buffer(int capacity) {
            bytes = new byte[Math.max(16, capacity)];
        }

        private void put(int b) {
            if (length == bytes.length) {
                bytes = Arrays.copyOf(bytes, bytes.length * 2);
            }
            bytes[length++] = (byte) b;
        }

        private void putAscii(String s) {
            for (int i = 0; i < s.length(); i++) {
                put(s.charAt(i));
            }
        }
    }
}
