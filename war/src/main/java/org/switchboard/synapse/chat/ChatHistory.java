package org.switchboard.synapse.chat;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.switchboard.journal.PayloadCodec;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.wire.JsonFields;

/**
 * Bounded in-memory public chat history (§7.13), oldest first; lock-free append. Bounded twice: at most
 * {@code limit} chats ({@code hub.history-limit}) and at most {@code maxBytes} encoded bytes
 * ({@code hub.history-max-bytes}), the oldest leaving first, so a few huge chats cannot fill the heap.
 * A chat is kept as its compact JSON text (plus the seq it was relayed with, its msg_id and its encoded
 * size), never as a parsed object: ten thousand parsed chats were the bulk of what every young
 * collection had to copy under load, and a 1 MiB chat parsed costs its text again. A query that needs
 * to filter parses what it scans; one that does not copies the texts as they are.
 */
public final class ChatHistory {

    private static final long NO_SEQ = Long.MIN_VALUE;
    /** msg_id of an entry whose text has none. */
    public static final long NO_MSG_ID = -1;

    /** A retained chat: its JSON text as stored (without seq), the seq to add when read, its msg_id and relayed size. */
    public static final class Entry {
        private final String json;
        private final long seq;
        private final long msgId;
        private final long bytes;

        Entry(String json, long seq, long msgId) {
            this.json = json;
            this.seq = seq;
            this.msgId = msgId;
            this.bytes = relayedSize(json, seq == NO_SEQ ? null : seq);
        }

        /** The seq the chat was relayed with, as stored (a snapshot writes it back through {@link ChatHistory#restore}). */
        long storedSeq() {
            return seq;
        }

        /** The stored text, without {@code seq}. */
        public String json() {
            return json;
        }

        /** The chat's {@code msg_id}, or {@link #NO_MSG_ID}. */
        public long msgId() {
            return msgId;
        }

        /** UTF-8 length of {@link #relayedText()}. */
        public long bytes() {
            return bytes;
        }

        /** The chat as the journal holds it (without {@code seq}), parsed. */
        public JsonObject frame() {
            return PayloadCodec.decode(json);
        }

        /** The chat's text as relayed: the stored text with its {@code seq} (when it had one) added. */
        public String relayedText() {
            return seq == NO_SEQ ? json : appendRelayed(new StringBuilder(json.length() + 24)).toString();
        }

        /** Appends {@link #relayedText()} to {@code out} without building it first (a reply copies each text once). */
        public StringBuilder appendRelayed(StringBuilder out) {
            if (seq == NO_SEQ) {
                return out.append(json);
            }
            return out.append(json, 0, json.length() - 1).append(",\"seq\":").append(seq).append('}');
        }

        JsonObject relayed(JsonObject frame) {
            return seq == NO_SEQ ? frame : Jsons.PROVIDER.createObjectBuilder(frame).add("seq", seq).build();
        }
    }

    private final int limit;
    private final long maxBytes;
    private final ConcurrentLinkedDeque<Entry> entries = new ConcurrentLinkedDeque<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicLong bytes = new AtomicLong();
    /** Bytes of every history sharing one {@code maxBytes} bound (channels), or null. */
    private final AtomicLong shared;

    /** History keeping the last {@code limit} chats, without a byte bound. */
    public ChatHistory(int limit) {
        this(limit, Long.MAX_VALUE);
    }

    /** History keeping the last {@code limit} chats and at most {@code maxBytes} of their encoded text. */
    public ChatHistory(int limit, long maxBytes) {
        this(limit, maxBytes, null);
    }

    /**
     * History whose bytes also count towards {@code shared}, a total kept within {@code maxBytes} by
     * the histories sharing it: an append that takes the total over evicts from its own history.
     */
    ChatHistory(int limit, long maxBytes, AtomicLong shared) {
        this.limit = Math.max(0, limit);
        this.maxBytes = Math.max(0, maxBytes);
        this.shared = shared;
    }

    /** Appends a journalled chat ({@code chat} without a {@code seq} field) that was relayed with {@code seq}. */
    public void add(JsonObject chat, long seq) {
        Long msgId = JsonFields.integer(chat, "msg_id");
        append(new Entry(chat.toString(), seq, msgId == null ? NO_MSG_ID : msgId));
    }

    /**
     * Appends a chat given as its compact JSON text (as {@code JsonObject.toString()} writes it) with
     * the seq it was relayed with ({@code null}: relayed without one, returned as given) and its msg_id.
     */
    public void add(String chatJson, Long seq, long msgId) {
        append(new Entry(chatJson, seq == null ? NO_SEQ : seq, msgId));
    }

    /** As {@link #add(String, Long, long)}, reading the msg_id from the text (a parse: callers that know it pass it). */
    public void add(String chatJson, Long seq) {
        Long msgId = JsonFields.integer(PayloadCodec.decode(chatJson), "msg_id");
        add(chatJson, seq, msgId == null ? NO_MSG_ID : msgId);
    }

    /** Re-appends an entry a snapshot wrote ({@code seq} as {@link Entry#storedSeq()} gave it), the bounds applying as on append. */
    void restore(String json, long seq, long msgId) {
        append(new Entry(json, seq, msgId));
    }

    private void append(Entry entry) {
        if (limit == 0 || maxBytes == 0) {
            return;
        }
        entries.addLast(entry);
        size.incrementAndGet();
        bytes.addAndGet(entry.bytes());
        if (shared != null) {
            shared.addAndGet(entry.bytes());
        }
        while (size.get() > limit || bytes.get() > maxBytes || (shared != null && shared.get() > maxBytes)) {
            Entry oldest = entries.pollFirst();
            if (oldest == null) {
                return;
            }
            size.decrementAndGet();
            bytes.addAndGet(-oldest.bytes());
            if (shared != null) {
                shared.addAndGet(-oldest.bytes());
            }
        }
    }

    public int size() {
        return size.get();
    }

    /** Encoded bytes of the retained chats (as relayed). */
    public long bytes() {
        return bytes.get();
    }

    /** The retained chats, newest first (weakly consistent with concurrent appends). */
    public Iterator<Entry> newestFirst() {
        return entries.descendingIterator();
    }

    /** The retained chats, oldest first (weakly consistent with concurrent appends). */
    public Iterator<Entry> oldestFirst() {
        return entries.iterator();
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

    /** UTF-8 length of {@code json} as relayed: with {@code ,"seq":<seq>} added when {@code seq} is not null. */
    static long relayedSize(String json, Long seq) {
        return utf8Length(json) + (seq == null ? 0 : 7 + Long.toString(seq).length());
    }

    /** UTF-8 length of {@code text} without encoding it (an unpaired surrogate counts as the 3 bytes of U+FFFD). */
    public static long utf8Length(CharSequence text) {
        long n = text.length();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                if (c < 0x800) {
                    n += 1;
                } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
                        && Character.isLowSurrogate(text.charAt(i + 1))) {
                    n += 2; // the pair: 4 bytes for 2 chars
                    i++;
                } else {
                    n += 2;
                }
            }
        }
        return n;
    }
}
