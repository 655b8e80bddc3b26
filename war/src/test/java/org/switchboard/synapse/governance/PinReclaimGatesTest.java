package org.switchboard.synapse.governance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.json.Jsons;

/** The eleven gates of §7.1 in their order: each fails alone, and an ACL refusal reads no pin, online or lease state. */
class PinReclaimGatesTest {

    /** Facts with every answer "pass", one switch per gate, and a log of what was asked. */
    static final class Facts implements PinReclaimGates.Facts {
        boolean acl = true;
        boolean proven = true;
        boolean journal = true;
        String pinned = "k1";
        boolean online;
        boolean lease;
        final List<String> asked = new ArrayList<>();

        @Override
        public boolean aclAllows(String requester, String pinName) {
            asked.add("acl");
            return acl;
        }

        @Override
        public boolean proven(String requester) {
            asked.add("proven");
            return proven;
        }

        @Override
        public boolean durableJournal() {
            asked.add("journal");
            return journal;
        }

        @Override
        public String pinnedKeyId(String name) {
            asked.add("pin");
            return pinned;
        }

        @Override
        public boolean online(String name) {
            asked.add("online");
            return online;
        }

        @Override
        public boolean leaseLive(String name) {
            asked.add("lease");
            return lease;
        }
    }

    static PinReclaimGates.Request request(String pin, String key, String reason, boolean breakGlass) {
        return new PinReclaimGates.Request(pin, key, reason, breakGlass);
    }

    static final PinReclaimGates.Request GOOD = request("ACME/w", "k1", "laptop lost", false);

    @Test
    void aGoodRequestPassesEveryGate() {
        Facts facts = new Facts();
        assertNull(PinReclaimGates.refusal("OPS/admin", GOOD, facts));
        assertEquals(List.of("acl", "proven", "journal", "pin", "online", "lease"), facts.asked);
    }

    @Test
    void theRequestFieldsAreCheckedFirstInOrder() {
        Facts facts = new Facts();
        assertEquals(PinReclaimGates.PIN_NAME_REQUIRED, PinReclaimGates.refusal("OPS/a", request(null, null, null, false), facts));
        assertEquals(PinReclaimGates.PIN_NAME_REQUIRED, PinReclaimGates.refusal("OPS/a", request(" ", "k1", "r", false), facts));
        assertEquals(PinReclaimGates.EXPECTED_KEY_REQUIRED, PinReclaimGates.refusal("OPS/a", request("ACME/w", "", null, false), facts));
        assertEquals(PinReclaimGates.REASON_REQUIRED, PinReclaimGates.refusal("OPS/a", request("ACME/w", "k1", " ", false), facts));
        assertEquals(PinReclaimGates.REASON_TOO_LONG, PinReclaimGates.refusal("OPS/a",
                request("ACME/w", "k1", "x".repeat(501), false), facts));
        assertNull(PinReclaimGates.refusal("OPS/a", request("ACME/w", "k1", "x".repeat(500), false), facts));
        assertEquals(PinReclaimGates.OWN_IDENTITY, PinReclaimGates.refusal("ACME/w", GOOD, new Facts()));
    }

    @Test
    void anAclRefusalRevealsNoPinOnlineOrLeaseState() {
        Facts facts = new Facts();
        facts.acl = false;
        facts.pinned = null;
        facts.online = true;
        assertEquals(PinReclaimGates.NOT_AUTHORISED + "ACME/w", PinReclaimGates.refusal("EVIL/e", GOOD, facts));
        assertEquals(List.of("acl"), facts.asked);
    }

    @Test
    void theLaterGatesFailInOrder() {
        Facts facts = new Facts();
        facts.proven = false;
        facts.journal = false;
        assertEquals(PinReclaimGates.NOT_PROVEN, PinReclaimGates.refusal("OPS/a", GOOD, facts));
        facts.proven = true;
        assertEquals(PinReclaimGates.NO_JOURNAL, PinReclaimGates.refusal("OPS/a", GOOD, facts));
        facts.journal = true;
        facts.pinned = null;
        assertEquals(PinReclaimGates.NOT_PINNED, PinReclaimGates.refusal("OPS/a", GOOD, facts));
        facts.pinned = "k2";
        assertEquals(PinReclaimGates.KEY_DIFFERS, PinReclaimGates.refusal("OPS/a", GOOD, facts));
        facts.pinned = "k1";
        facts.online = true;
        facts.lease = true;
        assertEquals(PinReclaimGates.OWNER_ONLINE, PinReclaimGates.refusal("OPS/a", GOOD, facts));
        facts.online = false;
        assertEquals(PinReclaimGates.LEASE_LIVE, PinReclaimGates.refusal("OPS/a", GOOD, facts));
    }

    @Test
    void breakGlassSkipsOnlyTheLivenessAndLeaseGate() {
        Facts facts = new Facts();
        facts.online = true;
        facts.lease = true;
        assertNull(PinReclaimGates.refusal("OPS/a", request("ACME/w", "k1", "r", true), facts));
        assertFalse(facts.asked.contains("online"));
        facts.pinned = "k2";
        assertEquals(PinReclaimGates.KEY_DIFFERS, PinReclaimGates.refusal("OPS/a", request("ACME/w", "k1", "r", true), facts));
    }

    @Test
    void onlyTheLiteralTrueIsBreakGlass() {
        assertTrue(PinReclaimGates.Request.of(Jsons.PROVIDER.createObjectBuilder().add("break_glass", true).build()).breakGlass());
        assertFalse(PinReclaimGates.Request.of(Jsons.PROVIDER.createObjectBuilder().add("break_glass", "true").build()).breakGlass());
        assertFalse(PinReclaimGates.Request.of(Jsons.PROVIDER.createObjectBuilder().add("break_glass", 1).build()).breakGlass());
        assertNull(PinReclaimGates.Request.of(Jsons.PROVIDER.createObjectBuilder().add("pin_name", 7).build()).pinName());
    }
}
