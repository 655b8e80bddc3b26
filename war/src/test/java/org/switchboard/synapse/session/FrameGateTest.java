package org.switchboard.synapse.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FrameGateTest {

    private static final int TEXT = 0x1;
    private static final int BINARY = 0x2;
    private static final int CONTINUATION = 0x0;
    private static final int PING = 0x9;

    /** A masked client frame header for a payload of {@code length} bytes. */
    private static byte[] header(boolean fin, int opcode, long length) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write((fin ? 0x80 : 0) | opcode);
        if (length >= 0 && length < 126) {
            out.write(0x80 | (int) length);
        } else if (length >= 0 && length <= 0xFFFF) {
            out.write(0x80 | 126);
            out.write((int) (length >> 8));
            out.write((int) length & 0xff);
        } else {
            out.write(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                out.write((int) (length >>> shift) & 0xff);
            }
        }
        out.write(new byte[] {1, 2, 3, 4}, 0, 4);
        return out.toByteArray();
    }

    private static byte[] frame(boolean fin, int opcode, int length) {
        byte[] head = header(fin, opcode, length);
        byte[] frame = Arrays.copyOf(head, head.length + length);
        Arrays.fill(frame, head.length, frame.length, (byte) 'x');
        return frame;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.write(part, 0, part.length);
        }
        return out.toByteArray();
    }

    /** Feeds {@code input} in chunks of {@code chunk} bytes and returns what the gate let through. */
    private static byte[] feed(FrameGate gate, byte[] input, int chunk) {
        ByteArrayOutputStream passed = new ByteArrayOutputStream();
        for (int at = 0; at < input.length; at += chunk) {
            gate.accept(input, at, Math.min(chunk, input.length - at), passed::write);
        }
        return passed.toByteArray();
    }

    private static byte[] closeTooBig() {
        byte[] reason = FrameSizeLimit.REASON.getBytes(StandardCharsets.UTF_8);
        byte[] frame = new byte[2 + 4 + 2 + reason.length];
        frame[0] = (byte) 0x88;
        frame[1] = (byte) (0x80 | (2 + reason.length));
        frame[6] = (byte) (1009 >> 8);
        frame[7] = (byte) (1009 & 0xff);
        System.arraycopy(reason, 0, frame, 8, reason.length);
        return frame;
    }

    @Test
    void framesWithinTheLimitPassUnchangedWhateverTheChunking() {
        byte[] input = concat(frame(true, TEXT, 100), frame(true, BINARY, 1000), frame(false, TEXT, 600),
                frame(true, PING, 5), frame(true, CONTINUATION, 400), frame(true, TEXT, 0));
        for (int chunk : new int[] {1, 2, 3, 7, 14, 100, 4096}) {
            FrameGate gate = new FrameGate(1000);
            assertArrayEquals(input, feed(gate, input, chunk), "chunk " + chunk);
            assertFalse(gate.tripped());
        }
    }

    @Test
    void aFrameOverTheLimitIsReplacedByA1009CloseBeforeAnyOfItPasses() {
        byte[] first = frame(true, TEXT, 1000);
        byte[] input = concat(first, frame(true, TEXT, 1001), frame(true, TEXT, 10));
        for (int chunk : new int[] {1, 5, 1024, 8192}) {
            FrameGate gate = new FrameGate(1000);
            assertArrayEquals(concat(first, closeTooBig()), feed(gate, input, chunk), "chunk " + chunk);
            assertTrue(gate.tripped());
        }
    }

    @Test
    void onlyTheHeaderIsNeededSoHugeFramesAreRefusedWithoutTheirPayload() {
        for (long length : new long[] {64L << 20, Long.MAX_VALUE, -1L}) {
            FrameGate gate = new FrameGate(1 << 20);
            byte[] passed = feed(gate, header(true, BINARY, length), 1);
            assertArrayEquals(closeTooBig(), passed, "declared length " + length);
            assertTrue(gate.tripped());
            // whatever follows is swallowed
            assertEquals(0, feed(gate, new byte[100_000], 4096).length);
        }
    }

    @Test
    void aFragmentedMessageIsMeasuredAcrossItsFragmentsNotCountingControlFrames() {
        byte[] allowed = concat(frame(false, TEXT, 400), frame(true, PING, 100), frame(false, CONTINUATION, 400),
                frame(true, CONTINUATION, 200));
        FrameGate gate = new FrameGate(1000);
        assertArrayEquals(allowed, feed(gate, allowed, 64));
        assertFalse(gate.tripped());
        // the next message starts from zero again; its third fragment goes one byte over
        byte[] start = concat(frame(false, BINARY, 500), frame(false, CONTINUATION, 500));
        byte[] over = frame(true, CONTINUATION, 1);
        assertArrayEquals(concat(start, closeTooBig()), feed(gate, concat(start, over), 64));
        assertTrue(gate.tripped());
    }
}
