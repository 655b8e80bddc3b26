package org.switchboard.synapse.posture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SecurityPostureTest {

    private static final SecurityPosture.Material NOTHING =
            new SecurityPosture.Material(false, false, false, false, false, false, false);
    private static final SecurityPosture.Material EVERYTHING =
            new SecurityPosture.Material(true, true, true, true, true, true, true);

    @Test
    void namesParseAndUnknownOnesDoNot() {
        assertEquals(SecurityPosture.OPEN, SecurityPosture.parse(null));
        assertEquals(SecurityPosture.OPEN, SecurityPosture.parse(" Open "));
        assertEquals(SecurityPosture.TEAM_SECURE, SecurityPosture.parse("team-secure"));
        assertEquals(SecurityPosture.PARANOID, SecurityPosture.parse("PARANOID"));
        assertNull(SecurityPosture.parse("team_secure"));
        assertNull(SecurityPosture.parse("strict"));
    }

    @Test
    void openAndSecureNeedNothing() {
        assertTrue(SecurityPosture.OPEN.missing(NOTHING).isEmpty());
        assertTrue(SecurityPosture.SECURE.missing(NOTHING).isEmpty());
        assertNull(SecurityPosture.SECURE.refusal(NOTHING));
    }

    @Test
    void teamSecureNeedsTokenBundleAndRoleGrants() {
        assertEquals(List.of("hub.token", "hub.identity-trust", "hub.role-grants"), SecurityPosture.TEAM_SECURE.missing(NOTHING));
        assertTrue(SecurityPosture.TEAM_SECURE.missing(EVERYTHING).isEmpty());
        assertEquals(List.of("hub.role-grants"), SecurityPosture.TEAM_SECURE.missing(
                new SecurityPosture.Material(true, false, true, false, false, false, false)));
    }

    @Test
    void paranoidNeedsEachPieceAndNamesWhatIsMissing() {
        assertEquals(5, SecurityPosture.PARANOID.missing(NOTHING).size());
        assertTrue(SecurityPosture.PARANOID.missing(EVERYTHING).isEmpty());
        String refusal = SecurityPosture.PARANOID.refusal(new SecurityPosture.Material(true, true, false, false, true, true, false));
        assertEquals("SYNAPSE refuses to serve: hub.posture=paranoid requires TLS (a keystore: run-hub's HUB_TLS_KEYSTORE, which sets"
                + " hub.tls-native; or hub.tls-terminated-by-proxy)",
                refusal);
    }

    @Test
    void eachPostureForcesItsSwitches() {
        assertTrue(SecurityPosture.TEAM_SECURE.forcesIdentityBinding() && SecurityPosture.TEAM_SECURE.forcesPrivateDirectedMessages());
        assertFalse(SecurityPosture.TEAM_SECURE.forcesAcl());
        assertTrue(SecurityPosture.PARANOID.forcesAcl() && SecurityPosture.PARANOID.forcesMessageAuth()
                && SecurityPosture.PARANOID.forcesIngressQuota());
        assertTrue(SecurityPosture.SECURE.forcesIngressQuota());
        assertFalse(SecurityPosture.OPEN.forcesIngressQuota() || SecurityPosture.OPEN.forcesAcl());
    }
}
