package org.switchboard.journal;

/**
 * The journal writer's running estimate of how fast rows arrive, so a commit only lingers for more
 * rows when more are actually coming (single-threaded: only the writer calls it).
 */
final class AppendRate {

    /** Rows are counted over at least this long before a sample updates the estimate. */
    static final long SAMPLE_NANOS = 5_000_000L;
    /**
     * The estimate forgets with this time constant: a sample's weight grows with the time it spans, so
     * after an idle second the first append is judged by that second, not by the busy past.
     */
    static final double MEMORY_NANOS = 20_000_000.0;

    private long sampleStartNanos;
    private long rowsInSample;
    private double rowsPerNano;
    private boolean started;

    /** An estimate starting at nothing arriving. */
    AppendRate() {
    }

    /** An estimate starting at {@code rowsPerNano} (tests). */
    static AppendRate steady(double rowsPerNano) {
        AppendRate rate = new AppendRate();
        rate.rowsPerNano = rowsPerNano;
        return rate;
    }

    /** Counts {@code rows} taken by the writer at {@code nowNanos}. */
    void taken(int rows, long nowNanos) {
        if (!started) {
            // the first rows open the first sample: a rate needs arrivals after a start
            started = true;
            sampleStartNanos = nowNanos;
            return;
        }
        rowsInSample += rows;
        long elapsed = nowNanos - sampleStartNanos;
        if (elapsed >= SAMPLE_NANOS) {
            double weight = 1.0 - Math.exp(-elapsed / MEMORY_NANOS);
            rowsPerNano += weight * ((double) rowsInSample / elapsed - rowsPerNano);
            sampleStartNanos = nowNanos;
            rowsInSample = 0;
        }
    }

    /** Rows expected to arrive within {@code nanos} at the estimated rate. */
    double expectedWithin(long nanos) {
        return rowsPerNano * nanos;
    }
}
