package org.switchboard.synapse.session;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
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
        if (recent != null) {
            recent.writes++;
            recent.frames += messages.size();
        }
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
     * The UTF-8 of recently encoded strings, found by identity: one broadcast's text is the same string
     * object for every socket. Kept across the flusher's passes up to {@code maxBytes} of encodings (the
     * earliest go first), since in a connection storm a socket's queue holds the presence updates of many
     * registrations and a small window re-encoded the same roster for nearly every socket (issue 20). A
     * text larger than a quarter of the bound is encoded for its write and not kept. Not thread-safe: the
     * flusher's one thread owns it.
     */
    public static final class Payloads {
        /** What the flusher keeps by default: about a storm round's worth of 500-agent rosters. */
        public static final long DEFAULT_MAX_BYTES = 2L * 1024 * 1024;
        private final long maxBytes;
        private final IdentityHashMap<String, byte[]> encoded = new IdentityHashMap<>();
        private final ArrayDeque<String> order = new ArrayDeque<>();
        private long bytes;
        private long encodings;
        private long encodedBytes;
        private long reusedBytes;
        private long writes;
        private long frames;

        /** A cache of {@link #DEFAULT_MAX_BYTES}. */
        public Payloads() {
            this(DEFAULT_MAX_BYTES);
        }

        /** A cache holding at most {@code maxBytes} of encoded text. */
        public Payloads(long maxBytes) {
            this.maxBytes = maxBytes;
        }

        /** The UTF-8 of {@code text}, encoded at most once while it stays cached. */
        byte[] utf8(String text) {
            byte[] known = encoded.get(text);
            if (known != null) {
                reusedBytes += known.length;
                return known;
            }
            byte[] fresh = text.getBytes(StandardCharsets.UTF_8);
            encodings++;
            encodedBytes += fresh.length;
            if (fresh.length <= maxBytes / 4) {
                encoded.put(text, fresh);
                order.add(text);
                bytes += fresh.length;
                while (bytes > maxBytes) {
                    bytes -= encoded.remove(order.poll()).length;
                }
            }
            return fresh;
        }

        /** Strings encoded so far (for tests). */
        long encodings() {
            return encodings;
        }

        /** Bytes encoded so far. */
        long encodedBytes() {
            return encodedBytes;
        }

        /** Bytes taken from the cache instead of encoded again so far. */
        long reusedBytes() {
            return reusedBytes;
        }

        /** Writes encoded with this cache so far. */
        long writes() {
            return writes;
        }

        /** Frames in those writes. */
        long frames() {
            return frames;
        }

        /** Bytes of encodings kept now (for tests). */
        long bytesKept() {
            return bytes;
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
