package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class H2FileRetentionTest {

    @Test
    void withoutForcedSyncH2KeepsItsOwnRetention() {
        assertEquals(45_000, H2FileRetention.millis(0));
        assertEquals(45_000, H2FileRetention.millis(-1));
    }

    @Test
    void theDefaultOneSecondSyncKeepsDeadChunksFiveSeconds() {
        assertEquals(5_000, H2FileRetention.millis(1000));
        assertEquals(5_000, H2FileRetention.millis(100));
    }

    @Test
    void slowerSyncsKeepFourIntervalsUpToH2sDefault() {
        assertEquals(8_000, H2FileRetention.millis(2000));
        assertEquals(45_000, H2FileRetention.millis(11_250));
        assertEquals(45_000, H2FileRetention.millis(11_251));
        assertEquals(45_000, H2FileRetention.millis(60_000));
    }
}
