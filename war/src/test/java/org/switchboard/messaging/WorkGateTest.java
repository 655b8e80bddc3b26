package org.switchboard.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WorkGateTest {

    @Test
    void anOpenGateAdmitsAndAClosedOneRefuses() throws Exception {
        WorkGate gate = new WorkGate();
        assertTrue(gate.enter());
        gate.leave();
        assertEquals(0, gate.closeAndDrain(Duration.ofMillis(10)));
        assertTrue(gate.closed());
        assertFalse(gate.enter());
    }

    @Test
    void closingWaitsForTheItemInFlightToEnd() throws Exception {
        WorkGate gate = new WorkGate();
        assertTrue(gate.enter());
        CountDownLatch closing = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            try {
                closing.await(5, TimeUnit.SECONDS);
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            gate.leave();
        });
        worker.start();
        closing.countDown();
        long started = System.nanoTime();
        assertEquals(0, gate.closeAndDrain(Duration.ofSeconds(5)));
        assertTrue(System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(50), "returned before the item ended");
        worker.join();
    }

    @Test
    void closingGivesUpAfterItsPatienceAndSaysHowManyAreLeft() throws Exception {
        WorkGate gate = new WorkGate();
        assertTrue(gate.enter());
        assertTrue(gate.enter());
        gate.leave();
        assertEquals(1, gate.closeAndDrain(Duration.ofMillis(50)));
        assertFalse(gate.enter());
    }
}
