package org.switchboard.synapse.claims;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.idempotency.MutationCommit;

/** Many threads race overlapping claims: at every moment at most one of them holds the shared scope. */
class ClaimRaceTest {

    @Test
    void overlappingClaimsNeverHaveTwoHolders() throws Exception {
        ClaimBook book = new ClaimBook();
        int threads = 8;
        int rounds = 150;
        AtomicInteger holders = new AtomicInteger();
        AtomicInteger maxHolders = new AtomicInteger();
        AtomicInteger maxLiveOverlapping = new AtomicInteger();
        AtomicInteger grants = new AtomicInteger();
        AtomicBoolean done = new AtomicBoolean();
        CountDownLatch start = new CountDownLatch(1);
        // a slow "journal" widens the window between decision and apply
        MutationCommit slowJournal = m -> Thread.onSpinWait();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String owner = "agent-" + t;
            String path = t % 2 == 0 ? "src" : "src/module/file.py"; // prefix overlap, not equality
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    for (int r = 0; r < rounds; r++) {
                        String task = owner + "-task-" + r;
                        ClaimDecision d = book.claim(ClaimRequest.from(Frames.json(
                                "{'task_id':'" + task + "','paths':['" + path + "']}")), owner, owner, 1000.0, slowJournal);
                        if (d.granted()) {
                            grants.incrementAndGet();
                            int now = holders.incrementAndGet();
                            maxHolders.accumulateAndGet(now, Math::max);
                            Thread.yield();
                            holders.decrementAndGet();
                            book.release(ReleaseRequest.from(Frames.json("{'task_id':'" + task + "'}"), owner), owner, 1000.0,
                                    MutationCommit.NONE);
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            workers.add(w);
            w.start();
        }
        Thread sampler = new Thread(() -> {
            while (!done.get()) {
                maxLiveOverlapping.accumulateAndGet(book.liveClaims(1000.0).size(), Math::max);
                Thread.yield();
            }
        });
        sampler.start();
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        done.set(true);
        sampler.join();
        assertTrue(grants.get() > 0, "some claims were granted");
        assertEquals(1, maxHolders.get(), "two holders of overlapping scopes at once");
        assertEquals(1, maxLiveOverlapping.get(), "the book never held two overlapping live claims");
        assertEquals(0, book.liveClaims(1000.0).size());
    }
}
