package org.switchboard.synapse.session;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The ownership lease's offline TTL is the configured one (hub.lease-offline-ttl-seconds). */
class NameLeasesTest {

    @Test
    void aLeaseLapsesAfterTheConfiguredOfflineTtl() {
        NameLeases leases = new NameLeases(10);
        assertNotNull(leases.mintIfAbsent("alice", 0));
        leases.offline("alice", 100);
        assertTrue(leases.blocks("alice", null, 110), "lapsed before the TTL");
        assertFalse(leases.blocks("alice", null, 110.5), "still live after the configured 10 s");
    }

    @Test
    void theDefaultTtlIsAnHour() {
        NameLeases leases = new NameLeases();
        leases.mintIfAbsent("alice", 0);
        leases.offline("alice", 100);
        assertTrue(leases.blocks("alice", null, 3700));
        assertFalse(leases.blocks("alice", null, 3700.5));
        NameLeases nonPositive = new NameLeases(0);
        nonPositive.mintIfAbsent("bob", 0);
        nonPositive.offline("bob", 0);
        assertTrue(nonPositive.blocks("bob", null, 3599), "a non-positive TTL falls back to the default");
    }
}
