package org.switchboard.synapse.session;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.switchboard.synapse.SharedText;

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
        byte[][] payloads = new byte[messages.size()][];
        for (int i = 0; i < payloads.length; i++) {
            payloads[i] = messages.get(i).getBytes(StandardCharsets.UTF_8);
        }
        return frames(payloads, payloads.length);
    }

    /**
     * The frames of the first {@code count} UTF-8 {@code payloads}, in order, as one fresh byte array (a
     * write owns it; the payloads may be shared with other sockets' writes).
     */
    static byte[] frames(byte[][] payloads, int count) {
        byte[] out = new byte[length(payloads, count)];
        lay(out, payloads, count);
        return out;
    }

    /** Bytes of the frames of the first {@code count} payloads. */
    private static int length(byte[][] payloads, int count) {
        int total = 0;
        for (int i = 0; i < count; i++) {
            total += headerLength(payloads[i].length) + payloads[i].length;
        }
        return total;
    }

    /** Lays the frames of the first {@code count} payloads end to end from the start of {@code out}. */
    private static void lay(byte[] out, byte[][] payloads, int count) {
        int at = 0;
        for (int i = 0; i < count; i++) {
            at = writeHeader(out, at, payloads[i].length);
            System.arraycopy(payloads[i], 0, out, at, payloads[i].length);
            at += payloads[i].length;
        }
    }

    /**
     * The UTF-8 of the frames the flusher writes, with counts for {@code /metrics}: a frame of its own
     * socket is encoded for its write; a {@link SharedText} (one broadcast's text for every socket) is
     * encoded by the first write that needs it and reused by the others. It also keeps the array the
     * writes are laid out in (see {@link #frames}). Not thread-safe: the flusher's one thread owns it.
     */
    public static final class Payloads {
        /**
         * Size of the kept write array: a coalesced write stops adding frames past 64 KiB of text, so
         * nearly every write fits; a larger one gets an array of its own.
         */
        static final int KEPT_ARRAY_BYTES = 128 * 1024;

        /** The array writes are laid out in while the socket takes each write at once; null until needed. */
        private byte[] kept;
        private long arrays;
        private long encodings;
        private long encodedBytes;
        private long reusedBytes;
        private long writes;
        private long frames;

        /** The UTF-8 of one socket's own frame. */
        byte[] utf8(String text) {
            byte[] fresh = text.getBytes(StandardCharsets.UTF_8);
            encodings++;
            encodedBytes += fresh.length;
            return fresh;
        }

        /** The UTF-8 of a shared frame, encoded at most once for every socket that gets it. */
        byte[] utf8(SharedText shared) {
            boolean known = shared.encoded();
            byte[] bytes = shared.utf8();
            if (known) {
                reusedBytes += bytes.length;
            } else {
                encodings++;
                encodedBytes += bytes.length;
            }
            return bytes;
        }

        /**
         * The frames of the first {@code count} payloads, laid out in the array kept across writes. A
         * storm writes hundreds of MB a second in writes of tens of KB; a fresh array for each was that
         * much garbage, zeroed and then filled. The writer must be done reading the bytes before the next
         * call, or the caller hands the array over with {@link #keptByWriter}.
         */
        ByteBuffer frames(byte[][] payloads, int count) {
            int total = length(payloads, count);
            byte[] out;
            if (total > KEPT_ARRAY_BYTES) {
                out = new byte[total];
                arrays++;
            } else {
                if (kept == null) {
                    kept = new byte[KEPT_ARRAY_BYTES];
                    arrays++;
                }
                out = kept;
            }
            lay(out, payloads, count);
            return ByteBuffer.wrap(out, 0, total);
        }

        /** The writer still holds {@code frames} (its write has not finished): later writes use another array. */
        void keptByWriter(ByteBuffer frames) {
            if (frames.hasArray() && frames.array() == kept) {
                kept = null;
            }
        }

        /** Write arrays allocated so far (for tests). */
        long arrays() {
            return arrays;
        }

        /** Counts one write of {@code frameCount} frames. */
        void wrote(int frameCount) {
            writes++;
            frames += frameCount;
        }

        /** Strings encoded so far (for tests). */
        long encodings() {
            return encodings;
        }

        /** Bytes encoded so far. */
        long encodedBytes() {
            return encodedBytes;
        }

        /** Bytes of shared frames taken as another socket's write encoded them, so far. */
        long reusedBytes() {
            return reusedBytes;
        }

        /** Writes counted so far. */
        long writes() {
            return writes;
        }

        /** Frames in those writes. */
        long frames() {
            return frames;
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
