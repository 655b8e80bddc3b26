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
