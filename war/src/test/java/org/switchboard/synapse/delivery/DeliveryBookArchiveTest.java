package org.switchboard.synapse.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.snapshot.SnapshotReader;
import org.switchboard.journal.snapshot.SnapshotWriter;

/** A finished request moved into the terminal archive answers every read as it did while it was an object. */
class DeliveryBookArchiveTest {

    private double now = 1_000_000;
    private final DeliveryBook book = new DeliveryBook(() -> now);

    private static Aggregate queued(String key, long order) {
        DeliveryIntent intent = new DeliveryIntent("p/sender", "rq-" + key, "idem-" + key, "p/recipient", "inc-ü",
                "interrupt", List.of("follow_up"), key.endsWith("0") ? null : "T-" + key, "{\"n\":" + order + "}", 9e9 + order);
        return new Aggregate(key, intent, "hub-a", "hub-b", "digest-" + key, "follow_up", "degraded", Stage.QUEUED,
                false, false, false, 1, 0, order, "offer text");
    }

    /** Admits {@code key}, takes it to boundary then completed, each change committed as the service does. */
    private Aggregate admitAndComplete(String key, long order) {
        Aggregate q = queued(key, order);
        assertEquals(DeliveryBook.Admission.ADMITTED, book.admit(q));
        book.committed(key, 1, 10 * order, null);
        Aggregate boundary = book.get(key).moved(Stage.BOUNDARY_DELIVERED);
        assertEquals(DeliveryBook.Applied.APPLIED, book.apply(1, boundary, "b-" + key, "db-" + key));
        book.committed(key, 2, 10 * order + 1, "b-" + key);
        Aggregate done = book.get(key).moved(Stage.COMPLETED);
        assertEquals(DeliveryBook.Applied.APPLIED, book.apply(2, done, "c-" + key, "dc-" + key));
        book.committed(key, 3, 10 * order + 2, "c-" + key);
        return book.get(key);
    }

    private static void assertSameState(Aggregate live, Aggregate archived) {
        // what a terminal request no longer needs is dropped: its body, fallbacks and offer
        DeliveryIntent i = live.intent();
        DeliveryIntent stripped = new DeliveryIntent(i.sender(), i.requestId(), i.idempotencyKey(), i.target(),
                i.targetIncarnation(), i.mode(), List.of(), i.taskId(), "", i.deadline());
        assertEquals(new Aggregate(live.operationKey(), stripped, live.originHub(), live.receivingHub(), live.digest(),
                live.selectedMode(), live.quality(), live.stage(), live.cancelRequested(), live.boundaryDelivered(),
                live.explicitlyAcknowledged(), live.ordinal(), live.latestEventSeq(), live.admittedOrder(), null), archived);
    }

