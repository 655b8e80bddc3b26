package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AppendRateTest {

    private static final long MS = 1_000_000L;

    @Test
    void aFreshEstimateExpectsNothing() {
        AppendRate rate = new AppendRate();
        rate.taken(1, 0);
        assertEquals(0.0, rate.expectedWithin(2 * MS));
    }

    @Test
    void aSteadyStreamIsLearnedWithinAFewSamples() {
        AppendRate rate = new AppendRate();
        // 3 rows every millisecond = 3,000 rows/s for 200 ms
        for (long t = 0; t <= 200 * MS; t += MS) {
            rate.taken(3, t);
        }
        double expected = rate.expectedWithin(2 * MS);
        assertTrue(expected > 5.5 && expected < 6.5, "3,000 rows/s make ~6 rows in 2 ms: " + expected);
    }

    @Test
    void anIdleGapIsForgottenByTheFirstAppendAfterIt() {
        AppendRate rate = new AppendRate();
        for (long t = 0; t <= 200 * MS; t += MS) {
            rate.taken(3, t);
        }
        rate.taken(1, 1_200 * MS);
        assertTrue(rate.expectedWithin(2 * MS) < 0.1,
                "after an idle second one row is no reason to wait: " + rate.expectedWithin(2 * MS));
    }

    @Test
    void shortSamplesAccumulateInsteadOfSwingingTheEstimate() {
        AppendRate rate = AppendRate.steady(3e-6);
        rate.taken(0, 0);
        rate.taken(0, MS);
        rate.taken(0, 2 * MS);
        assertEquals(3e-6 * 2 * MS, rate.expectedWithin(2 * MS), 1e-9, "under 5 ms: no sample yet");
    }
}
