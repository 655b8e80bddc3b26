package org.switchboard.synapse.session;

import java.nio.charset.StandardCharsets;

/**
 * Watches the bytes a WebSocket client sends, frame header by frame header, and stops a message
 * larger than the limit (§2.1) before the container buffers any of it: the container holds a whole
 * frame in memory before it delivers it, and fails a frame over its 4 MiB buffer with 1011 rather
 * than 1009. A data frame, or the fragments of one message added up, longer than the limit is
 * replaced by a client close frame with code 1009, which the container answers with the same close;
 * everything after it is discarded. Control frames do not count. One instance per connection, fed in
 * order from one thread at a time.
 */
final class FrameGate {

    /** Receives the bytes that may pass, in order. */
    @FunctionalInterface
    interface Sink {
        /** Takes {@code len} bytes of {@code bytes} from {@code off}. */
        void write(byte[] bytes, int off, int len);
    }

    private static final int MAX_HEADER = 14;

    private final long maxMessageBytes;
    private final byte[] header = new byte[MAX_HEADER];
    private int headerLength;
    private long payloadLeft;
    private long messageBytes;
    private boolean tripped;

    /** A gate letting messages of at most {@code maxMessageBytes} payload bytes through. */
    FrameGate(long maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
    }

    /** True once a message went over the limit; from then on nothing passes. */
    boolean tripped() {
        return tripped;
    }

    /**
     * Takes the next {@code len} bytes of the stream; hands {@code out} what may pass. A frame header is
     * held back until it is complete, so that none of an oversized frame reaches the container.
     */
    void accept(byte[] in, int off, int len, Sink out) {
        int at = off;
        int end = off + len;
        while (at < end && !tripped) {
            if (payloadLeft > 0) {
                int n = (int) Math.min(payloadLeft, end - at);
                out.write(in, at, n);
                at += n;
                payloadLeft -= n;
                continue;
            }
            header[headerLength++] = in[at++];
            int needed = headerNeeded();
            if (headerLength == needed) {
                frameHeaderComplete(out);
            }
        }
    }

    /** Header bytes of the frame being read: 2 until its length byte is in, then the whole header. */
    private int headerNeeded() {
        if (headerLength < 2) {
            return 2;
        }
        int length7 = header[1] & 0x7f;
        int extended = length7 == 126 ? 2 : length7 == 127 ? 8 : 0;
        int mask = (header[1] & 0x80) != 0 ? 4 : 0;
        return 2 + extended + mask;
    }

    private void frameHeaderComplete(Sink out) {
        boolean fin = (header[0] & 0x80) != 0;
        int opcode = header[0] & 0x0f;
        long length = payloadLength();
        if (opcode < 0x8) {
            // a continuation adds to the message it continues; a new data frame starts one
            long total = opcode == 0x0 ? messageBytes + length : length;
            if (length < 0 || total < 0 || total > maxMessageBytes) {
                tripped = true;
                byte[] close = CLOSE_TOO_BIG;
                out.write(close, 0, close.length);
                return;
            }
            messageBytes = fin ? 0 : total;
        }
        out.write(header, 0, headerLength);
        headerLength = 0;
        payloadLeft = length;
    }

    /** The declared payload length; negative when the 64-bit form has its top bit set. */
    private long payloadLength() {
        int length7 = header[1] & 0x7f;
        if (length7 < 126) {
            return length7;
        }
        int bytes = length7 == 126 ? 2 : 8;
        long length = 0;
        for (int i = 0; i < bytes; i++) {
            length = (length << 8) | (header[2 + i] & 0xff);
        }
        return length;
    }

    /** A masked (all-zero key) client close frame: 1009 and the hub's reason text. */
    private static final byte[] CLOSE_TOO_BIG = closeFrame(1009, FrameSizeLimit.REASON);

    private static byte[] closeFrame(int code, String reason) {
        byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        byte[] frame = new byte[2 + 4 + 2 + text.length];
        frame[0] = (byte) 0x88;
        frame[1] = (byte) (0x80 | (2 + text.length));
        frame[6] = (byte) (code >> 8);
        frame[7] = (byte) code;
        System.arraycopy(text, 0, frame, 8, text.length);
        return frame;
    }
}
