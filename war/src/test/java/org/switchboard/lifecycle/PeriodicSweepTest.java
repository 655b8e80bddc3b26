package org.switchboard.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PeriodicSweepTest {

    @Test
    void sweepsUntilClosedThenNeverAgain() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch three = new CountDownLatch(3);
        PeriodicSweep sweep = PeriodicSweep.start(Executors.defaultThreadFactory(), "periodic-sweep-test", 10, () -> {
            runs.incrementAndGet();
            three.countDown();
        });
        assertTrue(three.await(5, TimeUnit.SECONDS), "three sweeps within 5 s");
        sweep.close();
        // a run already started may finish; after it nothing more comes
        assertTrue(sweep.ended(5_000), "the sweep's thread ends once closed");
        int afterClose = runs.get();
        Thread.sleep(100);
        assertEquals(afterClose, runs.get(), "no sweep after close");
    }

    @Test
    void aStoppedSweepLeavesNoRunWaitingForAThread() throws Exception {
        // Payara Server sets up a waiting run's context even when it was cancelled; during stop-domain
        // that logs a SEVERE stack trace. Nothing may wait in the queue once the sweep is stopped.
        CountDownLatch ran = new CountDownLatch(1);
        PeriodicSweep sweep = PeriodicSweep.start(Executors.defaultThreadFactory(), "periodic-sweep-wait-test", 60_000,
                ran::countDown);
        assertEquals(1, sweep.waiting(), "the next run waits its minute");
        sweep.close();
        assertEquals(0, sweep.waiting(), "stopping drops the waiting run at once");
        assertTrue(sweep.ended(5_000), "and the thread ends without running it");
        assertEquals(1, ran.getCount(), "the sweep never ran");
    }
}
