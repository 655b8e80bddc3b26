package org.switchboard.synapse.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The bounds on stored notifications nobody has taken: per audience and in total, oldest first. */
class PendingNotificationsTest {

    private static PendingNotifications.Entry entry(long seq, String audience) {
        return new PendingNotifications.Entry(seq, audience, "k".repeat(64), 2, Stage.REJECTED, false, Stage.Source.RECIPIENT, seq);
    }

    @Test
    void perAudienceBoundDropsThatAudiencesOldest() {
        PendingNotifications pending = new PendingNotifications();
        assertTrue(pending.addBounded(entry(1, "a"), 2, 10).isEmpty());
        assertTrue(pending.addBounded(entry(2, "b"), 2, 10).isEmpty());
        assertTrue(pending.addBounded(entry(3, "a"), 2, 10).isEmpty());
        List<PendingNotifications.Entry> dropped = pending.addBounded(entry(4, "a"), 2, 10);
        assertEquals(List.of(1L), dropped.stream().map(PendingNotifications.Entry::seq).toList());
        assertFalse(pending.contains(1));
        assertTrue(pending.contains(2), "another audience is untouched");
        assertEquals(List.of(3L, 4L), pending.page("a", 0, 10).stream().map(PendingNotifications.Entry::seq).toList());
        assertFalse(pending.remove(1), "a dropped entry is gone, so a late send is not marked twice");
    }

    @Test
    void totalBoundDropsTheOldestOfAll() {
        PendingNotifications pending = new PendingNotifications();
        pending.addBounded(entry(1, "a"), 10, 3);
        pending.addBounded(entry(2, "b"), 10, 3);
        pending.addBounded(entry(3, "c"), 10, 3);
        List<PendingNotifications.Entry> dropped = pending.addBounded(entry(4, "c"), 10, 3);
        assertEquals(List.of(1L), dropped.stream().map(PendingNotifications.Entry::seq).toList());
        assertEquals(3, pending.size());
        assertTrue(pending.page("a", 0, 10).isEmpty());
        assertEquals(List.of(3L, 4L), pending.page("c", 0, 10).stream().map(PendingNotifications.Entry::seq).toList());
    }
}
