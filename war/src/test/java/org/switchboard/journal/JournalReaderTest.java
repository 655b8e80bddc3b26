package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class JournalReaderTest {

    /** The log as the SQL query sees it: rows above a seq, ascending, optionally of some kinds, limited. */
    private final TreeMap<Long, JournalReader.StoredEvent> rows = new TreeMap<>();
    private final List<Integer> pageSizesAsked = new ArrayList<>();
    private final Map<Long, String> recorded = new LinkedHashMap<>();
    private final JournalReader reader = new JournalReader(this::page, recorded::putAll, 10);

    private List<JournalReader.StoredEvent> page(long afterSeq, int limit, Set<String> kinds) {
        pageSizesAsked.add(limit);
        return rows.tailMap(afterSeq, false).values().stream()
                .filter(r -> kinds.isEmpty() || kinds.contains(r.kind())).limit(limit).toList();
    }

    private void store(long seq, String kind, String payload) {
        rows.put(seq, new JournalReader.StoredEvent(seq, kind, payload, 1000.0 + seq));
    }

    private void storeChats(long from, long to) {
        for (long seq = from; seq <= to; seq++) {
            store(seq, seq % 3 == 0 ? "mailbox_watermark" : "chat", "{\"n\":" + seq + "}");
        }
    }

    @Test
    void replayStreamsEverythingInSeqOrderOnePageAtATime() {
        storeChats(1, 95);
        List<Long> seen = new ArrayList<>();

        reader.replay(e -> seen.add(e.seq()));

        assertEquals(95, seen.size());
        for (int i = 0; i < seen.size(); i++) {
            assertEquals(i + 1L, seen.get(i));
        }
        assertTrue(pageSizesAsked.stream().allMatch(size -> size == 10), "never more than a page per query");
        assertEquals(10, pageSizesAsked.size(), "9 full pages and the short last one");
    }

    @Test
    void corruptRowsAreSkippedReportedAndRecordedOnce() {
        storeChats(1, 30);
        store(7, "chat", "{\"n\":7, torn");
        store(21, "chat", "[\"not an object\"]");
        List<Long> seen = new ArrayList<>();

        reader.replay(e -> seen.add(e.seq()));
        reader.replay(e -> { });

        assertEquals(28, seen.size());
        assertTrue(!seen.contains(7L) && !seen.contains(21L));
        assertEquals(List.of(7L, 21L), reader.corruptSeqs());
        assertEquals(Set.of(7L, 21L), recorded.keySet(), "markers written once, not on every pass");
        assertTrue(recorded.get(7L).contains("not valid JSON"), recorded.get(7L));
        assertTrue(recorded.get(21L).contains("not a JSON object"), recorded.get(21L));
    }

    @Test
    void readFillsTheLimitPastCorruptRowsAndFiltersKinds() {
        storeChats(1, 40);
        store(2, "chat", "garbage");

        List<JournalEvent> chats = reader.read(0, 15, Set.of("chat"));

        assertEquals(15, chats.size(), "the corrupt row does not shorten the answer");
        assertTrue(chats.stream().allMatch(e -> e.kind().equals("chat")));
        assertEquals(1L, chats.get(0).seq());
        assertEquals(4L, chats.get(1).seq(), "2 is corrupt, 3 is another kind");
        assertEquals(List.of(2L), reader.corruptSeqs());
        assertEquals(1004.0, chats.get(1).appendedAt());
        assertEquals(4, chats.get(1).payload().getInt("n"));
    }

    @Test
    void readStopsAtTheEndOfTheLogAndHonoursAfterSeq() {
        storeChats(1, 12);

        assertEquals(List.of(11L, 12L), reader.read(10, 100, Set.of()).stream().map(JournalEvent::seq).toList());
        assertTrue(reader.read(12, 5, Set.of()).isEmpty());
        assertTrue(reader.read(0, 0, Set.of()).isEmpty());
    }

    @Test
    void decodeOfACorruptRowGivesNullAndQuarantinesIt() {
        JournalReader.StoredEvent bad = new JournalReader.StoredEvent(5, "chat", "", 1.0);
        JournalReader.StoredEvent good = new JournalReader.StoredEvent(6, "chat", "{\"a\":1}", 2.0);

        assertNull(reader.decode(bad));
        assertEquals(1, reader.decode(good).payload().getInt("a"));
        assertEquals(List.of(5L), reader.corruptSeqs());
    }

    @Test
    void markersFromEarlierRunsCountWithoutBeingRecordedAgain() {
        reader.alreadyQuarantined(List.of(3L));
        store(3, "chat", "{broken");

        reader.replay(e -> { });

        assertEquals(List.of(3L), reader.corruptSeqs());
        assertTrue(recorded.isEmpty());
    }
}
