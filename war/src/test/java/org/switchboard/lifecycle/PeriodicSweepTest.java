package org.switchboard.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PeriodicSweepTest {

    @Test
    void sweepsUntilClosedThenNeverAgain() throws Exception {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try {
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch three = new CountDownLatch(3);
            PeriodicSweep sweep = PeriodicSweep.start(scheduler, "periodic-sweep-test", 10, () -> {
                runs.incrementAndGet();
                three.countDown();
            });
            assertTrue(three.await(5, TimeUnit.SECONDS), "three sweeps within 5 s");
            sweep.close();
            // a run already started may finish; after it nothing more comes
            scheduler.submit(() -> { }).get();
            int afterClose = runs.get();
            Thread.sleep(100);
            assertEquals(afterClose, runs.get(), "no sweep after close");
        } finally {
            scheduler.shutdownNow();
        }
    }
}
