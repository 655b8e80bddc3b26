package org.switchboard.synapse.session;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Server-to-client WebSocket text frames (RFC 6455 §5.2) as bytes: one unfragmented, unmasked frame
 * per message, several messages laid end to end so that one socket write carries them all.
 */
public final class TextFrames {

    private static final int FIN_TEXT = 0x81;

    private TextFrames() {
    }

    /** The frames of {@code messages}, in order, as one byte array. */
    public static byte[] encode(List<String> messages) {
        return encode(messages, null);
    }

    /**
     * As {@link #encode(List)}, taking the UTF-8 of a message from {@code recent} when the same string
     * was encoded there before (null: encode each). The result is always a fresh array: a write owns it.
     */
    public static byte[] encode(List<String> messages, Payloads recent) {
        byte[][] payloads = new byte[messages.size()][];
        int total = 0;
        for (int i = 0; i < payloads.length; i++) {
            String message = messages.get(i);
            payloads[i] = recent == null ? message.getBytes(StandardCharsets.UTF_8) : recent.utf8(message);
            total += headerLength(payloads[i].length) + payloads[i].length;
        }
        byte[] out = new byte[total];
        int at = 0;
        for (byte[] payload : payloads) {
            at = writeHeader(out, at, payload.length);
            System.arraycopy(payload, 0, out, at, payload.length);
            at += payload.length;
        }
        return out;
    }

    /**
     * The UTF-8 of the last few strings encoded, found by identity: one broadcast's text is the same
     * string object for every socket. Not thread-safe; one per flusher pass, dropped with it.
     */
    public static final class Payloads {
        private static final int SLOTS = 8;
        private final String[] texts = new String[SLOTS];
        private final byte[][] bytes = new byte[SLOTS][];
        private int next;

        /** The UTF-8 of {@code text}, encoded at most once while it stays among the last {@value #SLOTS}. */
        byte[] utf8(String text) {
            for (int i = 0; i < SLOTS; i++) {
                if (texts[i] == text) {
                    return bytes[i];
                }
            }
            byte[] encoded = text.getBytes(StandardCharsets.UTF_8);
            texts[next] = text;
            bytes[next] = encoded;
            next = (next + 1) % SLOTS;
            return encoded;
        }
    }

    /** Header bytes for a payload of {@code length}: 2, 4 (16-bit length) or 10 (64-bit length). */
    static int headerLength(int length) {
        return length < 126 ? 2 : length <= 0xFFFF ? 4 : 10;
    }

    private static int writeHeader(byte[] out, int at, int length) {
        out[at++] = (byte) FIN_TEXT;
        if (length < 126) {
            out[at++] = (byte) length;
        } else if (length <= 0xFFFF) {
            out[at++] = 126;
            out[at++] = (byte) (length >>> 8);
            out[at++] = (byte) length;
        } else {
            out[at++] = 127;
            for (int shift = 56; shift >= 0; shift -= 8) {
                out[at++] = (byte) ((long) length >>> shift);
            }
        }
        return at;
    }
}
