package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DurationHistogramTest {

    private static final long MS = 1_000_000L;

    @Test
    void aDurationCountsInTheFirstBucketWhoseBoundItDoesNotExceed() {
        DurationHistogram histogram = new DurationHistogram();
        histogram.record(-5);           // a clock step back: the first bucket
        histogram.record(MS);           // exactly 1 ms: bounds are inclusive
        histogram.record(MS + 1);       // just over: 2 ms
        histogram.record(7 * MS);       // 10 ms
        histogram.record(30 * MS);      // 50 ms
        histogram.record(5_000 * MS);   // past 1 s: the unbounded bucket
        assertArrayEquals(new long[] {2, 3, 3, 4, 4, 5, 5, 5, 5, 6}, histogram.cumulative());
    }

    @Test
    void theBoundsAreThePublishedOnes() {
        assertEquals(9, DurationHistogram.boundedBuckets());
        assertEquals(0.001, DurationHistogram.boundSeconds(0));
        assertEquals(0.02, DurationHistogram.boundSeconds(4));
        assertEquals(1.0, DurationHistogram.boundSeconds(8));
    }

    @Test
    void anEmptyHistogramCountsNothing() {
        assertArrayEquals(new long[10], new DurationHistogram().cumulative());
    }
}
