package org.switchboard.synapse.chat;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/** Bounded in-memory public chat history (§7.13), oldest first; lock-free append. */
public final class ChatHistory {

    private final int limit;
    private final ConcurrentLinkedDeque<JsonObject> entries = new ConcurrentLinkedDeque<>();
    private final AtomicInteger size = new AtomicInteger();

    /** History keeping the last {@code limit} chats. */
    public ChatHistory(int limit) {
        this.limit = Math.max(0, limit);
    }

    /** Appends a relayed chat, trimming the oldest beyond the limit. */
    public void add(JsonObject frame) {
        if (limit == 0) {
            return;
        }
        entries.addLast(frame);
        if (size.incrementAndGet() > limit) {
            if (entries.pollFirst() != null) {
                size.decrementAndGet();
            }
        }
    }

    public int size() {
        return size.get();
    }

    /** Matching entries, oldest first. */
    public List<JsonObject> select(Predicate<JsonObject> filter) {
        List<JsonObject> out = new ArrayList<>();
        for (JsonObject frame : entries) {
            if (filter.test(frame)) {
                out.add(frame);
            }
        }
        return out;
    }
}
