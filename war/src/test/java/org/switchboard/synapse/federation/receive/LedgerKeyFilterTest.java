package org.switchboard.synapse.federation.receive;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The inbound ledger's key filter: no false "absent", few false "maybe". */
class LedgerKeyFilterTest {

    @Test
    void everyAddedKeyMightBeThere() {
        LedgerKeyFilter filter = new LedgerKeyFilter(16);
        for (int i = 0; i < 5_000; i++) {
            filter.add("hub-a " + Integer.toHexString(i * 7919));
        }
        for (int i = 0; i < 5_000; i++) {
            assertTrue(filter.mightContain("hub-a " + Integer.toHexString(i * 7919)), "key " + i);
        }
    }

    @Test
    void keysNeverAddedAreMostlyAbsent() {
        LedgerKeyFilter filter = new LedgerKeyFilter(16); // 65,536 bits for 2,000 keys: ~0.2% expected
        for (int i = 0; i < 2_000; i++) {
            filter.add("hub-a " + java.util.UUID.nameUUIDFromBytes(("in" + i).getBytes()).toString().replace("-", ""));
        }
        int maybe = 0;
        for (int i = 0; i < 20_000; i++) {
            if (filter.mightContain("hub-a " + java.util.UUID.nameUUIDFromBytes(("out" + i).getBytes()).toString().replace("-", ""))) {
                maybe++;
            }
        }
        assertTrue(maybe < 200, "false 'maybe' answers: " + maybe + " of 20,000");
    }

    @Test
    void anEmptyFilterSaysAbsent() {
        assertTrue(!new LedgerKeyFilter(10).mightContain("hub-a f-1"));
        assertThrows(IllegalArgumentException.class, () -> new LedgerKeyFilter(3));
    }
}
