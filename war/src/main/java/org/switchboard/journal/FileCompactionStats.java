package org.switchboard.journal;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Decides when the embedded H2 file is worth compacting, and keeps what that has cost. Only chunks
 * older than H2's retention window count: every commit writes a chunk, and at a high commit rate the
 * file holds tens of thousands of recent ones that free themselves once their pages are overwritten
 * and the retention time has passed. Rewriting those first bought nothing and cost REDSYN half again
 * its CPU per request. What compaction is for are the old chunks that keep a live page for good (a
 * filled table leaf). Only the journal's one compaction thread calls {@link #observe}; metrics read.
 */
public final class FileCompactionStats {

    /** Extra time beyond H2's retention before a chunk counts as old (runs are about a second apart). */
    static final long MARGIN_MILLIS = 5_000;

    /** (time, store version) samples covering the retention window. */
    private final ArrayDeque<long[]> samples = new ArrayDeque<>();
    private volatile int chunks = -1;
    private volatile int oldChunks = -1;
    private final LongAdder runs = new LongAdder();
    private final LongAdder nanos = new LongAdder();
    private final LongAdder cpuNanos = new LongAdder();
    private final AtomicBoolean engaged = new AtomicBoolean();

    /**
     * Records one look at the file and says whether to compact it: when more than {@code aboveOldChunks}
     * chunks predate the retention window (the versions written within it are the chunks still young),
     * or when the whole count passes {@code hardLimit} whatever their age.
     */
    public boolean observe(long nowMillis, int observedChunks, long version, int retentionMillis,
                           int aboveOldChunks, int hardLimit) {
        samples.addLast(new long[] {nowMillis, version});
        long windowStart = nowMillis - retentionMillis - MARGIN_MILLIS;
        // keep the newest sample at or before the window's start: the version then bounds the young chunks
        while (samples.size() > 1 && samplesSecond()[0] <= windowStart) {
            samples.removeFirst();
        }
        long youngChunks = Math.max(0, version - samples.peekFirst()[1]);
        int old = (int) Math.max(0, observedChunks - youngChunks);
        chunks = observedChunks;
        oldChunks = old;
        return old > aboveOldChunks || observedChunks > hardLimit;
    }

    private long[] samplesSecond() {
        var it = samples.iterator();
        it.next();
        return it.next();
    }

    /**
     * Records one compaction run, its wall time and its thread's CPU time (0 where the JVM cannot tell);
     * true for the first one since start.
     */
    public boolean compacted(int chunksAfter, long runNanos, long runCpuNanos) {
        chunks = chunksAfter;
        runs.increment();
        nanos.add(runNanos);
        cpuNanos.add(Math.max(0, runCpuNanos));
        return engaged.compareAndSet(false, true);
    }

    /** Chunks in the file at the last look; -1 before the first or on other databases. */
    public int chunks() {
        return chunks;
    }

    /** Of those, the chunks older than the retention window at the last look; -1 before the first. */
    public int oldChunks() {
        return oldChunks;
    }

    /** Compaction runs that rewrote pages since start. */
    public long runs() {
        return runs.sum();
    }

    /** Seconds spent in those runs (their pages rewritten beside the commits; see {@code container.H2ChunkRewrite}). */
    public double seconds() {
        return nanos.sum() / 1e9;
    }

    /**
     * Seconds of CPU the compacting thread used in those runs: the rest of {@link #seconds()} is off the CPU
     * (H2 reading old pages back from the file, waiting for a core or for a commit in progress).
     */
    public double cpuSeconds() {
        return cpuNanos.sum() / 1e9;
    }
}
