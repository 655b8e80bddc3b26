package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PeriodicFileTaskTest {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final List<Exception> failures = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    @Test
    void syncsRepeatedlyAtTheInterval() throws Exception {
        CountDownLatch threeSyncs = new CountDownLatch(3);
        PeriodicFileTask sync = new PeriodicFileTask(threeSyncs::countDown, failures::add);

        assertTrue(sync.start(scheduler, 5));
        assertTrue(threeSyncs.await(5, TimeUnit.SECONDS), "three syncs within 5 s at a 5 ms interval");
        assertTrue(sync.completed() >= 2, "completed counts the syncs that returned");
        assertTrue(sync.running());
        assertTrue(failures.isEmpty());
        sync.close();
        assertFalse(sync.running());
    }

    @Test
    void aZeroIntervalNeverSyncs() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        PeriodicFileTask sync = new PeriodicFileTask(calls::incrementAndGet, failures::add);

        assertFalse(sync.start(scheduler, 0));
        assertFalse(sync.start(scheduler, -1));
        Thread.sleep(50);
        assertEquals(0, calls.get());
        assertFalse(sync.running());
    }

    @Test
    void theFirstFailureIsReportedOnceAndStopsTheSchedule() throws Exception {
        SQLException refused = new SQLException("Admin rights are required for this operation");
        AtomicInteger calls = new AtomicInteger();
        PeriodicFileTask sync = new PeriodicFileTask(() -> {
            calls.incrementAndGet();
            throw refused;
        }, failures::add);

        assertTrue(sync.start(scheduler, 2));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (failures.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        Thread.sleep(50); // ~25 more intervals: none may run after the failure
        assertEquals(1, failures.size());
        assertSame(refused, failures.get(0));
        assertEquals(1, calls.get(), "no sync after the schedule was cancelled");
        assertEquals(0, sync.completed());
        assertFalse(sync.running());
    }
}
