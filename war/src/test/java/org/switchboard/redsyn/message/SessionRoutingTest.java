package org.switchboard.redsyn.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.address.Address;

class SessionRoutingTest {

    private static final Address PLAIN = Address.parse("acme/dev/ana/close");
    private static final SessionRouting.SessionState OPEN = new SessionRouting.SessionState("s5", false);
    private static final SessionRouting.SessionState CLOSED = new SessionRouting.SessionState("s5", true);

    @Test
    void aNewThreadOpensASession() {
        assertTrue(SessionRouting.route(PLAIN, null, null).openNew());
    }

    @Test
    void aFollowUpLandsInTheThreadsSession() {
        assertEquals("s5", SessionRouting.route(PLAIN, null, OPEN).sid());
    }

    @Test
    void aFollowUpToAClosedSessionOpensAnother() {
        assertTrue(SessionRouting.route(PLAIN, null, CLOSED).openNew());
    }

    @Test
    void hashNewForcesANewSession() {
        assertTrue(SessionRouting.route(PLAIN.withSession("new"), null, OPEN).openNew());
    }

    @Test
    void aNamedSessionIsUsedRefusedWhenClosedAndMissingIs404() {
        assertEquals("s5", SessionRouting.route(PLAIN.withSession("s5"), OPEN, null).sid());
        RedsynException closed = assertThrows(RedsynException.class, () -> SessionRouting.route(PLAIN.withSession("s5"), CLOSED, null));
        assertEquals(409, closed.status());
        RedsynException missing = assertThrows(RedsynException.class, () -> SessionRouting.route(PLAIN.withSession("s9"), null, null));
        assertEquals(404, missing.status());
    }
}
