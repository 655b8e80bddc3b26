package org.switchboard.synapse.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.SharedText;

class TextFramesTest {

    /** Reads frames back the way a client does (RFC 6455 §5.2), checking FIN, opcode and no mask. */
    private static List<String> parse(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        List<String> messages = new ArrayList<>();
        while (in.available() > 0) {
            int first = in.readUnsignedByte();
            assertEquals(0x81, first, "FIN set, text opcode, no reserved bits");
            int second = in.readUnsignedByte();
            assertEquals(0, second & 0x80, "server frames are not masked");
            long length = second & 0x7F;
            if (length == 126) {
                length = in.readUnsignedShort();
            } else if (length == 127) {
                length = in.readLong();
            }
            byte[] payload = new byte[(int) length];
            in.readFully(payload);
            messages.add(new String(payload, StandardCharsets.UTF_8));
        }
        return messages;
    }

    @Test
    void framesEachMessageWithTheShortestLengthForm() throws IOException {
        List<String> messages = List.of("", "x".repeat(125), "y".repeat(126), "z".repeat(65_535), "w".repeat(65_536),
                "{\"payload\":\"caf\u00e9 \u2603 \ud83d\ude00\"}");
        byte[] bytes = TextFrames.encode(messages);
        assertEquals(messages, parse(bytes));
        int expected = 0;
        for (String m : messages) {
            int n = m.getBytes(StandardCharsets.UTF_8).length;
            expected += n + (n < 126 ? 2 : n <= 0xFFFF ? 4 : 10);
        }
        assertEquals(expected, bytes.length, "no padding between frames");
    }

    @Test
    void headerOfA126ByteMessageUsesTheSixteenBitLength() {
        byte[] bytes = TextFrames.encode(List.of("a".repeat(300)));
        assertArrayEquals(new byte[] {(byte) 0x81, 126, 1, 44}, java.util.Arrays.copyOf(bytes, 4));
    }

    @Test
    void multiByteCharactersCountInBytesNotChars() throws IOException {
        String snowmen = "\u2603".repeat(50); // 50 chars, 150 bytes: needs the 16-bit form
        byte[] bytes = TextFrames.encode(List.of(snowmen));
        assertEquals(126, bytes[1]);
        assertEquals(List.of(snowmen), parse(bytes));
    }

    @Test
    void aSharedTextIsEncodedOnceAndAnOwnFrameForEachWrite() throws IOException {
        TextFrames.Payloads counts = new TextFrames.Payloads();
        SharedText shared = new SharedText("{\"type\":\"presence_update\",\"who\":\"\u2603\"}");
        byte[] first = counts.utf8(shared);
        assertSame(first, counts.utf8(shared), "encoded once, then the same bytes");
        assertSame(first, shared.utf8());
        assertArrayEquals(shared.text().getBytes(StandardCharsets.UTF_8), first);
        String own = "{\"own\":1}";
        assertNotSame(counts.utf8(own), counts.utf8(own), "a socket's own frame is encoded for its write");
        assertEquals(3, counts.encodings());
        assertEquals(first.length + 2L * own.length(), counts.encodedBytes());
        assertEquals(first.length, counts.reusedBytes());

        byte[] write = TextFrames.frames(new byte[][] {counts.utf8(own), first}, 2);
        assertEquals(List.of(own, shared.text()), parse(write));
        assertNotSame(TextFrames.frames(new byte[][] {first}, 1), TextFrames.frames(new byte[][] {first}, 1), "a write owns its array");
    }
}
