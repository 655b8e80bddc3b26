package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FileCompactionStatsTest {

    private static final int RETENTION = 45_000;
    private static final int WINDOW = RETENTION + (int) FileCompactionStats.MARGIN_MILLIS;

    @Test
    void youngChunksNeverTriggerACompactionHoweverMany() {
        FileCompactionStats stats = new FileCompactionStats();
        // 1,000 commits a second for two minutes: the chunks of the last 50 s are all that is left
        boolean compacted = false;
        for (int second = 0; second <= 120; second++) {
            long version = 1_000L * second;
            int chunks = (int) Math.min(version, 1_000L * WINDOW / 1000);
            compacted |= stats.observe(second * 1000L, chunks, version, RETENTION, 4096, 1 << 20);
        }
        assertFalse(compacted, "50,000 young chunks are H2's to free");
        assertEquals(50_000, stats.chunks());
        assertEquals(0, stats.oldChunks());
    }

    @Test
    void chunksThatOutliveTheWindowDoTriggerIt() {
        FileCompactionStats stats = new FileCompactionStats();
        // 100 commits a second, and every one keeps a live page: all chunks stay
        boolean compacted = false;
        int second = 0;
        while (!compacted && second < 1000) {
            long version = 100L * second;
            compacted = stats.observe(second * 1000L, (int) version, version, RETENTION, 4096, 1 << 20);
            second++;
        }
        assertTrue(compacted);
        // 5,000 chunks are young at any time, so the 4,097th old one comes after ~91 s
        assertTrue(second >= 90 && second <= 93, "compacted after " + second + " s");
        assertTrue(stats.oldChunks() > 4096);
    }

    @Test
    void theHardLimitCountsEveryChunk() {
        FileCompactionStats young = new FileCompactionStats();
        assertFalse(young.observe(0, 0, 0, RETENTION, 4096, 1 << 20));
        assertFalse(young.observe(1000, 70_000, 70_000, RETENTION, 4096, 1 << 20), "70,000 chunks, all of the last second");
        FileCompactionStats capped = new FileCompactionStats();
        assertFalse(capped.observe(0, 0, 0, RETENTION, 4096, 65_536));
        assertTrue(capped.observe(1000, 70_000, 70_000, RETENTION, 4096, 65_536), "past the hard limit, young or not");
    }

    @Test
    void countsRunsAndTimeAndReportsTheFirstRunOnce() {
        FileCompactionStats stats = new FileCompactionStats();
        assertEquals(-1, stats.chunks());
        assertTrue(stats.compacted(100, 2_000_000, 500_000));
        assertFalse(stats.compacted(90, 3_000_000, 1_000_000));
        assertEquals(2, stats.runs());
        assertEquals(0.005, stats.seconds(), 1e-9);
        assertEquals(0.0015, stats.cpuSeconds(), 1e-9);
        stats.compacted(90, 1_000_000, -1); // a JVM that cannot tell adds no CPU time
        assertEquals(0.0015, stats.cpuSeconds(), 1e-9);
        assertEquals(90, stats.chunks());
    }
}
