package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The journal's commit and compaction keys turned into what the writer and the compaction run use. */
class JournalCommitSettingsTest {

    @Test
    void theDefaultsGiveTheDefaultPolicyWithItsTwoMillisecondFloorAndOneMillisecondPromptFloor() {
        assertEquals(GroupCommitPolicy.DEFAULT.withLingerFloor(2_000_000L).withPromptLingerFloor(1_000_000L),
                JpaJournal.commitPolicy(2000, 64, 1000));
    }

    @Test
    void lingerRowsAndTheFloorReachThePolicy() {
        GroupCommitPolicy policy = JpaJournal.commitPolicy(1000, 16, 300);
        assertEquals(1_000_000L, policy.lingerFloorNanos());
        assertEquals(300_000L, policy.promptLingerFloorNanos());
        assertEquals(16, policy.lingerRows());
        assertEquals(GroupCommitPolicy.DEFAULT.maxRowsPerBatch(), policy.maxRowsPerBatch());
    }

    @Test
    void valuesOutOfRangeAreRefusedNamingTheirKey() {
        assertTrue(assertThrows(IllegalStateException.class, () -> JpaJournal.commitPolicy(100_001, 64, 1000))
                .getMessage().contains(JpaJournal.LINGER_FLOOR_KEY));
        assertTrue(assertThrows(IllegalStateException.class, () -> JpaJournal.commitPolicy(2000, -1, 1000))
                .getMessage().contains(JpaJournal.LINGER_ROWS_KEY));
        assertTrue(assertThrows(IllegalStateException.class, () -> JpaJournal.commitPolicy(2000, 513, 1000))
                .getMessage().contains(JpaJournal.LINGER_ROWS_KEY));
        assertTrue(assertThrows(IllegalStateException.class, () -> JpaJournal.commitPolicy(2000, 64, -1))
                .getMessage().contains(JpaJournal.LINGER_PROMPT_FLOOR_KEY));
        assertTrue(assertThrows(IllegalStateException.class, () -> JpaJournal.checkCompactMaxWrite(4095))
                .getMessage().contains(JpaJournal.COMPACT_MAX_WRITE_KEY));
        JpaJournal.checkCompactMaxWrite(4096);
    }
}
