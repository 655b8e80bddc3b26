package org.switchboard.ops.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ConsoleSessionsTest {

    private final AtomicLong now = new AtomicLong(1_000_000);

    @Test
    void disabledWithoutAToken() {
        ConsoleSessions sessions = new ConsoleSessions(" ", 60_000, now::get);
        assertFalse(sessions.enabled());
        assertNull(sessions.login(" "));
        assertNull(sessions.login(""));
        assertFalse(new ConsoleSessions(null, 60_000, now::get).enabled());
    }

    @Test
    void onlyTheExactTokenLogsIn() {
        ConsoleSessions sessions = new ConsoleSessions("s3cret-token", 60_000, now::get);
        assertTrue(sessions.enabled());
        assertNull(sessions.login("s3cret-toke"));
        assertNull(sessions.login("s3cret-token "));
        assertNull(sessions.login(null));
        ConsoleSessions.Session s = sessions.login("s3cret-token");
        assertNotNull(s);
        assertEquals(64, s.id().length());
        assertNotEquals(s.id(), s.csrf());
        assertTrue(s.principal().startsWith("console:"), s.principal());
        assertFalse(s.principal().contains(s.id()));
        assertEquals(s.id(), sessions.find(s.id()).id());
        assertNull(sessions.find("forged"));
    }

    @Test
    void csrfTokenMustMatchItsSession() {
        ConsoleSessions sessions = new ConsoleSessions("t", 60_000, now::get);
        ConsoleSessions.Session a = sessions.login("t");
        ConsoleSessions.Session b = sessions.login("t");
        assertTrue(ConsoleSessions.csrfValid(a, a.csrf()));
        assertFalse(ConsoleSessions.csrfValid(a, b.csrf()));
        assertFalse(ConsoleSessions.csrfValid(a, null));
        assertFalse(ConsoleSessions.csrfValid(null, a.csrf()));
    }

    @Test
    void idleSessionsExpireAndUseKeepsThemAlive() {
        ConsoleSessions sessions = new ConsoleSessions("t", 60_000, now::get);
        ConsoleSessions.Session s = sessions.login("t");
        now.addAndGet(50_000);
        assertNotNull(sessions.find(s.id()));
        now.addAndGet(50_000);
        assertNotNull(sessions.find(s.id()), "touched 50 s ago");
        now.addAndGet(60_001);
        assertNull(sessions.find(s.id()));
    }

    @Test
    void logoutEndsTheSessionAndTheirNumberIsBounded() {
        ConsoleSessions sessions = new ConsoleSessions("t", 60_000, now::get);
        ConsoleSessions.Session first = sessions.login("t");
        sessions.logout(first.id());
        assertNull(sessions.find(first.id()));
        for (int i = 0; i < ConsoleSessions.MAX_SESSIONS * 2; i++) {
            now.incrementAndGet();
            sessions.login("t");
        }
        assertTrue(sessions.size() <= ConsoleSessions.MAX_SESSIONS, "sessions " + sessions.size());
    }

    @Test
    void cookieIsHttpOnlyStrictAndScoped() {
        ConsoleSessions.Session s = new ConsoleSessions("t", 1, now::get).login("t");
        String cookie = ConsoleSessions.cookie(s, false);
        assertTrue(cookie.startsWith(ConsoleSessions.COOKIE + "=" + s.id() + ";"), cookie);
        assertTrue(cookie.contains("; HttpOnly"));
        assertTrue(cookie.contains("; SameSite=Strict"));
        assertTrue(cookie.contains("; Path=/console"));
        assertFalse(cookie.contains("Secure"));
        assertTrue(ConsoleSessions.cookie(s, true).endsWith("; Secure"));
    }
}
