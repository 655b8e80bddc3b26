package org.switchboard.synapse.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Readers that take no lock (get, byIdempotency, mutation) while a writer admits, moves, commits and archives:
 * a request once admitted is always found, live or archived, and a stored mutation never goes missing.
 */
class DeliveryBookReadersTest {

    private static final int REQUESTS = 20_000;

    private volatile double now = 1_000_000;
    private final DeliveryBook book = new DeliveryBook(() -> now);

    private static Aggregate queued(String key, long order) {
        DeliveryIntent intent = new DeliveryIntent("p/sender", "rq-" + key, "idem-" + key, "p/recipient", "inc",
                "follow_up", List.of(), null, "{}", 9e9);
        return new Aggregate(key, intent, "hub-a", "hub-a", "digest-" + key, "follow_up", "exact", Stage.QUEUED,
                false, false, false, 1, 0, order, "offer text");
    }

    @Test
    void readersWithoutTheLockFindEveryRequestWhileItMovesAndIsArchived() throws Exception {
        AtomicInteger admitted = new AtomicInteger();
        AtomicBoolean done = new AtomicBoolean();
        ConcurrentLinkedQueue<String> misses = new ConcurrentLinkedQueue<>();
        AtomicInteger reads = new AtomicInteger();
        withReaders(() -> read(admitted, done, misses, reads), done, misses, () -> {
            for (int n = 0; n < REQUESTS; n++) {
                String key = "k" + n;
                assertEquals(DeliveryBook.Admission.ADMITTED, book.admit(queued(key, n + 1)));
                admitted.set(n + 1);
                book.committed(key, 1, 10L * n, null);
                assertEquals(DeliveryBook.Applied.APPLIED, book.apply(1, book.get(key).moved(Stage.BOUNDARY_DELIVERED), "b-" + key, "db"));
                book.committed(key, 2, 10L * n + 1, "b-" + key);
                assertEquals(DeliveryBook.Applied.APPLIED, book.apply(2, book.get(key).moved(Stage.COMPLETED), "c-" + key, "dc"));
                book.committed(key, 3, 10L * n + 2, "c-" + key);
                now += 0.01; // each commit archives the requests closed ARCHIVE_AFTER_SECONDS before
            }
        });
        assertTrue(book.terminalArchived() > REQUESTS / 2, "most requests went into the archive meanwhile: " + book.terminalArchived());
        assertTrue(misses.isEmpty(), misses.size() + " reads missed a request, first " + misses.peek());
    }

    /** One reader: random admitted requests, read the three ways, until the writer is done and enough were read. */
    private void read(AtomicInteger admitted, AtomicBoolean done, ConcurrentLinkedQueue<String> misses, AtomicInteger reads) {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        while (!done.get() || reads.get() < 100_000) {
            int known = admitted.get();
            if (known == 0) {
                Thread.onSpinWait();
                continue;
            }
            int n = random.nextInt(known);
            String key = "k" + n;
            if (book.get(key) == null) {
                misses.add("get " + key);
            }
            if (book.byIdempotency("p/sender", "idem-" + key) == null) {
                misses.add("byIdempotency " + key);
            }
            Aggregate seen = book.get(key);
            // once the boundary's change committed (its seq, 10n + 1, recorded): apply stores a mutation just after
            // the new state, so a reader may see ordinal 2 a moment before "b-" is there, and apply itself re-checks
            if (seen != null && seen.latestEventSeq() >= 10L * n + 1 && book.mutation(key, "b-" + key) == null) {
                misses.add("mutation b-" + key);
            }
            reads.incrementAndGet();
        }
    }

    @Test
    void aRequestKeptForItsPendingNotificationIsNeverMissingWhileItsRecordIsRewritten() throws Exception {
        book.terminalRetention(1, 0);
        Aggregate q = queued("kept", 1);
        assertEquals(DeliveryBook.Admission.ADMITTED, book.admit(q));
        book.committed("kept", 1, 10, null);
        assertEquals(DeliveryBook.Applied.APPLIED, book.apply(1, book.get("kept").moved(Stage.COMPLETED), "c-kept", "dc"));
        book.committed("kept", 2, 11, "c-kept");
        book.notifications().add(new PendingNotifications.Entry(77, "p/sender", "kept", 2, Stage.COMPLETED, false,
                Stage.Source.RECIPIENT, now));
        AtomicBoolean done = new AtomicBoolean();
        ConcurrentLinkedQueue<String> misses = new ConcurrentLinkedQueue<>();
        withReaders(() -> {
            while (!done.get()) {
                if (book.get("kept") == null) {
                    misses.add("get");
                }
                if (book.byIdempotency("p/sender", "idem-kept") == null) {
                    misses.add("byIdempotency");
                }
                if (book.mutation("kept", "c-kept") == null) {
                    misses.add("mutation");
                }
            }
        }, done, misses, () -> {
            // each sweep finds it past the retention, keeps it for the notification and rewrites its record
            for (int sweep = 0; sweep < 20_000; sweep++) {
                now += 2;
                assertEquals(0, book.forgetClosed(now));
            }
        });
        assertEquals(1, book.terminalArchived());
        assertTrue(misses.isEmpty(), misses.size() + " reads missed the kept request, first " + misses.peek());
    }

    /**
     * Runs {@code readLoop} on two threads while {@code writer} runs on this one, then sets {@code done} and waits
     * for them; a reader that throws records it as a miss (an archive read racing its writer must not throw).
     */
    private static void withReaders(Runnable readLoop, AtomicBoolean done, ConcurrentLinkedQueue<String> misses,
                                    Runnable writer) throws InterruptedException {
        Runnable guarded = () -> {
            try {
                readLoop.run();
            } catch (RuntimeException | Error e) {
                misses.add("threw " + e);
            }
        };
        Thread[] readers = {new Thread(guarded), new Thread(guarded)};
        for (Thread t : readers) {
            t.start();
        }
        try {
            writer.run();
        } finally {
            done.set(true);
            for (Thread t : readers) {
                t.join();
            }
        }
    }
}
