package org.switchboard.synapse.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;
import org.switchboard.synapse.chat.ChatHistory;

/**
 * Paging of retained chats into one bounded reply: the newest entries that fit (history, channel
 * history; cursor = the oldest msg_id returned, to ask for what is before it) or the oldest after a
 * msg_id (resume; cursor = the newest msg_id returned, the next {@code since}). An entry that could
 * not fit even alone is skipped (the cursor moves past it), so paging always makes progress.
 */
public final class HistoryPages {

    /** No {@code before_msg_id}: from the newest entry on. */
    public static final long NEWEST = Long.MAX_VALUE;

    private HistoryPages() {
    }

    /**
     * One page, oldest first. {@code truncated}: the byte budget left out matching entries (then
     * {@code cursor} is where the next page starts); {@code cursor} is {@link ChatHistory#NO_MSG_ID} when
     * nothing was returned or skipped.
     */
    public record Page(List<ChatHistory.Entry> entries, boolean truncated, long cursor) {

        /** The relayed texts of the entries, oldest first. */
        public List<String> texts() {
            List<String> texts = new ArrayList<>(entries.size());
            entries.forEach(e -> texts.add(e.relayedText()));
            return texts;
        }

        /**
         * The encoded marker members: {@code "truncated":true} and {@code "<cursorName>":<cursor>} when
         * the budget cut the page, else "" (an uncut reply keeps exactly its usual members).
         */
        public String markers(String cursorName) {
            if (!truncated) {
                return "";
            }
            String markers = "\"truncated\":true";
            return cursor == ChatHistory.NO_MSG_ID ? markers : markers + ",\"" + cursorName + "\":" + cursor;
        }
    }

    /**
     * The newest at most {@code max} entries passing {@code filter} with a msg_id below {@code before}
     * ({@link #NEWEST}: no bound) that fit {@code budget}.
     */
    public static Page newest(Iterator<ChatHistory.Entry> newestFirst, Predicate<ChatHistory.Entry> filter, long max,
                              long before, ReplyBudget budget) {
        List<ChatHistory.Entry> page = new ArrayList<>();
        boolean truncated = false;
        long cursor = ChatHistory.NO_MSG_ID;
        while (page.size() < max && newestFirst.hasNext()) {
            ChatHistory.Entry entry = newestFirst.next();
            if (before != NEWEST && (entry.msgId() == ChatHistory.NO_MSG_ID || entry.msgId() >= before)) {
                continue;
            }
            if (!filter.test(entry)) {
                continue;
            }
            if (budget.tryAdd(entry.bytes())) {
                page.add(entry);
                cursor = entry.msgId();
                continue;
            }
            truncated = true;
            if (!page.isEmpty() || budget.fitsAlone(entry.bytes())) {
                break;
            }
            cursor = entry.msgId(); // never fits: skipped, and the cursor moves past it
        }
        Collections.reverse(page);
        return new Page(page, truncated, cursor);
    }

    /** The oldest entries passing {@code filter} with a msg_id above {@code since} that fit {@code budget}. */
    public static Page after(Iterator<ChatHistory.Entry> oldestFirst, Predicate<ChatHistory.Entry> filter, long since,
                             ReplyBudget budget) {
        List<ChatHistory.Entry> page = new ArrayList<>();
        boolean truncated = false;
        long cursor = ChatHistory.NO_MSG_ID;
        while (oldestFirst.hasNext()) {
            ChatHistory.Entry entry = oldestFirst.next();
            if (entry.msgId() == ChatHistory.NO_MSG_ID || entry.msgId() <= since || !filter.test(entry)) {
                continue;
            }
            if (budget.tryAdd(entry.bytes())) {
                page.add(entry);
                cursor = entry.msgId();
                continue;
            }
            truncated = true;
            if (!page.isEmpty() || budget.fitsAlone(entry.bytes())) {
                break;
            }
            cursor = entry.msgId();
        }
        return new Page(page, truncated, cursor);
    }
}
