package org.switchboard.synapse.chat;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.switchboard.journal.PayloadCodec;
import org.switchboard.json.Jsons;

/**
 * Bounded in-memory public chat history (§7.13), oldest first; lock-free append. A chat is kept as
 * its compact JSON text (plus the seq it was relayed with), never as a parsed object: ten thousand
 * parsed chats were the bulk of what every young collection had to copy under load (about 1.5 KB
 * each against a few hundred bytes of text), and history is read rarely, so a query parses
 * what it scans instead. Entries get their {@code seq} field only when a query selects them.
 */
public final class ChatHistory {

    private static final long NO_SEQ = Long.MIN_VALUE;

    /** A retained chat: its JSON text as stored, and the seq to add when it is read. */
    private record Entry(String json, long seq) {
        JsonObject frame() {
            return PayloadCodec.decode(json);
        }

        JsonObject relayed(JsonObject frame) {
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

    /** Appends a journalled chat ({@code chat} without a {@code seq} field) that was relayed with {@code seq}. */
    public void add(JsonObject chat, long seq) {
        append(new Entry(chat.toString(), seq));
    }

    /**
     * Appends a chat given as its compact JSON text (as {@code JsonObject.toString()} writes it) with
     * the seq it was relayed with ({@code null}: relayed without one, returned as given).
     */
    public void add(String chatJson, Long seq) {
        append(new Entry(chatJson, seq == null ? NO_SEQ : seq));
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
     * The text {@code "name":"value"} has in every stored chat whose member {@code name} is the string
     * {@code value}, or null when {@code value} has characters JSON text may escape (then only parsing can tell).
     * Stored texts are compact JSON as {@code JsonObject.toString()} writes it, which writes printable
     * ASCII other than quote and backslash as itself.
     */
    public static String memberText(String name, String value) {
        for (String part : new String[] {name, value}) {
            for (int i = 0; i < part.length(); i++) {
                char c = part.charAt(i);
                if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                    return null;
                }
            }
        }
        return "\"" + name + "\":\"" + value + "\"";
    }

    /**
     * Matching entries as relayed (with their {@code seq}), oldest first. The filter sees each chat
     * as journalled, without {@code seq} (no query filters on it), so only selected entries are copied.
     */
    public List<JsonObject> select(Predicate<JsonObject> filter) {
        return select(filter, Integer.MAX_VALUE);
    }

    /** The newest {@code max} matching entries, oldest first; scanning stops once it has them. */
    public List<JsonObject> select(Predicate<JsonObject> filter, int max) {
        return select(null, filter, max);
    }

    /**
     * As {@link #select(Predicate, int)}, but an entry whose stored text does not contain
     * {@code mustContain} (null: no such condition) is skipped without being parsed. A query for one
     * target or {@code client_msg_id} thus costs a substring search per entry instead of a parse.
     */
    public List<JsonObject> select(String mustContain, Predicate<JsonObject> filter, int max) {
        List<JsonObject> out = new ArrayList<>();
        Iterator<Entry> newestFirst = entries.descendingIterator();
        while (out.size() < max && newestFirst.hasNext()) {
            Entry entry = newestFirst.next();
            if (mustContain != null && !entry.json().contains(mustContain)) {
                continue;
            }
            JsonObject frame = entry.frame();
            if (filter.test(frame)) {
                out.add(entry.relayed(frame));
            }
        }
        Collections.reverse(out);
        return out;
    }
}
