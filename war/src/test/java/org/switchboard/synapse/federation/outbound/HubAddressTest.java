package org.switchboard.synapse.federation.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class HubAddressTest {

    private static final Set<String> PEERS = Set.of("hub-b");

    @Test
    void parsesOnTheLastAt() {
        assertEquals(new HubAddress("ACME/bob", "hub-b"), HubAddress.parse("ACME/bob@hub-b"));
        // the seat part keeps an earlier @, which the seat grammar then refuses
        assertNull(HubAddress.parse("ACME/b@ob@hub-b"));
        assertNull(HubAddress.parse("ACME/bob"));
    }

    @Test
    void hubIdGrammar() {
        assertTrue(HubAddress.parse("A/b@h") != null);
        assertTrue(HubAddress.parse("A/b@0.hub_b-1") != null);
        assertNull(HubAddress.parse("A/b@-hub"));
        assertNull(HubAddress.parse("A/b@"));
        assertNull(HubAddress.parse("A/b@hub b"));
        assertNull(HubAddress.parse("A/b@" + "h".repeat(65)));
        assertTrue(HubAddress.parse("A/b@" + "h".repeat(64)) != null);
    }

    @Test
    void seatGrammar() {
        assertNull(HubAddress.parse("@hub-b"));
        assertNull(HubAddress.parse(" ACME/bob@hub-b"));
        assertNull(HubAddress.parse("ACME/bob @hub-b"));
        assertNull(HubAddress.parse("ACME/\u0001bob@hub-b"));
        assertNull(HubAddress.parse("x".repeat(257) + "@hub-b"));
        assertTrue(HubAddress.parse("x".repeat(256) + "@hub-b") != null);
    }

    @Test
    void singleSeatRule() {
        assertTrue(HubAddress.singleSeat("ACME/bob"));
        assertFalse(HubAddress.singleSeat("all"));
        assertFalse(HubAddress.singleSeat("ACME/*"));
        assertFalse(HubAddress.singleSeat("ACME/b?b"));
        assertFalse(HubAddress.singleSeat("ACME/[ab]"));
        assertFalse(HubAddress.singleSeat("a,b"));
        assertFalse(HubAddress.singleSeat(""));
    }

    @Test
    void originRefusalsInOrder() {
        assertEquals(HubAddress.NOT_ONE_SEAT, HubAddress.refusal("ACME/a@hub-b,ACME/b@hub-b", PEERS));
        assertEquals(HubAddress.INVALID_ADDRESS, HubAddress.refusal("ACME/bob@-bad", PEERS));
        assertEquals(HubAddress.NOT_SINGLE, HubAddress.refusal("all@hub-b", PEERS));
        assertEquals(HubAddress.NOT_SINGLE, HubAddress.refusal("ACME/*@hub-b", PEERS));
        assertEquals("Hub 'hub-c' is not a configured message peer", HubAddress.refusal("ACME/bob@hub-c", PEERS));
        assertNull(HubAddress.refusal("ACME/bob@hub-b", PEERS));
    }
}
