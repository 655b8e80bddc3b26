package org.switchboard.synapse.messageauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Row keys of the replay store: expiry first, so later expiries sort later and expired rows form a key range. */
class NonceRowKeyTest {

    private static final String ID = NonceCache.id("hmac", "k1", "team/alice", "n1");

    @Test
    void aKeyFitsTheColumnAndGivesItsIdentityBack() {
        String key = NonceRowKey.of(ID, 1_800_000_011.25);
        assertEquals(64, key.length());
        assertEquals("1a3185c7bf2.", key.substring(0, 12), "expiry in hex milliseconds, then a dot");
        assertEquals(ID, NonceRowKey.identity(key));
    }

    @Test
    void keysSortByExpiryWhateverTheIdentity() {
        String earlier = NonceRowKey.of("f".repeat(NonceRowKey.MAX_ID_CHARS), 1_800_000_010.000);
        String later = NonceRowKey.of("0".repeat(NonceRowKey.MAX_ID_CHARS), 1_800_000_010.001);
        assertTrue(earlier.compareTo(later) < 0);
        assertTrue(earlier.compareTo(NonceRowKey.prefix(1_800_000_010.001)) < 0, "expired before the bound: below it");
        assertTrue(later.compareTo(NonceRowKey.prefix(1_800_000_010.001)) >= 0, "expiring at the bound: kept");
    }

    @Test
    void aKeyOfTheBareHashFormReadsAsItsFirstDigits() {
        String bare = "0123456789abcdef".repeat(4); // a row written before expiry-first keys
        assertEquals(bare.substring(0, NonceRowKey.MAX_ID_CHARS), NonceRowKey.identity(bare));
    }

    @Test
    void anIdentityTooLongForTheColumnIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> NonceRowKey.of("a".repeat(NonceRowKey.MAX_ID_CHARS + 1), 1));
    }
}
