package org.switchboard.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class IdleTimerBypassTest {

    private final IdleTimerBypass timer = new IdleTimerBypass(Thread::new);

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    /** Stands in for Tyrus's {@code TyrusSession.IdleTimeoutCommand} (matched by class name). */
    static final class TyrusSession {
        static final class IdleTimeoutCommand implements Runnable {
            final AtomicBoolean ran = new AtomicBoolean();

            @Override
            public void run() {
                ran.set(true);
            }
        }
    }

    @Test
    void aZeroDelayIdleTimeoutCommandIsDroppedAsDone() throws Exception {
        TyrusSession.IdleTimeoutCommand command = new TyrusSession.IdleTimeoutCommand();
        ScheduledFuture<?> future = timer.schedule(command, 0, TimeUnit.MILLISECONDS);

        assertTrue(future.isDone());
        timer.submit(() -> null).get(5, TimeUnit.SECONDS);
        assertFalse(command.ran.get(), "a disabled idle timeout's task never runs");
        assertFalse(future.cancel(true));
    }

    @Test
    void anyOtherZeroDelayTaskRuns() throws Exception {
        CountDownLatch ran = new CountDownLatch(3);
        timer.schedule(ran::countDown, 0, TimeUnit.MILLISECONDS);
        timer.execute(ran::countDown);
        timer.submit(ran::countDown).get(5, TimeUnit.SECONDS);

        assertTrue(ran.await(5, TimeUnit.SECONDS), "schedule(0), execute and submit all run");
        assertEquals("done", timer.submit(() -> { }, "done").get(5, TimeUnit.SECONDS));
    }

    @Test
    void aDelayedIdleTimeoutCommandStillRuns() throws Exception {
        TyrusSession.IdleTimeoutCommand command = new TyrusSession.IdleTimeoutCommand();
        timer.schedule(command, 5, TimeUnit.MILLISECONDS).get(5, TimeUnit.SECONDS);

        assertTrue(command.ran.get(), "an enabled idle timeout still fires");
    }

    @Test
    void aDelayedTaskStillRuns() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        timer.schedule(ran::countDown, 5, TimeUnit.MILLISECONDS);

        assertTrue(ran.await(5, TimeUnit.SECONDS));
    }
}
