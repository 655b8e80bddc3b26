package org.switchboard.synapse.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Retained history is bounded in bytes as well as entries, oldest first out; channels share one byte bound. */
class ChatHistoryBoundsTest {

    private static String chat(long msgId, int chars) {
        return "{\"msg_id\":" + msgId + ",\"payload\":\"" + "z".repeat(chars) + "\"}";
    }

    private static List<Long> ids(ChatHistory history) {
        List<Long> ids = new ArrayList<>();
        for (Iterator<ChatHistory.Entry> it = history.oldestFirst(); it.hasNext(); ) {
            ids.add(it.next().msgId());
        }
        return ids;
    }

    @Test
    void theOldestLeaveOnceTheBytesExceedTheBound() {
        long one = ChatHistory.relayedSize(chat(1, 1000), 7L);
        ChatHistory history = new ChatHistory(10_000, 3 * one);
        for (long i = 1; i <= 5; i++) {
            history.add(chat(i, 1000), 7L, i);
        }
        assertEquals(List.of(3L, 4L, 5L), ids(history));
        assertEquals(3 * one, history.bytes());
        assertEquals(3, history.size());
    }

    @Test
    void anEntryIsChargedItsRelayedUtf8Size() {
        ChatHistory history = new ChatHistory(10);
        String text = "{\"msg_id\":1,\"payload\":\"h\u00e9llo \u20ac \ud83d\ude00\"}";
        history.add(text, 42L, 1);
        ChatHistory.Entry entry = history.newestFirst().next();
        assertEquals(entry.relayedText().getBytes(StandardCharsets.UTF_8).length, entry.bytes());
        assertTrue(entry.relayedText().endsWith(",\"seq\":42}"));
        assertEquals(text.getBytes(StandardCharsets.UTF_8).length, ChatHistory.utf8Length(text));
    }

    @Test
    void channelsSharingABoundEvictFromTheHistoryThatGrew() {
        long one = ChatHistory.relayedSize(chat(11, 1000), null); // the largest of the six (two-digit msg_id)
        AtomicLong shared = new AtomicLong();
        ChatHistory ops = new ChatHistory(100, 4 * one, shared);
        ChatHistory dev = new ChatHistory(100, 4 * one, shared);
        for (long i = 1; i <= 3; i++) {
            ops.add(chat(i, 1000), null, i);
        }
        for (long i = 11; i <= 13; i++) {
            dev.add(chat(i, 1000), null, i);
        }
        assertTrue(shared.get() <= 4 * one, "shared total within the bound: " + shared.get());
        assertEquals(List.of(1L, 2L, 3L), ids(ops), "the other channel's history is untouched");
        assertEquals(List.of(13L), ids(dev));
        assertEquals(ops.bytes() + dev.bytes(), shared.get());
    }

    @Test
    void theEntryLimitStillHolds() {
        ChatHistory history = new ChatHistory(2, Long.MAX_VALUE);
        for (long i = 1; i <= 4; i++) {
            history.add(chat(i, 10), null, i);
        }
        assertEquals(List.of(3L, 4L), ids(history));
    }
}
