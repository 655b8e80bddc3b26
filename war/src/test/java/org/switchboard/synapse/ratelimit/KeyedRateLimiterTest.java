package org.switchboard.synapse.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class KeyedRateLimiterTest {

    private long now = 5_000_000_000L;
    private static final long MS = 1_000_000L;

    @Test
    void aFullBucketAllowsTheBurstThenRefusesUntilATokenRefills() {
        KeyedRateLimiter limiter = new KeyedRateLimiter(10, 3, 100, () -> now);
        assertTrue(limiter.tryAcquire("h"));
        assertTrue(limiter.tryAcquire("h"));
        assertTrue(limiter.tryAcquire("h"));
        assertFalse(limiter.tryAcquire("h"), "burst of 3 spent");
        now += 99 * MS;
        assertFalse(limiter.tryAcquire("h"), "one token takes 100 ms at 10/s");
        now += 1 * MS;
        assertTrue(limiter.tryAcquire("h"));
        assertFalse(limiter.tryAcquire("h"));
    }

    @Test
    void refillNeverExceedsTheBurst() {
        KeyedRateLimiter limiter = new KeyedRateLimiter(10, 2, 100, () -> now);
        now += 60_000 * MS; // a minute idle
        assertTrue(limiter.tryAcquire("h"));
        assertTrue(limiter.tryAcquire("h"));
        assertFalse(limiter.tryAcquire("h"), "an idle minute still leaves only the burst");
    }

    @Test
    void sustainedTrafficAtTheRateIsAlwaysAllowed() {
        KeyedRateLimiter limiter = new KeyedRateLimiter(20, 1, 100, () -> now);
        for (int i = 0; i < 200; i++) {
            assertTrue(limiter.tryAcquire("h"), "frame " + i);
            now += 50 * MS;
        }
    }

    @Test
    void keysAreIndependentAndForgetRestoresTheBurst() {
        KeyedRateLimiter limiter = new KeyedRateLimiter(1, 1, 100, () -> now);
        assertTrue(limiter.tryAcquire("a"));
        assertFalse(limiter.tryAcquire("a"));
        assertTrue(limiter.tryAcquire("b"), "b has its own bucket");
        limiter.forget("a");
        assertTrue(limiter.tryAcquire("a"));
    }

    @Test
    void zeroBurstMeansOneSecondsWorth() {
        KeyedRateLimiter limiter = new KeyedRateLimiter(4, 0, 100, () -> now);
        for (int i = 0; i < 4; i++) {
            assertTrue(limiter.tryAcquire("h"));
        }
        assertFalse(limiter.tryAcquire("h"));
        KeyedRateLimiter slow = new KeyedRateLimiter(0.5, 0, 100, () -> now);
        assertTrue(slow.tryAcquire("h"));
        assertFalse(slow.tryAcquire("h"), "below 1/s the burst is still one frame");
    }

    @Test
    void aFloodOfKeysStaysWithinTheKeyLimit() {
        KeyedRateLimiter limiter = new KeyedRateLimiter(1, 5, 64, () -> now);
        for (int i = 0; i < 10_000; i++) {
            limiter.tryAcquire("flood-" + i); // each leaves its bucket one token short: none is idle
            assertTrue(limiter.size() <= 64, "size " + limiter.size() + " after " + i);
        }
    }

    @Test
    void evictionPrefersIdleKeysSoBusyOnesKeepTheirState() {
        KeyedRateLimiter limiter = new KeyedRateLimiter(1, 1, 10, () -> now);
        assertTrue(limiter.tryAcquire("busy"));
        now += 500 * MS; // busy still owes half a token
        for (int i = 0; i < 9; i++) {
            limiter.tryAcquire("idle-" + i);
        }
        now += 1000 * MS; // the idle ones are full again; busy owes nothing either, so spend it again
        assertTrue(limiter.tryAcquire("busy"));
        limiter.tryAcquire("newcomer"); // map at its limit: idle keys are swept
        assertTrue(limiter.size() <= 10);
        assertFalse(limiter.tryAcquire("busy"), "the busy key kept its empty bucket through the sweep");
    }

    @Test
    void concurrentTakersNeverGetMoreThanTheBurst() throws InterruptedException {
        KeyedRateLimiter limiter = new KeyedRateLimiter(0.001, 50, 100, () -> now);
        AtomicInteger granted = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 100; i++) {
                    if (limiter.tryAcquire("shared")) {
                        granted.incrementAndGet();
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(50, granted.get());
    }

    @Test
    void aRateOfZeroIsNotALimiter() {
        assertThrows(IllegalArgumentException.class, () -> new KeyedRateLimiter(0, 1, 10, () -> now));
    }
}
