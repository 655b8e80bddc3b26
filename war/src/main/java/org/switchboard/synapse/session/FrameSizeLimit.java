package org.switchboard.synapse.session;

import java.nio.ByteBuffer;

/**
 * The largest inbound frame the hub reads (§2.1), configured in KiB. Text frames are measured in
 * UTF-8 bytes without encoding them: the character count bounds the byte count from both sides, so
 * only frames near the limit are counted exactly.
 */
public final class FrameSizeLimit {

    /** Close reason sent with code 1009. */
    public static final String REASON = "message too big";
    /**
     * Upper bound in KiB: the WebSocket container holds a whole incoming frame in memory, in a buffer
     * sized in {@code web.xml} to fit a frame of this size (its header and one more read); larger
     * messages never reach it ({@link FrameGate}).
     */
    public static final int MAX_KIB = 4096;

    private final int maxBytes;

    private FrameSizeLimit(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** A limit of {@code kib} KiB, clamped to 1 .. {@link #MAX_KIB}. */
    public static FrameSizeLimit ofKib(int kib) {
        return new FrameSizeLimit(clampKib(kib) * 1024);
    }

    /** {@code kib} clamped to 1 .. {@link #MAX_KIB}. */
    public static int clampKib(int kib) {
        return Math.max(1, Math.min(MAX_KIB, kib));
    }

    /** The limit in bytes. */
    public int maxBytes() {
        return maxBytes;
    }

    /** True when the UTF-8 form of {@code text} is larger than the limit. */
    public boolean tooBig(CharSequence text) {
        int chars = text.length();
        if (chars > maxBytes) {
            return true; // every char is at least one byte
        }
        if ((long) chars * 3 <= maxBytes) {
            return false; // every char is at most three bytes (a surrogate pair: four for two)
        }
        return utf8Length(text) > maxBytes;
    }

    /** True when a binary frame is larger than the limit. */
    public boolean tooBig(ByteBuffer bytes) {
        return bytes.remaining() > maxBytes;
    }

    /** Bytes of the UTF-8 encoding of {@code text}. */
    static long utf8Length(CharSequence text) {
        long bytes = 0;
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
