package org.switchboard.redsyn.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class WebhookSweeperTest {

    @Test
    void aSweepThatRecoversNothingSaysNothing() {
        assertNull(WebhookSweeper.recoveryReport(0, 0));
    }

    @Test
    void aSweepThatRecoversSomethingNamesBothCounts() {
        assertEquals("webhook recovery sweep: found 2 messages never opened, woke 0 overdue ones",
                WebhookSweeper.recoveryReport(2, 0));
        assertEquals("webhook recovery sweep: found 0 messages never opened, woke 3 overdue ones",
                WebhookSweeper.recoveryReport(0, 3));
    }
}
