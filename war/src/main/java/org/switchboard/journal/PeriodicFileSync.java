package org.switchboard.journal;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Forces the embedded database file to disk at a fixed interval. H2 writes each commit to the OS
 * page cache but never syncs it, so without this the kernel flushes every ~30 s: hundreds of
 * megabytes at once under load (a latency stall), and an OS crash loses up to 30 s of commits.
 * A failed sync stops the schedule and is reported once, so a database that refuses it costs
 * one warning rather than one per interval.
 */
public final class PeriodicFileSync implements AutoCloseable {

    /** One sync of the database file; throws when the database refuses it. */
    @FunctionalInterface
    public interface FileSync {
        /** Forces everything written so far to disk. */
        void sync() throws Exception;
    }

    private final FileSync sync;
    private final Consumer<Exception> onFailure;
    private final AtomicLong completed = new AtomicLong();
    private volatile ScheduledFuture<?> schedule;
    private volatile boolean stopped;

    /** A sync that calls {@code onFailure} once, with the first failure, after which it stops. */
    public PeriodicFileSync(FileSync sync, Consumer<Exception> onFailure) {
        this.sync = sync;
        this.onFailure = onFailure;
    }

    /** Starts syncing every {@code intervalMillis}; 0 or less leaves it off. Returns whether it started. */
    public boolean start(ScheduledExecutorService scheduler, long intervalMillis) {
        if (intervalMillis <= 0) {
            return false;
        }
        schedule = scheduler.scheduleWithFixedDelay(this::syncOnce, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
        return true;
    }

    /** Runs one sync now; after a failure the schedule is cancelled. */
    void syncOnce() {
        if (stopped) {
            cancelSchedule(); // a run that started before start() had stored the schedule
            return;
        }
        try {
            sync.sync();
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

    /** Syncs completed since start. */
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
