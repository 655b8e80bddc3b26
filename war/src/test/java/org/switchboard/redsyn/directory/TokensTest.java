package org.switchboard.redsyn.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TokensTest {

    @Test
    void tokensAreRandomAndOnlyTheirHashIsKept() {
        String a = Tokens.newToken();
        String b = Tokens.newToken();
        assertNotEquals(a, b);
        assertTrue(a.startsWith("rsn_"));
        assertEquals(64, Tokens.hash(a).length());
        assertEquals(Tokens.hash(a), Tokens.hash(a));
        assertFalse(Tokens.hash(a).contains(a.substring(4)));
    }

    @Test
    void sameSecretComparesWholeValues() {
        assertTrue(Tokens.sameSecret("abc", "abc"));
        assertFalse(Tokens.sameSecret("abc", "abd"));
        assertFalse(Tokens.sameSecret("abc", null));
    }

    @Test
    void presenceWindow() {
        assertTrue(Presence.online(10_000, 69_999, 60));
        assertFalse(Presence.online(10_000, 70_000, 60));
        assertFalse(Presence.online(0, 1, 60));
    }
}
