package org.switchboard.synapse.posture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.SynapseSettings;

class BindPostureTest {

    private static final SynapseSettings OPEN = SynapseSettings.defaults(); // no token, metrics on, no metrics token
    private static final SynapseSettings LOCKED = SynapseSettings.builder().token("t0ken-value")
            .metricsToken("m3trics-value").build();

    @Test
    void loopbackAddressesAreRecognisedWithoutLookups() {
        for (String bind : List.of("127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]",
                "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", " 127.0.0.1 ")) {
            assertTrue(BindPosture.isLoopback(bind), bind);
        }
        for (String bind : List.of("0.0.0.0", "::", "[::]", "192.168.1.10", "10.0.0.1", "fe80::1", "example.org",
                "localhost.example.org", "", "127.0.0.256", "1.2.3")) {
            assertFalse(BindPosture.isLoopback(bind), bind);
        }
        assertFalse(BindPosture.isLoopback(null));
    }

    @Test
    void aLoopbackHubMayServeWithoutTokens() {
        assertEquals(List.of(), BindPosture.missingSettings("127.0.0.1", false, OPEN));
    }

    @Test
    void offLoopbackWithoutTokensNamesEachMissingSetting() {
        assertEquals(List.of("hub.token", "hub.metrics-token"), BindPosture.missingSettings("0.0.0.0", false, OPEN));
        assertEquals(List.of("hub.metrics-token"), BindPosture.missingSettings("0.0.0.0", false,
                SynapseSettings.builder().token("x").build(), true));
        assertEquals(List.of("hub.token"), BindPosture.missingSettings("10.1.2.3", false,
                SynapseSettings.builder().metricsToken("m").build()));
    }

    @Test
    void offLoopbackATokenWithoutTlsRefusesAndTlsEitherWaySatisfiesIt() {
        // §2.4: "with a token but no TLS": the token would cross the network in clear text
        assertEquals(List.of(BindPosture.TLS), BindPosture.missingSettings("0.0.0.0", false, LOCKED, false));
        assertEquals(List.of(BindPosture.TLS), BindPosture.missingSettings("10.1.2.3", false, LOCKED));
        assertEquals(List.of(), BindPosture.missingSettings("0.0.0.0", false, LOCKED, true));
        // without a token the token is what is missing; TLS alone is not asked for
        assertEquals(List.of("hub.token", "hub.metrics-token"), BindPosture.missingSettings("0.0.0.0", false, OPEN, false));
        // loopback and the explicit override need no TLS
        assertEquals(List.of(), BindPosture.missingSettings("127.0.0.1", false, LOCKED, false));
        assertEquals(List.of(), BindPosture.missingSettings("0.0.0.0", true, LOCKED, false));
        String message = BindPosture.refusal("0.0.0.0", BindPosture.missingSettings("0.0.0.0", false, LOCKED, false));
        assertTrue(message.contains("hub.tls-terminated-by-proxy") && message.contains("HUB_TLS_KEYSTORE"), message);
        assertFalse(message.contains("t0ken-value"), message);
    }

    @Test
    void metricsSwitchedOffNeedNoMetricsToken() {
        assertEquals(List.of(), BindPosture.missingSettings("0.0.0.0", false,
                SynapseSettings.builder().token("x").metricsEnabled(false).build(), true));
    }

    @Test
    void fullyConfiguredOrOverriddenHubsMayServe() {
        assertEquals(List.of(), BindPosture.missingSettings("0.0.0.0", false, LOCKED, true));
        assertEquals(List.of(), BindPosture.missingSettings("0.0.0.0", true, OPEN));
    }

    @Test
    void theRefusalNamesSettingsButNeverTheirValues() {
        SynapseSettings halfLocked = SynapseSettings.builder().token("t0ken-value").build();
        List<String> missing = BindPosture.missingSettings("0.0.0.0", false, halfLocked);
        String message = BindPosture.refusal("0.0.0.0", missing);
        assertTrue(message.contains("hub.metrics-token"), message);
        assertTrue(message.contains("0.0.0.0"), message);
        assertTrue(message.contains("hub.allow-insecure-bind=true"), message);
        assertFalse(message.contains("t0ken-value"), message);
    }
}
