package org.switchboard.lifecycle;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class ExecutorStopTest {

    @Test
    void waitsUntilARunningTaskHasEndedAndItsThreadIsGone() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        CountDownLatch started = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            sleep(200);
        });
        started.await();
        pool.shutdown();
        assertFalse(pool.isTerminated());
        assertTrue(ExecutorStop.awaitAll(Duration.ofSeconds(5), null, pool));
        assertTrue(pool.isTerminated());
    }

    @Test
    void aPassedDeadlineReportsTheExecutorsStillRunning() {
        ExecutorService first = Executors.newSingleThreadExecutor();
        ExecutorService second = Executors.newSingleThreadExecutor();
        CountDownLatch release = new CountDownLatch(1);
        second.execute(() -> await(release));
        first.shutdown();
        second.shutdown();
        assertFalse(ExecutorStop.awaitAll(Duration.ZERO, first, second));
        assertFalse(second.isTerminated());
        release.countDown();
        assertTrue(ExecutorStop.awaitAll(Duration.ofSeconds(5), first, second));
    }

    /**
     * A managed thread ends its container invocation (closing the entity managers it used) after its pool's
     * work loop returned, which is after the pool counts as terminated: the stop waits for that too.
     */
    @Test
    void waitsForTrackedThreadsToEndNotOnlyForTheirPoolToTerminate() {
        java.util.concurrent.atomic.AtomicBoolean cleanedUp = new java.util.concurrent.atomic.AtomicBoolean();
        ExecutorStop.TrackedThreads threads = ExecutorStop.tracked(task -> new Thread(() -> {
            task.run();
            Thread.interrupted(); // shutdownNow interrupted the worker; the clean-up still takes its time
            sleep(300); // the container's end-of-invocation clean-up, after the worker left the pool
            cleanedUp.set(true);
        }));
        ExecutorService pool = Executors.newFixedThreadPool(2, threads);
        pool.execute(() -> { });
        pool.execute(() -> { });
        pool.shutdownNow();
        assertTrue(ExecutorStop.awaitEnded(Duration.ofSeconds(5), threads, pool));
        assertTrue(pool.isTerminated());
        assertTrue(cleanedUp.get(), "returned while a pool thread was still ending");
    }

    @Test
    void aTrackedThreadStillEndingAtTheDeadlineIsReported() {
        CountDownLatch release = new CountDownLatch(1);
        ExecutorStop.TrackedThreads threads = ExecutorStop.tracked(task -> new Thread(() -> {
            task.run();
            await(release);
        }));
        ExecutorService pool = Executors.newSingleThreadExecutor(threads);
        pool.execute(() -> { });
        pool.shutdown();
        assertFalse(ExecutorStop.awaitEnded(Duration.ofMillis(200), threads, pool));
        release.countDown();
        assertTrue(ExecutorStop.awaitEnded(Duration.ofSeconds(5), threads, pool));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
