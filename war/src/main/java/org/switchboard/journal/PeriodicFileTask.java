package org.switchboard.journal;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Runs one maintenance task on the embedded database file at a fixed interval: the sync that forces it
 * to disk (H2 writes each commit to the OS page cache but never syncs it, so without it the kernel
 * flushes every ~30 s: hundreds of megabytes at once under load, and an OS crash loses up to 30 s of
 * commits) and the chunk compaction of {@link H2FileCompaction}. A failed run stops the schedule and is
 * reported once, so a database that refuses the task costs one warning rather than one per interval.
 */
public final class PeriodicFileTask implements AutoCloseable {

    /** One run of the task; throws when the database refuses it. */
    @FunctionalInterface
    public interface FileTask {
        /** Does the work once. */
        void run() throws Exception;
    }

    private final FileTask task;
    private final Consumer<Exception> onFailure;
    private final AtomicLong completed = new AtomicLong();
    private volatile ScheduledFuture<?> schedule;
    private volatile boolean stopped;

    /** A periodic task that calls {@code onFailure} once, with the first failure, after which it stops. */
    public PeriodicFileTask(FileTask task, Consumer<Exception> onFailure) {
        this.task = task;
        this.onFailure = onFailure;
    }

    /** Starts running the task every {@code intervalMillis}; 0 or less leaves it off. Returns whether it started. */
    public boolean start(ScheduledExecutorService scheduler, long intervalMillis) {
        if (intervalMillis <= 0) {
            return false;
        }
        schedule = scheduler.scheduleWithFixedDelay(this::runOnce, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
        return true;
    }

    /** Runs the task once now; after a failure the schedule is cancelled. */
    void runOnce() {
        if (stopped) {
            cancelSchedule(); // a run that started before start() had stored the schedule
            return;
        }
        try {
            task.run();
            completed.incrementAndGet();
        } catch (Exception e) {
            stopped = true;
            cancelSchedule();
            onFailure.accept(e);
        }
    }

    private void cancelSchedule() {
        ScheduledFuture<?> running = schedule;
        if (running != null) {
            running.cancel(false);
        }
    }

    /** Runs completed since start. */
    public long completed() {
        return completed.get();
    }

    /** Whether the schedule is running (started, not failed, not closed). */
    public boolean running() {
        ScheduledFuture<?> running = schedule;
        return !stopped && running != null && !running.isDone();
    }

    @Override
    public void close() {
        stopped = true;
        cancelSchedule();
    }
}
