package org.switchboard.synapse.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

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
    void aPassEncodesOneStringOnceAndEveryWriteGetsItsOwnBytes() throws IOException {
        TextFrames.Payloads recent = new TextFrames.Payloads();
        String shared = "{\"type\":\"presence_update\",\"who\":\"\u2603\"}";
        byte[] first = TextFrames.encode(List.of(shared), recent);
        byte[] second = TextFrames.encode(List.of("{\"own\":1}", shared), recent);
        assertArrayEquals(TextFrames.encode(List.of(shared)), first);
        assertEquals(List.of("{\"own\":1}", shared), parse(second));
        org.junit.jupiter.api.Assertions.assertSame(recent.utf8(shared), recent.utf8(shared), "encoded once, found by identity");
        org.junit.jupiter.api.Assertions.assertNotSame(first, TextFrames.encode(List.of(shared), recent), "a write owns its array");
        String equalButNotSame = new String(shared.toCharArray());
        org.junit.jupiter.api.Assertions.assertNotSame(recent.utf8(shared), recent.utf8(equalButNotSame));
        assertArrayEquals(recent.utf8(shared), recent.utf8(equalButNotSame));
    }

    @Test
    void theCacheKeepsManyBroadcastsAcrossPassesWithinItsByteBound() {
        TextFrames.Payloads cache = new TextFrames.Payloads(10_000);
        List<String> rosters = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            rosters.add("{\"type\":\"presence_update\",\"n\":" + i + ",\"pad\":\"" + "x".repeat(400) + "\"}");
        }
        // every socket's queue holds all 20 updates: each is encoded once, not once per socket
        for (int socket = 0; socket < 50; socket++) {
            TextFrames.encode(rosters, cache);
        }
        assertEquals(20, cache.encodings(), "20 distinct texts, 50 sockets");
        // beyond the bound the earliest go, and what is kept never exceeds it
        for (int i = 0; i < 100; i++) {
            cache.utf8("{\"other\":" + i + ",\"pad\":\"" + "y".repeat(400) + "\"}");
        }
        org.junit.jupiter.api.Assertions.assertTrue(cache.bytesKept() <= 10_000, "kept " + cache.bytesKept());
        long before = cache.encodings();
        cache.utf8(rosters.get(0));
        assertEquals(before + 1, cache.encodings(), "an evicted text is encoded again");
        String huge = "z".repeat(3_000); // over a quarter of the bound: encoded, not kept
        cache.utf8(huge);
        cache.utf8(huge);
        assertEquals(before + 3, cache.encodings());
    }
}
