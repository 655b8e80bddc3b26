package org.switchboard.redsyn.inbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Conditional updates of many requests in one commit: callers on any thread queue an update without
 * locking; one writer thread runs what is queued, in queue order, in one transaction through the
 * {@link Sink}, and completes each caller's future with its row count only after that commit. The
 * shape of the journal's group commit ({@code org.switchboard.journal.GroupCommitter}), for statements
 * instead of inserts: each update is conditional, so running it in a shared transaction after its
 * neighbours gives the row count it would have given alone after them. A failed batch is retried one
 * update per transaction, so one bad update cannot fail its neighbours.
 */
public final class GroupedUpdates implements AutoCloseable {

    /** How long {@link #close()} lets the writer finish what is queued. */
    static final long SHUTDOWN_WAIT_SECONDS = 3;

    /** One parameterised statement and its values, in JDBC order. */
    public record Update(String sql, List<Object> params) {

        /** Checks the statement is named. */
        public Update {
            Objects.requireNonNull(sql, "sql");
            params = List.copyOf(params);
        }
    }

    /** Runs a batch of updates in one transaction and commits it, or throws having committed none. */
    @FunctionalInterface
    public interface Sink {
        /** The row count of each update, in order; returns only after the commit. */
        int[] commit(List<Update> updates) throws Exception;
    }

    /** Thrown (through the future) when the writer does not take updates (stopped, or too many queued). */
    public static final class UnavailableException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        /** Creates the exception with a reason. */
        public UnavailableException(String message) {
            super(message);
        }
    }

    private final Sink sink;
    private final int maxBatch;
    private final int maxQueued;
    private final long lingerNanos;
    private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile boolean writerIdle;
    private volatile boolean writerDone;
    private volatile Thread writer;
    /** When the previous update was queued: a writer lingers only while updates keep coming. */
    private volatile long lastQueuedNanos;
    private volatile long batches;
    private volatile long updates;

    /**
     * @param maxBatch    most updates one transaction carries
     * @param maxQueued   updates waiting before new ones are refused (the caller then runs its own transaction)
     * @param lingerNanos longest a batch waits for more updates while they keep coming (0 = never): when its
     *                    first update came within four times this of the update before it
     */
    public GroupedUpdates(Sink sink, int maxBatch, int maxQueued, long lingerNanos) {
        if (maxBatch < 1 || maxQueued < maxBatch || lingerNanos < 0) {
            throw new IllegalArgumentException("invalid grouped update bounds");
        }
        this.sink = Objects.requireNonNull(sink);
        this.maxBatch = maxBatch;
        this.maxQueued = maxQueued;
        this.lingerNanos = lingerNanos;
    }

    /** Starts the writer on a thread from {@code threads} (a container-managed factory in the server). */
    public void start(ThreadFactory threads, String name) {
        Thread thread = threads.newThread(this::writeLoop);
        thread.setName(name);
        writer = thread;
        thread.start();
    }

    /** Queues an update; the future holds its row count once the transaction that ran it has committed. */
    public CompletableFuture<Integer> submit(Update update) {
        if (!running) {
            return CompletableFuture.failedFuture(new UnavailableException("grouped updates stopped"));
        }
        if (queued.incrementAndGet() > maxQueued) {
            queued.decrementAndGet();
            return CompletableFuture.failedFuture(new UnavailableException("too many grouped updates waiting"));
        }
        long now = System.nanoTime();
        Pending pending = new Pending(update, now - lastQueuedNanos);
        lastQueuedNanos = now;
        queue.add(pending);
        if (writerIdle) {
            LockSupport.unpark(writer);
        } else if (writerDone) {
            // raced with the writer's final drain: nobody else will see this update
            failAll(new UnavailableException("grouped updates stopped"));
        }
        return pending.future;
    }

    /** Transactions committed so far. */
    public long batches() {
        return batches;
    }

    /** Updates committed so far. */
    public long updates() {
        return updates;
    }

    /** Stops taking updates, lets the writer commit what is queued, and waits for it (bounded). */
    @Override
    public void close() {
        running = false;
        Thread thread = writer;
        if (thread == null) {
            writerDone = true;
            failAll(new UnavailableException("grouped updates never started"));
            return;
        }
        LockSupport.unpark(thread);
        try {
            if (!stopped.await(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS)) {
                thread.interrupt();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void writeLoop() {
        try {
            List<Pending> batch = new ArrayList<>();
            while (true) {
                Pending first = queue.poll();
                if (first == null) {
                    if (!running) {
                        return;
                    }
                    writerIdle = true;
                    if (queue.isEmpty() && running) {
                        LockSupport.parkNanos(this, 10_000_000L);
                    }
                    writerIdle = false;
                    continue;
                }
                batch.add(first);
                takeMore(batch);
                // A commit's cost hardly depends on its rows: wait briefly for more, but only while updates
                // keep coming (the first came within four lingers of the one before it), so a lone update never waits.
                if (lingerNanos > 0 && batch.size() < maxBatch && first.gapNanos < 4 * lingerNanos) {
                    long deadline = System.nanoTime() + lingerNanos;
                    long now;
                    while (running && batch.size() < maxBatch && (now = System.nanoTime()) < deadline) {
                        LockSupport.parkNanos(this, Math.min(deadline - now, 100_000L));
                        takeMore(batch);
                    }
                }
                queued.addAndGet(-batch.size());
                write(batch);
                batch.clear();
            }
        } finally {
            writerDone = true;
            failAll(new UnavailableException("grouped updates writer stopped"));
            stopped.countDown();
        }
    }

    private void takeMore(List<Pending> batch) {
        Pending next;
        while (batch.size() < maxBatch && (next = queue.poll()) != null) {
            batch.add(next);
        }
    }

    private void write(List<Pending> batch) {
        Throwable failure = tryCommit(batch);
        if (failure == null) {
            return;
        }
        if (batch.size() == 1) {
            batch.get(0).future.completeExceptionally(failure);
            return;
        }
        for (Pending pending : batch) {
            Throwable again = tryCommit(List.of(pending));
            if (again != null) {
                pending.future.completeExceptionally(again);
            }
        }
    }

    /** Commits the batch and completes its futures; returns the failure (nothing committed) or null. */
    private Throwable tryCommit(List<Pending> batch) {
        List<Update> list = new ArrayList<>(batch.size());
        for (Pending pending : batch) {
            list.add(pending.update);
        }
        int[] counts;
        try {
            counts = sink.commit(list);
            if (counts == null || counts.length != list.size()) {
                throw new IllegalStateException("sink returned " + (counts == null ? "no" : counts.length) + " counts for "
                        + list.size() + " updates");
            }
        } catch (Exception | LinkageError | AssertionError e) {
            return e;
        }
        batches++;
        updates += batch.size();
        // the callers only wait (join), so completing here runs nothing else on the writer
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).future.complete(counts[i]);
        }
        return null;
    }

    private void failAll(Throwable failure) {
        Pending pending;
        while ((pending = queue.poll()) != null) {
            queued.decrementAndGet();
            pending.future.completeExceptionally(failure);
        }
    }

    /** One caller's update, waiting for the writer. */
    private static final class Pending {
        final Update update;
        final long gapNanos;
        final CompletableFuture<Integer> future = new CompletableFuture<>();

        Pending(Update update, long gapNanos) {
            this.update = update;
            this.gapNanos = gapNanos;
        }
    }
}
