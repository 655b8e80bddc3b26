package org.switchboard.container;

import java.util.concurrent.Delayed;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Gives each Tyrus session a plain timer instead of the container's managed scheduled executor.
 * Tyrus (as shipped in Payara 6) reschedules the session's idle-timeout task on every frame read
 * or sent, even when the idle timeout is disabled (it then schedules a no-op with delay 0); on the
 * managed executor each of those tasks captures the container context, which scans the web-app
 * class loader for service files — measured as a third of the hub's CPU under SynapseChatBench.
 * This timer drops only that no-op (Tyrus's idle-timeout command scheduled with no delay: it does
 * nothing while the timeout is disabled) and runs every other task, including {@code execute} and
 * {@code submit}, on one thread from the container's thread factory. {@link ContainerShortcuts#replaceSessionTimer}
 * installs it where the container is Tyrus; elsewhere it is only the hub's plain timer for its own tasks.
 */
public final class IdleTimerBypass extends ScheduledThreadPoolExecutor {

    /** A timer whose one thread comes from {@code threads}. */
    public IdleTimerBypass(ThreadFactory threads) {
        super(1, threads);
        setRemoveOnCancelPolicy(true);
    }

    /** Tyrus's idle-timeout task ({@code TyrusSession.IdleTimeoutCommand}); it checks the timeout itself before acting. */
    private static final String TYRUS_IDLE_COMMAND = "TyrusSession$IdleTimeoutCommand";

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        if (delay <= 0 && isIdleTimeoutCommand(command)) {
            // Tyrus schedules it with no delay only when the idle timeout is disabled; then it does nothing.
            return Done.INSTANCE;
        }
        return super.schedule(command, delay, unit);
    }

    // ScheduledThreadPoolExecutor routes execute/submit through schedule(command, 0, ...): never drop those.
    @Override
    public void execute(Runnable command) {
        super.schedule(command, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public Future<?> submit(Runnable task) {
        return super.schedule(task, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public <T> Future<T> submit(Runnable task, T result) {
        return super.schedule(Executors.callable(task, result), 0, TimeUnit.NANOSECONDS);
    }

    static boolean isIdleTimeoutCommand(Runnable command) {
        return command != null && command.getClass().getName().endsWith(TYRUS_IDLE_COMMAND);
    }

    /** The future of a task that was never needed. */
    private static final class Done implements ScheduledFuture<Object> {
        static final Done INSTANCE = new Done();

        @Override
        public long getDelay(TimeUnit unit) {
            return 0;
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(0, other.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            return false;
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public boolean isDone() {
            return true;
        }

        @Override
        public Object get() {
            return null;
        }

        @Override
        public Object get(long timeout, TimeUnit unit) {
            return null;
        }
    }
}
