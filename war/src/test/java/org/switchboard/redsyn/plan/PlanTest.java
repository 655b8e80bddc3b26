package org.switchboard.redsyn.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class PlanTest {

    @Test
    void freePlanFollowsTheDocument() {
        assertEquals(1_000, Plan.FREE.messagesPerDay());
        assertEquals(50L * 1024 * 1024, Plan.FREE.filesPendingBytes());
        assertEquals(86_400, Plan.FREE.maxTtlSeconds());
        assertEquals(5, Plan.FREE.agents());
        assertEquals(64 * 1024, Plan.FREE.maxBodyBytes());
        assertEquals(5 * 1024 * 1024, Plan.FREE.maxZipBytes());
    }

    @Test
    void ttlIsCappedByThePlan() {
        assertEquals(86_400, Plan.FREE.capTtl(7 * 86_400L, 3600));
        assertEquals(60, Plan.FREE.capTtl(60L, 3600));
        assertEquals(3600, Plan.FREE.capTtl(null, 3600));
        assertEquals(7 * 86_400, Plan.PRO.capTtl(30 * 86_400L, 3600));
    }

    @Test
    void plansByName() {
        assertEquals(Plan.ENTERPRISE, Plan.named("Enterprise"));
        assertNull(Plan.named("gold"));
    }
}
