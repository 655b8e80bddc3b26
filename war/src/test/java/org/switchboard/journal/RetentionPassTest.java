package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import jakarta.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The retention pass: which chats it deletes, and what it never touches. */
class RetentionPassTest {

    /** A journal of seq → event that can delete, as the database journal does. */
    private static final class Rows implements Journal {
        final NavigableMap<Long, JournalEvent> events = new TreeMap<>();

        void add(long seq, String kind, double appendedAt) {
            events.put(seq, new JournalEvent(seq, kind, Json.createObjectBuilder().build(), appendedAt));
        }

        long count(String kind) {
            return events.values().stream().filter(e -> e.kind().equals(kind)).count();
        }

        @Override
        public CompletableFuture<long[]> append(List<JournalEvent.Draft> events, List<OutboxRow> outbox) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Void> flushed() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public List<JournalEvent> read(long afterSeq, int limit, Set<String> kinds) {
            List<JournalEvent> out = new ArrayList<>();
            for (JournalEvent e : events.tailMap(afterSeq, false).values()) {
                if (kinds.isEmpty() || kinds.contains(e.kind())) {
                    out.add(e);
                    if (out.size() >= limit) {
                        break;
                    }
                }
            }
            return out;
        }

        @Override
        public JournalEvent at(long seq) {
            return events.get(seq);
        }

        @Override
        public long lastSeq() {
            return events.isEmpty() ? 0 : events.lastKey();
        }

        @Override
        public void replay(Consumer<JournalEvent> sink) {
            events.values().forEach(sink);
        }

        @Override
        public long deleteBelow(long fromSeq, long belowSeq, Set<String> kinds, long[] keep) {
            long before = events.size();
            Set<Long> kept = java.util.Arrays.stream(keep).boxed().collect(java.util.stream.Collectors.toSet());
            events.subMap(fromSeq, true, belowSeq, false).values()
                    .removeIf(e -> kinds.contains(e.kind()) && !kept.contains(e.seq()));
            return before - events.size();
        }

        @Override
        public List<Long> corruptSeqs() {
            return List.of();
        }

        @Override
        public List<OutboxRow> pendingOutbox(String sender) {
            return List.of();
        }

        @Override
        public void markDelivered(List<String> notificationIds) {
        }

        @Override
        public long pendingOutboxCount() {
            return 0;
        }

        @Override
        public String hubId() {
            return "syn-test";
        }
    }

    /** Seqs 1..100 appended one a second from t=1001: even seqs chat, odd seqs claims. */
    private static Rows journal() {
        Rows rows = new Rows();
        for (long seq = 1; seq <= 100; seq++) {
            rows.add(seq, seq % 2 == 0 ? "chat" : "claim_acquired", 1000 + seq);
        }
        return rows;
    }

    private static RetentionPass pass(long maxAge, long maxRows, long... kept) {
        return new RetentionPass(new JournalRetention.Settings(maxAge, maxRows), Set.of("chat"),
                cut -> java.util.Arrays.stream(kept).filter(seq -> seq < cut).toArray(), () -> 1100.0);
    }

    private static List<Long> chats(Rows rows) {
        return rows.read(0, 1000, Set.of("chat")).stream().map(JournalEvent::seq).toList();
    }

    @Test
    void theAgeLimitDeletesOldChatsOnlyAndKeepsEveryOtherKind() {
        Rows rows = journal();
        RetentionPass.Result result = pass(30, 0).run(rows);
        // t=1100 - 30 s: the first event young enough is seq 70 (appended at 1070)
        assertEquals(70, result.cut().deleteBelow());
        assertEquals(34, result.deleted(), "chats 2..68");
        assertEquals(16, rows.count("chat"));
        assertEquals(50, rows.count("claim_acquired"), "claims are never deleted");
        assertEquals(70, rows.events.higherEntry(68L).getValue().seq() + 1, "chat 70 stays");
    }

    @Test
    void keptChatsStayAndDoNotHoldBackTheOthers() {
        Rows rows = journal();
        RetentionPass.Result result = pass(30, 0, 20, 40).run(rows);
        assertEquals(70, result.cut().deleteBelow());
        assertEquals(32, result.deleted(), "chats 2..68 but 20 and 40");
        assertEquals(List.of(20L, 40L, 70L), chats(rows).subList(0, 3));
    }

    @Test
    void theNewestChatIsKeptEvenWhenTheRowLimitPassesIt() {
        Rows rows = journal();
        rows.events.tailMap(51L, true).values().removeIf(e -> e.kind().equals("chat")); // the newest chat is seq 50
        RetentionPass.Result result = pass(0, 10).run(rows);
        assertEquals(90, result.cut().deleteBelow(), "newest event 99 (a claim), 10 rows kept");
        assertEquals(List.of(50L), chats(rows), "the newest chat stays below the cut");
    }

    @Test
    void aLaterRunDeletesWhatBecameEligibleIncludingChatsNoLongerKept() {
        Rows rows = journal();
        long[] kept = {10};
        RetentionPass pass = new RetentionPass(new JournalRetention.Settings(0, 60), Set.of("chat"),
                cut -> java.util.Arrays.stream(kept).filter(seq -> seq < cut).toArray(), () -> 1100.0);
        assertEquals(19, pass.run(rows).deleted(), "below 41: chats 2..40 but 10");
        kept[0] = Long.MAX_VALUE; // the mailbox no longer owes chat 10
        for (long seq = 101; seq <= 120; seq++) {
            rows.add(seq, seq % 2 == 0 ? "chat" : "claim_acquired", 1000 + seq);
        }
        RetentionPass.Result second = pass.run(rows);
        assertEquals(61, second.cut().deleteBelow());
        assertEquals(11, second.deleted(), "chat 10, then chats 42..60");
        assertEquals(30, pass.deletedTotal());
        assertEquals(61, pass.deletedBelow());
        assertEquals(62L, chats(rows).get(0));
    }

    @Test
    void withoutLimitsOrEventsThePassDoesNothing() {
        assertNull(pass(0, 0).run(journal()));
        assertNull(pass(30, 0).run(new Rows()));
    }

    @Test
    void theAgeSearchSkipsGapsLeftByEarlierDeletions() {
        Rows rows = journal();
        rows.events.subMap(10L, 80L).clear(); // a gap: 1..9 (old), then 80..100
        assertEquals(10, RetentionPass.firstAppendedAtOrAfter(rows, 1050, 1, 100), "any cut from 10 to 80 deletes the same events (none lie between): the lowest");
        assertEquals(5, RetentionPass.firstAppendedAtOrAfter(rows, 1005, 1, 100));
        assertEquals(95, RetentionPass.firstAppendedAtOrAfter(rows, 1094.5, 1, 100));
        assertEquals(101, RetentionPass.firstAppendedAtOrAfter(rows, 2000, 1, 100), "none young enough");
        assertEquals(1, RetentionPass.firstAppendedAtOrAfter(rows, 0, 1, 100));
    }
}
