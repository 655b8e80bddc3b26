package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The shared start-up scan: one pass, each reader its own kinds in seq order, late readers told to read themselves. */
class ReplayFanoutTest {

    private final List<JournalEvent> log = List.of(event(1, "chat"), event(2, "claim"), event(3, "mailbox_watermark"),
            event(4, "claim"), event(5, "message_forward_queued"), event(6, "chat"));
    private int scans;

    private static JournalEvent event(long seq, String kind) {
        return new JournalEvent(seq, kind, Json.createObjectBuilder().add("n", seq).build(), 1000 + seq);
    }

    private void scan(Consumer<JournalEvent> sink) {
        scans++;
        log.forEach(sink);
    }

    @Test
    void oneScanFeedsEveryReaderOnlyItsKindsInSeqOrder() {
        ReplayFanout fanout = new ReplayFanout();
        List<Long> all = new ArrayList<>();
        List<Long> claims = new ArrayList<>();
        List<Long> forwards = new ArrayList<>();
        assertTrue(fanout.join(Set.of(), e -> all.add(e.seq())));
        assertTrue(fanout.join(Set.of("claim"), e -> claims.add(e.seq())));
        assertTrue(fanout.join(Set.of("message_forward_queued", "message_forward_settled"), e -> forwards.add(e.seq())));
        fanout.run(this::scan);
        assertEquals(1, scans, "the journal is read once");
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), all);
        assertEquals(List.of(2L, 4L), claims);
        assertEquals(List.of(5L), forwards);
        assertEquals(6, fanout.events());
    }

    @Test
    void aReaderAfterTheScanIsRefusedAndASecondRunReadsNothing() {
        ReplayFanout fanout = new ReplayFanout();
        List<Long> early = new ArrayList<>();
        fanout.join(Set.of("chat"), e -> early.add(e.seq()));
        fanout.run(this::scan);
        List<Long> late = new ArrayList<>();
        assertFalse(fanout.join(Set.of("chat"), e -> late.add(e.seq())), "too late: read the journal yourself");
        fanout.run(this::scan);
        assertEquals(1, scans);
        assertEquals(List.of(1L, 6L), early);
        assertTrue(late.isEmpty());
    }

    @Test
    void afterScanActionsRunOnceEveryReaderHasItsEvents() {
        ReplayFanout fanout = new ReplayFanout();
        List<Long> claims = new ArrayList<>();
        List<Integer> seenByAction = new ArrayList<>();
        fanout.join(Set.of("claim"), e -> claims.add(e.seq()));
        assertTrue(fanout.afterScan(() -> seenByAction.add(claims.size())));
        assertTrue(seenByAction.isEmpty(), "nothing runs before the scan");
        fanout.run(this::scan);
        assertEquals(List.of(2), seenByAction, "the action saw both claims");
        assertFalse(fanout.afterScan(() -> seenByAction.add(-1)), "too late to schedule");
        assertEquals(List.of(2), seenByAction);
    }
}
