package org.switchboard.synapse.federation.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ForwardBackoffTest {

    @Test
    void doublesFromOneSecondUpTo300() {
        long[] expected = {1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300};
        for (int attempts = 1; attempts <= expected.length; attempts++) {
            assertEquals(expected[attempts - 1], ForwardBackoff.delaySeconds(attempts), "after attempt " + attempts);
        }
        assertEquals(300, ForwardBackoff.delaySeconds(1000));
    }

    @Test
    void anOperatorCapShortensTheLongWaits() {
        assertEquals(1, ForwardBackoff.delaySeconds(1, 2));
        assertEquals(2, ForwardBackoff.delaySeconds(2, 2));
        assertEquals(2, ForwardBackoff.delaySeconds(7, 2));
        assertEquals(300, ForwardBackoff.delaySeconds(20, 10_000), "never above 300 s");
        assertEquals(1, ForwardBackoff.delaySeconds(5, 0));
    }
}
