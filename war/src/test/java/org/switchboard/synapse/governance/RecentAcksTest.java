package org.switchboard.synapse.governance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class RecentAcksTest {

    @Test
    void keepsOnlyTheMostRecentlyRecordedKeys() {
        RecentAcks<Long> acks = new RecentAcks<>(3);
        for (long seq = 1; seq <= 5; seq++) {
            acks.put("k" + seq, seq);
        }
        assertEquals(3, acks.size());
        assertNull(acks.get("k1"));
        assertNull(acks.get("k2"));
        assertEquals(5L, acks.get("k5"));
        assertEquals(3L, acks.get("k3"));
    }

    @Test
    void aLookupDoesNotKeepAnOldKeyAlive() {
        RecentAcks<Long> acks = new RecentAcks<>(2);
        acks.put("a", 1L);
        acks.put("b", 2L);
        acks.get("a");
        acks.put("c", 3L);
        assertNull(acks.get("a"), "the oldest recorded key goes first, however often it was read");
        assertEquals(2L, acks.get("b"));
    }
}
