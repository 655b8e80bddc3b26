package org.switchboard.redsyn.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AddressTest {

    @Test
    void parsesFullAddressWithAndWithoutSession() {
        Address a = Address.parse("acme/finance/ana/close");
        assertEquals("acme", a.org());
        assertEquals("finance", a.team());
        assertEquals("ana", a.user());
        assertEquals("close", a.agent());
        assertNull(a.session());
        assertEquals("acme/finance/ana/close", a.toString());

        Address s = Address.parse("acme/finance/ana/close#s42");
        assertEquals("s42", s.session());
        assertEquals("acme/finance/ana/close#s42", s.toString());
        assertEquals("acme/finance/ana/close", s.agentPath());
        assertEquals(a, s.agentOnly());
    }

    @Test
    void newSessionIsRecognised() {
        assertTrue(Address.parse("acme/finance/ana/close#new").wantsNewSession());
        assertFalse(Address.parse("acme/finance/ana/close#s1").wantsNewSession());
    }

    @Test
    void namesAllowLowerCaseDigitsDotDashUnderscore() {
        assertEquals("a.b-c_9", Address.parse("a.b-c_9/t/u/x").org());
        assertThrows(AddressException.class, () -> Address.parse("Acme/finance/ana/close"));
        assertThrows(AddressException.class, () -> Address.parse("acme/fin ance/ana/close"));
        assertThrows(AddressException.class, () -> Address.parse("acme//ana/close"));
        assertThrows(AddressException.class, () -> Address.parse("acme/../ana/close"));
    }

    @Test
    void refusesWrongPartCountsAndBadSessions() {
        assertThrows(AddressException.class, () -> Address.parse("acme/finance/close"));
        assertThrows(AddressException.class, () -> Address.parse("acme/finance/ana/close/x"));
        assertThrows(AddressException.class, () -> Address.parse("acme/finance/ana/close#42"));
        assertThrows(AddressException.class, () -> Address.parse("acme/finance/ana/close#"));
        assertThrows(AddressException.class, () -> Address.parse(""));
    }
}
