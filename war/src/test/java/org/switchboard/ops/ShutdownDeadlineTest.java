package org.switchboard.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShutdownDeadlineTest {

    private final List<Integer> halts = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(printed, true, StandardCharsets.UTF_8);

    @Test
    void haltsWith143WhenTheGraceRunsOutUnfinished() throws InterruptedException {
        ShutdownDeadline deadline = new ShutdownDeadline(Duration.ofMillis(50), halts::add, err);
        deadline.start();
        deadline.join(Duration.ofSeconds(5));
        assertEquals(List.of(143), halts);
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("still stopping"), printed::toString);
    }

    @Test
    void constructingRehearsesTheCountdownWithoutHaltingOrPrinting() {
        new ShutdownDeadline(Duration.ofSeconds(8), halts::add, err);
        assertTrue(halts.isEmpty());
        assertEquals(0, printed.size());
    }

    @Test
    void aZeroGraceSwitchesTheDeadlineOff() throws InterruptedException {
        ShutdownDeadline deadline = new ShutdownDeadline(Duration.ZERO, halts::add, err);
        assertFalse(deadline.enabled());
        deadline.start();
        deadline.join(Duration.ofMillis(200));
        assertTrue(halts.isEmpty());
    }

    @Test
    void startingTwiceHaltsOnce() throws InterruptedException {
        ShutdownDeadline deadline = new ShutdownDeadline(Duration.ofMillis(50), halts::add, err);
        deadline.start();
        deadline.start();
        deadline.join(Duration.ofSeconds(5));
        Thread.sleep(100);
        assertEquals(List.of(143), halts);
    }
}
