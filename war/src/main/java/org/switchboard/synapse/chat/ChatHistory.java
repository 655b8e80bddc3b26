package org.switchboard.synapse.chat;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.switchboard.json.Jsons;

/**
 * Bounded in-memory public chat history (§7.13), oldest first; lock-free append. A journalled chat
 * is kept as the object that was journalled plus its seq, and gets its {@code seq} field only when a
 * query selects it: copying every relayed chat just to add one field cost a map copy per message
 * on the delivery path, for entries that are mostly never read.
 */
public final class ChatHistory {

    private static final long NO_SEQ = Long.MIN_VALUE;

    /** A retained chat: the frame as stored, and the seq to add when it is read ({@link #NO_SEQ}: none). */
    private record Entry(JsonObject frame, long seq) {
        JsonObject relayed() {
            return seq == NO_SEQ ? frame : Jsons.PROVIDER.createObjectBuilder(frame).add("seq", seq).build();
        }
    }

    private final int limit;
    private final ConcurrentLinkedDeque<Entry> entries = new ConcurrentLinkedDeque<>();
    private final AtomicInteger size = new AtomicInteger();

    /** History keeping the last {@code limit} chats. */
    public ChatHistory(int limit) {
        this.limit = Math.max(0, limit);
    }

    /** Appends a relayed chat exactly as given, trimming the oldest beyond the limit. */
    public void add(JsonObject frame) {
        append(new Entry(frame, NO_SEQ));
    }

    /** Appends a journalled chat ({@code chat} without a {@code seq} field) that was relayed with {@code seq}. */
    public void add(JsonObject chat, long seq) {
        append(new Entry(chat, seq));
    }

    private void append(Entry entry) {
        if (limit == 0) {
            return;
        }
        entries.addLast(entry);
        if (size.incrementAndGet() > limit) {
            if (entries.pollFirst() != null) {
                size.decrementAndGet();
            }
        }
    }

    public int size() {
        return size.get();
    }

    /**
     * Matching entries as relayed (with their {@code seq}), oldest first. The filter sees each chat
     * as journalled, without {@code seq} (no query filters on it), so only selected entries are copied.
     */
    public List<JsonObject> select(Predicate<JsonObject> filter) {
        List<JsonObject> out = new ArrayList<>();
        for (Entry entry : entries) {
            if (filter.test(entry.frame())) {
                out.add(entry.relayed());
            }
        }
        return out;
    }
}
