package org.switchboard.journal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Durations counted by fixed upper bounds, as a Prometheus histogram's buckets: recorded by one thread (the
 * journal writer), read by any. It shows what a sum cannot: how many commits took long, such as the ones
 * that waited behind a run of the H2 file's compaction.
 */
public final class DurationHistogram {

    /** Upper bounds of the buckets in seconds, inclusive; a last bucket without bound follows. */
    private static final double[] BOUNDS_SECONDS = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0};
    private static final long[] BOUNDS_NANOS = new long[BOUNDS_SECONDS.length];

    static {
        for (int i = 0; i < BOUNDS_SECONDS.length; i++) {
            BOUNDS_NANOS[i] = Math.round(BOUNDS_SECONDS[i] * 1e9);
        }
    }

    private final AtomicLongArray counts = new AtomicLongArray(BOUNDS_SECONDS.length + 1);

    /** Counts one duration, in nanoseconds (negative counts as 0). */
    public void record(long nanos) {
        int bucket = 0;
        while (bucket < BOUNDS_NANOS.length && nanos > BOUNDS_NANOS[bucket]) {
            bucket++;
        }
        counts.incrementAndGet(bucket);
    }

    /** How many buckets have an upper bound (the last, unbounded one is not among them). */
    public static int boundedBuckets() {
        return BOUNDS_SECONDS.length;
    }

    /** The upper bound of bucket {@code i} in seconds ({@code i < boundedBuckets()}). */
    public static double boundSeconds(int i) {
        return BOUNDS_SECONDS[i];
    }

    /**
     * Cumulative counts read once: element {@code i} is how many durations were at most
     * {@code boundSeconds(i)}; the last element (index {@code boundedBuckets()}) is all of them.
     */
    public long[] cumulative() {
        long[] out = new long[counts.length()];
        long sum = 0;
        for (int i = 0; i < out.length; i++) {
            sum += counts.get(i);
            out[i] = sum;
        }
        return out;
    }
}
