package org.switchboard.synapse.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.chat.ChatHistory;
import org.switchboard.synapse.chat.HistoryPages;
import org.switchboard.synapse.chat.ReplyBudget;

/** The budget and paging rules of bounded history, resume and channel history replies. */
class HistoryPagesTest {

    private static final JsonObject ENVELOPE = Json.createObjectBuilder().add("type", "history_snapshot")
            .add("requested_limit", "all").build();

    /** A history of {@code n} chats with msg_id 1..n whose payloads are {@code chars} long. */
    private static ChatHistory history(int n, int chars) {
        ChatHistory history = new ChatHistory(1000);
        for (int i = 1; i <= n; i++) {
            history.add("{\"type\":\"chat\",\"msg_id\":" + i + ",\"payload\":\"" + "x".repeat(chars) + "\"}", (long) (100 + i), i);
        }
        return history;
    }

    private static List<Long> ids(HistoryPages.Page page) {
        return page.entries().stream().map(ChatHistory.Entry::msgId).toList();
    }

    @Test
    void aBudgetChargesTheEnvelopeTheMarkerReserveAndOneCommaBetweenEntries() {
        ReplyBudget budget = new ReplyBudget(1000, 100);
        long capacity = 1000 - 100 - ReplyBudget.MARKER_RESERVE;
        assertTrue(budget.fitsAlone(capacity));
        assertFalse(budget.fitsAlone(capacity + 1));
        assertTrue(budget.tryAdd(capacity / 2));
        assertFalse(budget.tryAdd(capacity - capacity / 2), "the comma does not fit");
        assertTrue(budget.tryAdd(capacity - capacity / 2 - 1));
        assertEquals(capacity, budget.used());
        assertFalse(budget.tryAdd(0));
    }

    @Test
    void historyGetsTheNewestThatFitOldestFirstAndTheCursorIsTheOldestReturned() {
        ChatHistory history = history(10, 1000);
        long entry = history.newestFirst().next().bytes();
        ReplyBudget budget = new ReplyBudget(3 * entry + 2 + ReplyBudget.MARKER_RESERVE + 50, 50);
        HistoryPages.Page page = HistoryPages.newest(history.newestFirst(), e -> true, Long.MAX_VALUE, HistoryPages.NEWEST, budget);
        assertEquals(List.of(8L, 9L, 10L), ids(page));
        assertTrue(page.truncated());
        assertEquals(8, page.cursor());
        assertEquals("\"truncated\":true,\"next_before_msg_id\":8", page.markers("next_before_msg_id"));

        HistoryPages.Page older = HistoryPages.newest(history.newestFirst(), e -> true, Long.MAX_VALUE, page.cursor(),
                new ReplyBudget(3 * entry + 2 + ReplyBudget.MARKER_RESERVE + 50, 50));
        assertEquals(List.of(5L, 6L, 7L), ids(older));

        HistoryPages.Page last = HistoryPages.newest(history.newestFirst(), e -> true, Long.MAX_VALUE, 3,
                new ReplyBudget(3 * entry + 2 + ReplyBudget.MARKER_RESERVE + 50, 50));
        assertEquals(List.of(1L, 2L), ids(last));
        assertFalse(last.truncated(), "everything before the cursor fitted");
        assertEquals("", last.markers("next_before_msg_id"));
    }

    @Test
    void aLimitBelowTheBudgetIsNotATruncation() {
        HistoryPages.Page page = HistoryPages.newest(history(10, 10).newestFirst(), e -> true, 4, HistoryPages.NEWEST,
                new ReplyBudget(1 << 20, 50));
        assertEquals(List.of(7L, 8L, 9L, 10L), ids(page));
        assertFalse(page.truncated());
    }

    @Test
    void resumeGetsTheOldestAfterTheCursorThatFitAndTheCursorIsTheNewestReturned() {
        ChatHistory history = history(10, 1000);
        long entry = history.newestFirst().next().bytes();
        HistoryPages.Page page = HistoryPages.after(history.oldestFirst(), e -> true, 2,
                new ReplyBudget(4 * entry + 3 + ReplyBudget.MARKER_RESERVE + 50, 50));
        assertEquals(List.of(3L, 4L, 5L, 6L), ids(page));
        assertTrue(page.truncated());
        assertEquals("\"truncated\":true,\"next_since\":6", page.markers("next_since"));
        HistoryPages.Page rest = HistoryPages.after(history.oldestFirst(), e -> true, page.cursor(),
                new ReplyBudget(4 * entry + 3 + ReplyBudget.MARKER_RESERVE + 50, 50));
        assertEquals(List.of(7L, 8L, 9L, 10L), ids(rest));
        assertFalse(rest.truncated());
    }

    @Test
    void anEntryThatCouldNeverFitIsSkippedAndTheCursorMovesPastIt() {
        ChatHistory history = new ChatHistory(100);
        history.add("{\"msg_id\":1,\"payload\":\"small\"}", null, 1);
        history.add("{\"msg_id\":2,\"payload\":\"" + "y".repeat(5000) + "\"}", null, 2);
        history.add("{\"msg_id\":3,\"payload\":\"small\"}", null, 3);
        HistoryPages.Page after = HistoryPages.after(history.oldestFirst(), e -> true, 1, new ReplyBudget(2000, 50));
        assertEquals(List.of(3L), ids(after), "the giant is skipped, the next one returned");
        assertTrue(after.truncated());
        HistoryPages.Page onlyGiant = HistoryPages.after(history.oldestFirst(), e -> e.msgId() == 2, 1, new ReplyBudget(2000, 50));
        assertEquals(List.of(), ids(onlyGiant));
        assertEquals(2, onlyGiant.cursor(), "the next since is past the giant");
        HistoryPages.Page newest = HistoryPages.newest(history.newestFirst(), e -> true, 10, HistoryPages.NEWEST,
                new ReplyBudget(2000, 50));
        assertEquals(List.of(3L), ids(newest), "newest first stops at the first entry that does not fit after one that did");
    }

    @Test
    void aSplicedReplyIsOneJsonObjectWithinTheBudget() {
        ChatHistory history = history(50, 2000);
        long max = 20_000;
        ReplyBudget budget = ReplyBudget.forEnvelope(max, ENVELOPE, "history");
        HistoryPages.Page page = HistoryPages.newest(history.newestFirst(), e -> true, Long.MAX_VALUE, HistoryPages.NEWEST, budget);
        String text = ReplyBudget.splice(ENVELOPE, page.markers("next_before_msg_id"), "history", page.texts());
        assertTrue(text.getBytes(StandardCharsets.UTF_8).length <= max, text.length() + " > " + max);
        JsonObject reply = Json.createReader(new StringReader(text)).readObject();
        assertEquals("all", reply.getString("requested_limit"));
        assertTrue(reply.getBoolean("truncated"));
        assertEquals(page.entries().size(), reply.getJsonArray("history").size());
        JsonObject first = reply.getJsonArray("history").getJsonObject(0);
        assertEquals(reply.getJsonNumber("next_before_msg_id").longValue(), first.getJsonNumber("msg_id").longValue());
        assertEquals(100 + first.getJsonNumber("msg_id").longValue(), first.getJsonNumber("seq").longValue(), "seq added");

        String empty = ReplyBudget.splice(Json.createObjectBuilder().build(), "", "messages", List.of());
        assertEquals(Json.createObjectBuilder().add("messages", Json.createArrayBuilder()).build(),
                Json.createReader(new StringReader(empty)).readObject());
    }
}
