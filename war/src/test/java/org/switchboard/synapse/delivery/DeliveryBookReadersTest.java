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
        Runnable reader = () -> {
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
                if (seen != null && seen.ordinal() >= 2 && book.mutation(key, "b-" + key) == null) {
                    misses.add("mutation b-" + key);
                }
                reads.incrementAndGet();
            }
        };
        Thread[] readers = {new Thread(reader), new Thread(reader)};
        for (Thread t : readers) {
            t.start();
        }
        try {
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
        } finally {
            done.set(true);
            for (Thread t : readers) {
                t.join();
            }
        }
        assertTrue(book.terminalArchived() > REQUESTS / 2, "most requests went into the archive meanwhile: " + book.terminalArchived());
        assertTrue(misses.isEmpty(), misses.size() + " reads missed a request, first " + misses.peek());
    }
}