    @Test
    void anArchivedRequestAnswersRetriesStatusReadsAndReplayedReports() {
        Aggregate live = admitAndComplete("k1", 1);
        assertEquals(0, book.forgetClosed(now), "closed just now: still an object");
        assertSame(live, book.get("k1"));
        assertEquals(0, book.terminalArchived());

        now += DeliveryBook.ARCHIVE_AFTER_SECONDS + 1;
        assertEquals(0, book.forgetClosed(now), "no retention set: archived, not forgotten");
        assertEquals(1, book.terminalArchived());
        assertEquals(1, book.terminalHeld());
        assertEquals(1, book.size());

        assertSameState(live, book.get("k1"));
        assertSameState(live, book.byIdempotency("p/sender", "idem-k1"));
        assertEquals(new DeliveryBook.Mutation("dc-k1", 12), book.mutation("k1", "c-k1"));
        assertEquals(new DeliveryBook.Mutation("db-k1", 11), book.mutation("k1", "b-k1"));
        assertNull(book.mutation("k1", "other"));

        assertEquals(DeliveryBook.Admission.RETRY, book.admit(queued("k1", 9)), "same key and digest");
        Aggregate otherDigest = new Aggregate("k1", queued("k1", 9).intent(), "hub-a", "hub-b", "changed", "follow_up",
                "degraded", Stage.QUEUED, false, false, false, 1, 0, 9, null);
        assertEquals(DeliveryBook.Admission.ID_CONFLICT, book.admit(otherDigest));
        Aggregate otherKeySamePair = new Aggregate("k9", queued("k1", 9).intent(), "hub-a", "hub-b", "digest-k1",
                "follow_up", "degraded", Stage.QUEUED, false, false, false, 1, 0, 9, null);
        assertEquals(DeliveryBook.Admission.ID_CONFLICT, book.admit(otherKeySamePair), "the pair still names k1");

        Aggregate again = live.moved(Stage.COMPLETED);
        assertEquals(DeliveryBook.Applied.REPLAY, book.apply(3, again, "c-k1", "dc-k1"));
        assertEquals(DeliveryBook.Applied.ID_CONFLICT, book.apply(3, again, "c-k1", "other digest"));
        assertEquals(DeliveryBook.Applied.STATE_CONFLICT, book.apply(3, again, "new-mutation", "d"),
                "nothing moves a finished request");
        assertEquals(DeliveryBook.Applied.UNKNOWN, book.apply(3, queued("k2", 2), "m", "d"));
    }

    @Test
    void textsOfEveryKindReadBackExactly() {
        TerminalArchive archive = new TerminalArchive();
        String key = "0123456789abcdef".repeat(4);
        DeliveryIntent intent = new DeliveryIntent("p/sénder", "abc", "00ff", "p/recipient", "fe".repeat(32), "queue",
                List.of(), "", "", 1.5);
        Aggregate a = new Aggregate(key, intent, "hub-a", "hub-a", "ABCDEF", "queue", null, Stage.CANCELLED, true, false,
                true, 7, Long.MAX_VALUE, 1L << 62, null);
        archive.add(a, true, List.of("m-1", "0a"), List.of(new DeliveryBook.Mutation("d".repeat(64), 5),
                new DeliveryBook.Mutation(null, 0)), 42.25);
        TerminalArchive.Entry e = archive.get(key);
        assertEquals(a, e.aggregate(), "hex packed only where it reads back the same: lowercase, even length, not empty");
        assertEquals(List.of("m-1", "0a"), e.mutationIds());
        assertEquals(List.of(new DeliveryBook.Mutation("d".repeat(64), 5), new DeliveryBook.Mutation(null, 0)), e.mutations());
        assertEquals(42.25, e.closedAt());
        assertEquals(key, archive.byPair("p/sénder", "00ff").aggregate().operationKey());
        assertNull(archive.byPair("p/sénder", "00FF"));
        assertNull(archive.get(key.toUpperCase(java.util.Locale.ROOT)));
    }

    @Test
    void aTerminalChangeWhoseCommitHasNotReturnedStaysAnObject() {
        Aggregate q = queued("k1", 1);
        book.admit(q);
        book.committed("k1", 1, 10, null);
        Aggregate done = q.moved(Stage.REJECTED);
        book.apply(1, done, "r-k1", "dr-k1");
        now += 3600;
        book.forgetClosed(now);
        assertEquals(0, book.terminalArchived(), "its event has no seq yet");
        assertSame(done, book.get("k1"));
        book.rollback(q, done, "r-k1"); // the commit failed: back to queued, nothing archived
        assertEquals(Stage.QUEUED, book.get("k1").stage());
        now += 3600;
        book.forgetClosed(now);
        assertEquals(0, book.terminalArchived());
    }

