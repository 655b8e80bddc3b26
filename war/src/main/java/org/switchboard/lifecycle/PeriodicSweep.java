package org.switchboard.lifecycle;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A sweep run at a fixed delay on a container scheduler that stops at the JVM's stop signal
 * ({@link StopSignal}), before the container suspends its executors, and at undeploy ({@link #close}).
 */
public final class PeriodicSweep implements AutoCloseable {

    private final ScheduledFuture<?> task;
    private final StopSignal stopSignal;

    private PeriodicSweep(ScheduledFuture<?> task, StopSignal stopSignal) {
        this.task = task;
        this.stopSignal = stopSignal;
    }

    /** Runs {@code sweep} every {@code intervalMillis} (first after one interval); {@code name} names the stop hook. */
    public static PeriodicSweep start(ScheduledExecutorService scheduler, String name, long intervalMillis, Runnable sweep) {
        ScheduledFuture<?> task = scheduler.scheduleWithFixedDelay(sweep, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
        return new PeriodicSweep(task, StopSignal.onStop(name, () -> task.cancel(false)));
    }

    /** Stops the sweep (a run in progress finishes) and unregisters the stop hook. */
    @Override
    public void close() {
        stopSignal.close();
        task.cancel(false);
    }
}
