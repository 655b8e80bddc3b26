package org.switchboard.synapse.session;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class HandshakeGuardTest {

    private final HandshakeGuard guard = new HandshakeGuard("", Set.of("https://ui.example"));

    @Test
    void loopbackAuthoritiesAreTrustedWithAndWithoutThePort() {
        for (String host : new String[] {"localhost", "LOCALHOST:8876", "127.0.0.1", "127.0.0.1:8876", "[::1]", "[::1]:8876"}) {
            assertTrue(guard.admits(host, null, 8876, true), host);
        }
        assertFalse(guard.admits("evil.example", null, 8876, true));
        assertFalse(guard.admits("127.0.0.1:9999", null, 8876, true), "another port");
        assertFalse(guard.admits(null, null, 8876, true));
    }

    @Test
    void aBindAllAddressWithoutAdvertisedHostTrustsNothing() {
        assertFalse(guard.admits("localhost:8876", null, 8876, false));
        HandshakeGuard advertised = new HandshakeGuard("hub.example", Set.of());
        assertTrue(advertised.admits("hub.example:8876", null, 8876, false));
        assertTrue(advertised.admits("hub.example", null, 8876, false));
    }

    @Test
    void browserOriginsNeedTheAllowList() {
        assertTrue(guard.admits("localhost", "", 8876, true), "an empty Origin counts as absent");
        assertTrue(guard.admits("localhost", "https://UI.example/", 8876, true));
        assertFalse(guard.admits("localhost", "null", 8876, true));
        assertFalse(guard.admits("localhost", "http://evil.example", 8876, true));
        assertFalse(new HandshakeGuard("", Set.of()).admits("localhost", "https://ui.example", 8876, true));
    }
}
