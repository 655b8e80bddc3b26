package org.switchboard.redsyn.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.RedsynException;

class PolicyDecisionTest {

    private static final String AGENT = "acme/finance/ana/close";

    private static Optional<String> decide(Policy p, PolicyDecision.Sender s, boolean signed, boolean encrypted) {
        return PolicyDecision.refusal(p, AGENT, "acme", "finance", s, signed, encrypted);
    }

    private static PolicyDecision.Sender member(String handle, String... teams) {
        return new PolicyDecision.Sender(false, handle, Set.of(teams), "acme");
    }

    @Test
    void emptyAllowMeansTheAgentsOwnTeam() {
        assertTrue(decide(Policy.DEFAULT, member("bob", "finance"), false, false).isEmpty());
        assertEquals(Optional.of(AGENT + " takes requests only from team finance"),
                decide(Policy.DEFAULT, member("bob", "ops"), false, false));
    }

    @Test
    void theOwnerIsAlwaysAllowed() {
        Policy p = new Policy(List.of("team:ops"), "none", false, false);
        assertTrue(decide(p, new PolicyDecision.Sender(true, "ana", Set.of(), "acme"), false, false).isEmpty());
    }

    @Test
    void allowEntriesMatchHandleTeamOrgAndOtherOrg() {
        assertTrue(decide(new Policy(List.of("bob"), "none", false, false), member("bob"), false, false).isEmpty());
        assertTrue(decide(new Policy(List.of("team:ops"), "none", false, false), member("carl", "ops"), false, false).isEmpty());
        assertTrue(decide(new Policy(List.of("org"), "none", false, false), member("dan"), false, false).isEmpty());
        PolicyDecision.Sender foreign = new PolicyDecision.Sender(false, null, Set.of(), "globex");
        assertTrue(decide(new Policy(List.of("org:globex"), "none", false, false), foreign, false, false).isEmpty());
        assertEquals(Optional.of(AGENT + " takes requests only from its organisation"),
                decide(new Policy(List.of("org"), "none", false, false), foreign, false, false));
    }

    @Test
    void refusalListsTheAllowedEntries() {
        Policy p = new Policy(List.of("team:ops", "bob"), "none", false, false);
        assertEquals(Optional.of(AGENT + " takes requests only from team ops, bob"), decide(p, member("eve", "finance"), false, false));
    }

    @Test
    void fullTrustAndSignedOnlyNeedASignature() {
        Policy full = new Policy(List.of("bob"), "full", false, false);
        assertEquals(Optional.of(AGENT + " takes only signed requests"), decide(full, member("bob"), false, false));
        assertTrue(decide(full, member("bob"), true, false).isEmpty());
        Policy signedOnly = new Policy(List.of(), "none", true, false);
        assertEquals(Optional.of(AGENT + " takes only signed requests"), decide(signedOnly, member("bob", "finance"), false, false));
    }

    @Test
    void encryptedOnlyNeedsAnEncryptedBody() {
        Policy p = new Policy(List.of(), "none", false, true);
        assertEquals(Optional.of(AGENT + " takes only encrypted requests"), decide(p, member("bob", "finance"), false, false));
        assertTrue(decide(p, member("bob", "finance"), false, true).isEmpty());
    }

    @Test
    void fullTrustWithoutAllowIsRefusedAtAnnounce() {
        RedsynException e = assertThrows(RedsynException.class, () -> PolicyDecision.validate(new Policy(List.of(), "full", false, false)));
        assertEquals(422, e.status());
        assertThrows(RedsynException.class, () -> PolicyDecision.validate(new Policy(List.of("Bad Entry"), "none", false, false)));
        assertThrows(RedsynException.class, () -> PolicyDecision.validate(new Policy(List.of(), "some", false, false)));
        PolicyDecision.validate(new Policy(List.of("org", "org:globex", "team:ops", "bob"), "full", true, false));
    }
}
