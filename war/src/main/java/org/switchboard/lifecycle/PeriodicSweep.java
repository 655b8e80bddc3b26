package org.switchboard.lifecycle;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A sweep run at a fixed delay on a one-thread scheduler of its own that stops at the JVM's stop
 * signal or the container's stop notice ({@link StopSignal}), before the container suspends its
 * services, and at undeploy ({@link #close}).
 *
 * <p>Its own scheduler, not the container's managed one: a task cancelled on a shared executor stays
 * in its queue until its time comes, and Payara Server's managed scheduler then sets up the task's
 * context before noticing the cancellation. During {@code stop-domain} that set-up fails in Payara's
 * request tracing service with a SEVERE stack trace (seen 558 ms after the stop notice in a CI run).
 * A private scheduler is shut down instead, which drops the waiting run at once.
 */
public final class PeriodicSweep implements AutoCloseable {

    private final ScheduledThreadPoolExecutor scheduler;
    private final StopSignal stopSignal;

    private PeriodicSweep(ScheduledThreadPoolExecutor scheduler, StopSignal stopSignal) {
        this.scheduler = scheduler;
        this.stopSignal = stopSignal;
    }

    /**
     * Runs {@code sweep} every {@code intervalMillis} (first after one interval) on a thread from
     * {@code threads} (the container's managed thread factory in the server); {@code name} names the
     * stop hook and the thread.
     */
    public static PeriodicSweep start(ThreadFactory threads, String name, long intervalMillis, Runnable sweep) {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = threads.newThread(runnable);
            thread.setName("sweep " + name);
            return thread;
        });
        scheduler.setRemoveOnCancelPolicy(true);
        scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        scheduler.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
        scheduler.scheduleWithFixedDelay(sweep, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
        return new PeriodicSweep(scheduler, StopSignal.onStop(name, scheduler::shutdown));
    }

    /** Stops the sweep (a run in progress finishes, no other starts) and unregisters the stop hook. */
    @Override
    public void close() {
        stopSignal.close();
        scheduler.shutdown();
    }

    /** Runs waiting in this sweep's scheduler (tests: none once stopped). */
    int waiting() {
        return scheduler.getQueue().size();
    }

    /** True once stopped and no run is in progress (tests). */
    boolean ended(long timeoutMillis) throws InterruptedException {
        return scheduler.awaitTermination(timeoutMillis, TimeUnit.MILLISECONDS);
    }
}
