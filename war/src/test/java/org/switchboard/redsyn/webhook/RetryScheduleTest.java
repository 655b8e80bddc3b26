package org.switchboard.redsyn.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryScheduleTest {

    @Test
    void doublesFromTenSecondsCappedAtOneHourForTenRetries() {
        RetrySchedule s = new RetrySchedule(1.0);
        long[] expectedSeconds = {10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600};
        for (int attempt = 1; attempt <= 10; attempt++) {
            assertEquals(Duration.ofSeconds(expectedSeconds[attempt - 1]), s.afterFailure(attempt), "after attempt " + attempt);
        }
        assertNull(s.afterFailure(11), "ten retries, then give up");
        assertNull(s.afterFailure(40));
    }

    @Test
    void scaleMultipliesEveryInterval() {
        RetrySchedule s = new RetrySchedule(0.1);
        assertEquals(Duration.ofSeconds(1), s.afterFailure(1));
        assertEquals(Duration.ofSeconds(2), s.afterFailure(2));
        assertEquals(Duration.ofSeconds(360), s.afterFailure(10));
        assertEquals(Duration.ofMillis(1), new RetrySchedule(1e-9).afterFailure(1), "never zero");
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new RetrySchedule(0));
        assertThrows(IllegalArgumentException.class, () -> new RetrySchedule(-1));
        assertThrows(IllegalArgumentException.class, () -> new RetrySchedule(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new RetrySchedule(1.0).afterFailure(0));
    }

    @Test
    void only2xxTakesTheMessage() {
        assertTrue(RetrySchedule.accepted(200));
        assertTrue(RetrySchedule.accepted(204));
        assertFalse(RetrySchedule.accepted(301));
        assertFalse(RetrySchedule.accepted(500));
        assertFalse(RetrySchedule.accepted(-1));
    }
}
