package org.switchboard.redsyn.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WebhookDeliveryEntityTest {

    @Test
    void onlyTheCurrentAttemptMayRunAndOnlyWhenNotInFlight() {
        WebhookDeliveryEntity d = new WebhookDeliveryEntity(7, "m7", 3, 1_000);
        assertTrue(d.mayAttempt(1, 1_000));
        assertFalse(d.mayAttempt(2, 1_000), "a wake-up from the future is stale");
        d.claim(5_000);
        assertFalse(d.mayAttempt(1, 4_999), "a duplicate wake-up while the POST is in flight does nothing");
        assertTrue(d.mayAttempt(1, 5_000), "a claim that ran out (crash mid-POST) can be retaken");
        d.failed(1, 11_000);
        assertEquals(1, d.getAttemptsFailed());
        assertEquals(11_000, d.getDueAt());
        assertFalse(d.mayAttempt(1, 11_000), "the failed attempt's own redelivery is stale");
        assertTrue(d.mayAttempt(2, 11_000));
    }
}
