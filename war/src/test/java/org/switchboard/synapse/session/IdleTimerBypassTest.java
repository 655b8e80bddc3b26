package org.switchboard.synapse.session;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.websocket.Session;
import java.lang.reflect.Proxy;
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

    @Test
    void aZeroDelayTaskIsDroppedAsDone() throws Exception {
        AtomicBoolean ran = new AtomicBoolean();
        ScheduledFuture<?> future = timer.schedule(() -> ran.set(true), 0, TimeUnit.MILLISECONDS);

        assertTrue(future.isDone());
        timer.submit(() -> null).get(5, TimeUnit.SECONDS);
        assertFalse(ran.get(), "a disabled idle timeout's task never runs");
        assertFalse(future.cancel(true));
    }

    @Test
    void aDelayedTaskStillRuns() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        timer.schedule(ran::countDown, 5, TimeUnit.MILLISECONDS);

        assertTrue(ran.await(5, TimeUnit.SECONDS));
    }

    @Test
    void aSessionThatIsNotTyrusIsLeftAlone() {
        Session session = (Session) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Session.class},
                (proxy, method, args) -> null);

        assertFalse(timer.install(session));
    }
}
