package org.switchboard.redsyn.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Ids drawn a block at a time from a sequence that JPA draws from too. */
class IdBlockTest {

    @Test
    void aBlockEndsAtTheValueReadAndTheNextReadComesOnlyWhenItIsSpent() {
        AtomicLong sequence = new AtomicLong(); // each read adds the increment, as the sequence does
        AtomicLong reads = new AtomicLong();
        IdBlock ids = new IdBlock(3);
        long[] got = new long[7];
        for (int i = 0; i < got.length; i++) {
            got[i] = ids.next(() -> {
                reads.incrementAndGet();
                return sequence.addAndGet(3);
            });
        }
        assertEquals("[1, 2, 3, 4, 5, 6, 7]", java.util.Arrays.toString(got));
        assertEquals(3, reads.get(), "one read per three ids, the third block started");
    }

    @Test
    void idsGivenHereNeverMeetThoseJpaHandsOutFromTheSameSequence() {
        int size = 5;
        AtomicLong sequence = new AtomicLong();
        IdBlock ours = new IdBlock(size);
        IdBlock jpaLike = new IdBlock(size); // EclipseLink and Hibernate's pooled optimiser: the block ending at the read
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            IdBlock which = i % 3 == 0 ? jpaLike : ours;
            long id = which.next(() -> sequence.addAndGet(size));
            assertTrue(id > 0);
            assertTrue(seen.add(id), "id " + id + " given twice");
        }
        assertFalse(seen.isEmpty());
    }

    @Test
    void aBlockHasAtLeastOneId() {
        assertThrows(IllegalArgumentException.class, () -> new IdBlock(0));
    }
}
