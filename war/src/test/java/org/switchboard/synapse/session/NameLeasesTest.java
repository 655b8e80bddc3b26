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

    @Test
    void onlyTheRightTokenPassesAndTheHubKeepsNoCopyOfIt() throws Exception {
        NameLeases leases = new NameLeases();
        String token = leases.mintIfAbsent("p/a", 0);
        org.junit.jupiter.api.Assertions.assertFalse(leases.blocks("p/a", token, 1));
        org.junit.jupiter.api.Assertions.assertTrue(leases.blocks("p/a", token + "x", 1));
        org.junit.jupiter.api.Assertions.assertTrue(leases.blocks("p/a", null, 1));
        java.lang.reflect.Field map = NameLeases.class.getDeclaredField("leases");
        map.setAccessible(true);
        Object lease = ((java.util.Map<?, ?>) map.get(leases)).get("p/a");
        for (java.lang.reflect.Field field : lease.getClass().getDeclaredFields()) {
            field.setAccessible(true);
            Object value = field.get(lease);
            String text = value instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.ISO_8859_1)
                    + java.util.HexFormat.of().formatHex(b) : String.valueOf(value);
            org.junit.jupiter.api.Assertions.assertFalse(text.contains(token), "field " + field.getName() + " holds the token");
        }
    }
}
