package org.switchboard.itests.bench;

import java.util.Arrays;

/** Latency samples (nanoseconds) summarised as percentiles in milliseconds. */
final class Percentiles {

    private final long[] sorted;

    Percentiles(long[] samples, int count) {
        this.sorted = Arrays.copyOf(samples, count);
        Arrays.sort(sorted);
    }

    /** The {@code p}-th percentile (0..100) in milliseconds, nearest-rank. */
    double millis(double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] / 1e6;
    }

    /** "p50 x ms, p90 y ms, p99 z ms, max w ms". */
    String summary() {
        return String.format("p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms",
                millis(50), millis(90), millis(99), millis(100));
    }
}
