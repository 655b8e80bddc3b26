package org.switchboard.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShutdownDeadlineTest {

    private final List<Integer> halts = new CopyOnWriteArrayList<>();

    @Test
    void haltsWith143WhenTheGraceRunsOutUnfinished() throws InterruptedException {
        ShutdownDeadline deadline = new ShutdownDeadline(Duration.ofMillis(50), halts::add);
        deadline.start();
        deadline.join(Duration.ofSeconds(5));
        assertEquals(List.of(143), halts);
    }

    @Test
    void aZeroGraceSwitchesTheDeadlineOff() throws InterruptedException {
        ShutdownDeadline deadline = new ShutdownDeadline(Duration.ZERO, halts::add);
        assertFalse(deadline.enabled());
        deadline.start();
        deadline.join(Duration.ofMillis(200));
        assertTrue(halts.isEmpty());
    }

    @Test
    void startingTwiceHaltsOnce() throws InterruptedException {
        ShutdownDeadline deadline = new ShutdownDeadline(Duration.ofMillis(50), halts::add);
        deadline.start();
        deadline.start();
        deadline.join(Duration.ofSeconds(5));
        Thread.sleep(100);
        assertEquals(List.of(143), halts);
    }
}
