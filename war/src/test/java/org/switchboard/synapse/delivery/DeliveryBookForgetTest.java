package org.switchboard.synapse.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.snapshot.SnapshotReader;
import org.switchboard.journal.snapshot.SnapshotWriter;

/** Terminal requests leave the book's memory by age or beyond a count, never while still needed. */
class DeliveryBookForgetTest {

    private double now = 1_000_000;
    private final DeliveryBook book = new DeliveryBook(() -> now);

    private static Aggregate queued(String key, long order) {
        DeliveryIntent intent = new DeliveryIntent("p/sender", "rq-" + key, "idem-" + key, "p/recipient", "inc",
                "follow_up", List.of(), "T", "body", 9e9);
        return new Aggregate(key, intent, "hub-a", "hub-a", "digest-" + key, "follow_up", "native", Stage.QUEUED,
                false, false, false, 1, order, order, null);
    }

    /** Admits {@code key} and completes it through a recipient mutation, closing it at the current time. */
    private void admitAndComplete(String key, long order) {
        Aggregate q = queued(key, order);
        assertEquals(DeliveryBook.Admission.ADMITTED, book.admit(q));
        assertEquals(DeliveryBook.Applied.APPLIED, book.apply(1, q.moved(Stage.COMPLETED), "m-" + key, "d-" + key));
        book.committed(key, 2, 10 * order, "m-" + key); // as the service does once the change's event committed
    }

    @Test
    void aRequestClosedLongerThanTheRetentionIsForgottenWithItsPairAndMutations() {
        book.terminalRetention(3600, 0);
        admitAndComplete("k1", 1);
        now += 1800;
        admitAndComplete("k2", 2);
        Aggregate open = queued("k3", 3);
        book.admit(open);

        now += 1801; // k1 closed 3,601 s ago, k2 1,801 s ago
        assertEquals(1, book.forgetClosed(now));

        assertNull(book.get("k1"));
        assertNull(book.byIdempotency("p/sender", "idem-k1"));
        assertNull(book.mutation("k1", "m-k1"));
        assertNotNull(book.get("k2"), "closed within the retention");
        assertSame(open, book.get("k3"), "open requests are never forgotten");
        assertEquals(1, book.forgotten());
        assertEquals(1, book.terminalHeld());
        assertEquals(DeliveryBook.Admission.ADMITTED, book.admit(queued("k1", 4)),
                "a forgotten request's idempotency pair admits anew");
    }

    @Test
    void beyondTheCountTheEarliestClosedGoOnlyOnceTheGraceHasPassed() {
        book.terminalRetention(0, 2);
        admitAndComplete("k1", 1);
        admitAndComplete("k2", 2);
        admitAndComplete("k3", 3);
        assertEquals(0, book.forgetClosed(now), "within the grace nothing goes, whatever the count");

        now += DeliveryBook.FORGET_GRACE_SECONDS + 1;
        admitAndComplete("k4", 4);
        assertEquals(2, book.forgetClosed(now), "k1 and k2 go; k3 stays within the cap of two with k4");
        assertNull(book.get("k1"));
        assertNull(book.get("k2"));
        assertNotNull(book.get("k3"));
        assertNotNull(book.get("k4"));
        assertEquals(0, book.forgetClosed(now + 1_000_000), "at the cap nothing more goes");
    }

    @Test
    void aRequestWithAPendingNotificationIsKeptUntilItWasTaken() {
        book.terminalRetention(60, 0);
        admitAndComplete("k1", 1);
        book.notifications().add(new PendingNotifications.Entry(77, "p/sender", "k1", 2, Stage.COMPLETED, false,
                Stage.Source.RECIPIENT, now));

        now += 61;
        assertEquals(0, book.forgetClosed(now));
        assertNotNull(book.get("k1"), "its sender has not taken the completed notification yet");

        book.notifications().remove(77);
        now += 30;
        assertEquals(0, book.forgetClosed(now), "its clock restarted when it was kept");
        now += 31;
        assertEquals(1, book.forgetClosed(now));
        assertNull(book.get("k1"));
    }

    @Test
    void aStaleEntryNeverForgetsARequestAdmittedAgainUnderTheSameKey() {
        book.terminalRetention(60, 0);
        admitAndComplete("k1", 1);
        now += 30;
        // a replayed second admission of the same key (a retry after an earlier hub forgot the first) replaces it
        Aggregate again = queued("k1", 2);
        book.restore(again);
        book.restore(again.moved(Stage.COMPLETED), "m2-k1", "d2-k1");

        now += 31; // the first admission closed 61 s ago, the second 31 s ago
        assertEquals(0, book.forgetClosed(now), "the first admission's entry no longer names the request held");
        assertSame(2L, book.get("k1").admittedOrder());
        now += 30;
        assertEquals(1, book.forgetClosed(now));
        assertNull(book.get("k1"));
    }

    @Test
    void terminalRequestsReadFromASnapshotAreForgottenTheRetentionAfterTheRestore() {
        book.terminalRetention(3600, 0);
        admitAndComplete("k1", 1);
        book.admit(queued("k2", 2));
        String text = SnapshotWriter.write(book::writeSnapshot);

        now += 10 * 3600;
        DeliveryBook copy = new DeliveryBook(() -> now);
        SnapshotReader.read("delivery", text, in -> {
            copy.readSnapshot(in);
            return null;
        });
        copy.terminalRetention(3600, 0);
        assertEquals("d-k1", copy.mutation("k1", "m-k1").digest());
        assertEquals(1, copy.terminalHeld());
        assertEquals(0, copy.forgetClosed(now + 3599), "restored now: kept a whole retention from here");
        assertEquals(1, copy.forgetClosed(now + 3601));
        assertNull(copy.get("k1"));
        assertNotNull(copy.get("k2"));
    }
}