    @Test
    void manyArchivedRequestsAcrossSegmentsAreForgottenEarliestFirstAndTheRestStillFound() {
        book.terminalRetention(0, 5_000);
        for (int n = 0; n < 12_000; n++) {
            admitAndComplete("key-" + n, n + 1);
        }
        now += DeliveryBook.FORGET_GRACE_SECONDS + 1;
        assertEquals(7_000, book.forgetClosed(now), "beyond the cap of 5,000 the earliest closed go");
        assertEquals(5_000, book.terminalArchived());
        assertEquals(7_000, book.forgotten());
        for (int n = 0; n < 12_000; n++) {
            String key = "key-" + n;
            if (n < 7_000) {
                assertNull(book.get(key), key);
                assertNull(book.byIdempotency("p/sender", "idem-" + key), key);
            } else {
                assertEquals(key, book.get(key).operationKey());
                assertEquals(key, book.byIdempotency("p/sender", "idem-" + key).operationKey());
                assertEquals(10L * (n + 1) + 2, book.mutation(key, "c-" + key).eventSeq());
            }
        }
        assertEquals(DeliveryBook.Admission.ADMITTED, book.admit(queued("key-3", 99_999)),
                "a forgotten request's key and pair admit anew");
        for (int n = 12_000; n < 14_000; n++) {
            admitAndComplete("key-" + n, n + 1); // the indexes take new entries among the dead ones
        }
        now += DeliveryBook.FORGET_GRACE_SECONDS + 1;
        assertEquals(2_000, book.forgetClosed(now));
        assertNull(book.get("key-8999"));
        assertEquals("key-9000", book.get("key-9000").operationKey());
        assertEquals("key-13999", book.get("key-13999").operationKey());
    }

    @Test
    void theArchiveCountsTheSegmentsItHoldsOutsideTheHeapAndGivesForgottenOnesBack() {
        assertEquals(0, book.terminalArchiveBytes());
        book.terminalRetention(0, 1_000);
        for (int n = 0; n < 6_000; n++) {
            admitAndComplete("key-" + n, n + 1);
        }
        now += DeliveryBook.ARCHIVE_AFTER_SECONDS * 2;
        assertEquals(0, book.forgetClosed(now), "archived, none forgotten yet");
        assertEquals(6_000, book.terminalArchived());
        long held = book.terminalArchiveBytes();
        assertTrue(held >= 4 * 256 * 1024, "6,000 records of ~200 bytes fill several 256 KiB segments: " + held);
        assertEquals(0, held % (256 * 1024), "whole segments: " + held);
        now += DeliveryBook.FORGET_GRACE_SECONDS + 1;
        assertEquals(5_000, book.forgetClosed(now));
        long after = book.terminalArchiveBytes();
        assertTrue(after < held / 2, "the segments of forgotten records are given back: " + held + " -> " + after);
        assertTrue(after > 0, "the last 1,000 records are still held");
        assertEquals("key-5999", book.get("key-5999").operationKey());
    }

    @Test
    void aSnapshotCarriesArchivedRequestsAndReadsBackToTheSameText() {
        Aggregate first = admitAndComplete("k1", 1);
        admitAndComplete("k3", 3);
        book.admit(queued("k2", 2));
        now += DeliveryBook.ARCHIVE_AFTER_SECONDS + 1;
        book.forgetClosed(now);
        assertEquals(2, book.terminalArchived());
        String text = SnapshotWriter.write(book::writeSnapshot);

        DeliveryBook copy = new DeliveryBook(() -> now);
        SnapshotReader.read("delivery", text, in -> {
            copy.readSnapshot(in);
            return null;
        });
        assertSameState(first, copy.get("k1"));
        assertEquals(new DeliveryBook.Mutation("dc-k1", 12), copy.mutation("k1", "c-k1"));
        assertEquals("k2", copy.get("k2").operationKey());
        assertEquals(text, SnapshotWriter.write(copy::writeSnapshot), "read back as objects: the same rows");
        copy.forgetClosed(now + DeliveryBook.ARCHIVE_AFTER_SECONDS + 1);
        assertEquals(2, copy.terminalArchived());
        assertEquals(text, SnapshotWriter.write(copy::writeSnapshot), "archived again: the same rows");
        assertNotNull(copy.byIdempotency("p/sender", "idem-k3"));
    }
}
