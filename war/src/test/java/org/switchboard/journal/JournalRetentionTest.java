package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The retention cut: age and row limits, never past what a reader of the journal still needs. */
class JournalRetentionTest {

    private static final JournalRetention.Extent EXTENT = new JournalRetention.Extent(1, 10_000, 4_001);
    private static final List<JournalRetention.Floor> SNAPSHOT_AT_9000 = List.of(JournalRetention.snapshotFloor(9_000));

    @Test
    void withoutLimitsNothingIsDeleted() {
        JournalRetention.Cut cut = JournalRetention.cut(new JournalRetention.Settings(0, 0), EXTENT, SNAPSHOT_AT_9000);
        assertFalse(cut.deletes(EXTENT));
        assertEquals("off", cut.limitedBy());
    }

    @Test
    void theAgeLimitCutsAtTheFirstEventYoungEnough() {
        JournalRetention.Cut cut = JournalRetention.cut(new JournalRetention.Settings(3600, 0), EXTENT, SNAPSHOT_AT_9000);
        assertEquals(4_001, cut.deleteBelow());
        assertEquals("age", cut.limitedBy());
    }

    @Test
    void theRowLimitKeepsTheNewestRowsAndTheFurtherLimitWins() {
        JournalRetention.Cut rows = JournalRetention.cut(new JournalRetention.Settings(0, 2_000), EXTENT, SNAPSHOT_AT_9000);
        assertEquals(8_001, rows.deleteBelow(), "10,000 - 2,000 + 1");
        JournalRetention.Cut both = JournalRetention.cut(new JournalRetention.Settings(3600, 2_000), EXTENT, SNAPSHOT_AT_9000);
        assertEquals(8_001, both.deleteBelow());
        assertEquals("rows", both.limitedBy());
    }

    @Test
    void withoutASnapshotTheReplayNeedsEveryEvent() {
        JournalRetention.Cut cut = JournalRetention.cut(new JournalRetention.Settings(60, 10),
                EXTENT, List.of(JournalRetention.snapshotFloor(0)));
        assertFalse(cut.deletes(EXTENT));
        assertEquals("snapshot", cut.limitedBy());
    }

    @Test
    void theLowestFloorStopsTheCutAndIsNamed() {
        List<JournalRetention.Floor> floors = List.of(JournalRetention.snapshotFloor(9_500),
                new JournalRetention.Floor("mailbox", 7_200), new JournalRetention.Floor("receipts", 7_900),
                new JournalRetention.Floor("idempotency", Long.MAX_VALUE));
        JournalRetention.Cut cut = JournalRetention.cut(new JournalRetention.Settings(0, 100), EXTENT, floors);
        assertEquals(7_200, cut.deleteBelow(), "the unacked directed chat at 7,200 stays");
        assertEquals("mailbox", cut.limitedBy());
        assertTrue(cut.deletes(EXTENT));
    }

    @Test
    void theNewestEventIsNeverDeleted() {
        JournalRetention.Cut cut = JournalRetention.cut(new JournalRetention.Settings(1, 0),
                new JournalRetention.Extent(1, 10_000, 10_001), List.of(JournalRetention.snapshotFloor(10_000)));
        assertEquals(10_000, cut.deleteBelow());
        assertEquals("newest event", cut.limitedBy());
    }

    @Test
    void aCutNeverGoesBelowTheFirstSeqHeld() {
        JournalRetention.Cut cut = JournalRetention.cut(new JournalRetention.Settings(0, 5),
                new JournalRetention.Extent(500, 1_000, 500), List.of(new JournalRetention.Floor("mailbox", 20)));
        assertEquals(500, cut.deleteBelow());
        assertFalse(cut.deletes(new JournalRetention.Extent(500, 1_000, 500)));
    }
}
