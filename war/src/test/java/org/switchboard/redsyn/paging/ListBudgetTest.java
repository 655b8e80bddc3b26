package org.switchboard.redsyn.paging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.RedsynException;

class ListBudgetTest {

    private static JsonObject entry(int n, int textBytes) {
        return Json.createObjectBuilder().add("n", n).add("text", "x".repeat(textBytes)).build();
    }

    private static int size(JsonValue v) {
        return v.toString().getBytes(StandardCharsets.UTF_8).length;
    }

    @Test
    void takesEntriesUntilTheNextWouldCrossTheBytes() {
        List<JsonObject> rows = IntStream.range(0, 10).mapToObj(i -> entry(i, 1000)).toList();
        int one = size(rows.get(0));
        // room for exactly three entries and their two commas
        ListBudget budget = new ListBudget(ListBudget.RESERVE + 3L * one + 2, 100);
        ListBudget.Page page = budget.fill(rows, false, r -> r, r -> r.getInt("n") + 1L);
        assertEquals(3, page.entries().size());
        assertEquals("3", page.nextCursor());
        assertTrue(page.truncated());
        long bytes = page.entries().stream().mapToLong(ListBudgetTest::size).sum() + page.entries().size() - 1;
        assertTrue(bytes <= 3L * one + 2, "within the budget: " + bytes);
    }

    @Test
    void capsEntriesToo() {
        List<JsonObject> rows = IntStream.range(0, 10).mapToObj(i -> entry(i, 10)).toList();
        ListBudget.Page page = new ListBudget(1 << 20, 4).fill(rows, false, r -> r, r -> r.getInt("n") + 1L);
        assertEquals(4, page.entries().size());
        assertEquals("4", page.nextCursor());
    }

    @Test
    void allThatFitsEndsWithoutACursorUnlessTheSourceHasMore() {
        List<JsonObject> rows = IntStream.range(0, 5).mapToObj(i -> entry(i, 10)).toList();
        ListBudget.Page end = new ListBudget(1 << 20, 100).fill(rows, false, r -> r, r -> r.getInt("n") + 1L);
        assertNull(end.nextCursor());
        assertFalse(end.truncated());
        ListBudget.Page more = new ListBudget(1 << 20, 100).fill(rows, true, r -> r, r -> 70L + r.getInt("n"));
        assertEquals("74", more.nextCursor());
    }

    @Test
    void hiddenRowsAreConsumedButNotShown() {
        List<JsonObject> rows = IntStream.range(0, 6).mapToObj(i -> entry(i, 10)).toList();
        ListBudget.Page page = new ListBudget(1 << 20, 2).fill(rows, false, r -> r.getInt("n") % 2 == 0 ? null : r, r -> r.getInt("n") + 1L);
        assertEquals(List.of(1, 3), page.entries().stream().map(v -> v.asJsonObject().getInt("n")).toList());
        // entry 5 did not fit: resume after row 4
        assertEquals("5", page.nextCursor());
    }

    @Test
    void aFirstEntryLargerThanTheBudgetIsSentAloneSoTheCursorAdvances() {
        List<JsonObject> rows = List.of(entry(0, 50_000), entry(1, 10));
        ListBudget.Page page = new ListBudget(ListBudget.RESERVE + 100, 100).fill(rows, false, r -> r, r -> r.getInt("n") + 1L);
        assertEquals(1, page.entries().size());
        assertEquals("1", page.nextCursor());
    }

    @Test
    void followingOffsetCursorsReturnsEveryEntryOnce() {
        List<JsonObject> rows = IntStream.range(0, 37).mapToObj(i -> entry(i, 200 + i * 13)).toList();
        List<Integer> seen = new ArrayList<>();
        long cursor = 0;
        int pages = 0;
        while (true) {
            ListBudget.Page page = new ListBudget(ListBudget.RESERVE + 2000, 100).fillFromOffset(rows, cursor, r -> r);
            page.entries().forEach(v -> seen.add(v.asJsonObject().getInt("n")));
            pages++;
            if (!page.truncated()) {
                break;
            }
            cursor = ListBudget.cursor(page.nextCursor());
        }
        assertEquals(IntStream.range(0, 37).boxed().toList(), seen);
        assertTrue(pages > 5, "several pages: " + pages);
    }

    @Test
    void countsUtf8Bytes() {
        String s = "aé€😀";
        assertEquals(s.getBytes(StandardCharsets.UTF_8).length, ListBudget.utf8Length(s));
    }

    @Test
    void cursorsAreDecimalNumbers() {
        assertEquals(0, ListBudget.cursor(null));
        assertEquals(0, ListBudget.cursor(""));
        assertEquals(42, ListBudget.cursor("42"));
        assertEquals(400, assertThrows(RedsynException.class, () -> ListBudget.cursor("-1")).status());
        assertEquals(400, assertThrows(RedsynException.class, () -> ListBudget.cursor("abc")).status());
        assertEquals(400, assertThrows(RedsynException.class, () -> ListBudget.cursor("9".repeat(19))).status());
    }
}
