package org.switchboard.redsyn.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import org.switchboard.journal.GroupWriter;

/**
 * Writes of many requests in one commit, on the journal's group-commit engine ({@link GroupWriter}): one
 * writer thread runs what is queued, in queue order, in one transaction through the {@link Sink}, and
 * completes each caller's future with its row counts only after that commit. A caller queues one update
 * (a conditional update: run in a shared transaction after its neighbours, it gives the row count it would
 * have given alone after them) or a unit of statements that stand or fall together (a send's inserts). A
 * failed batch is retried one unit per transaction, so only the failing unit fails, and wholly.
 */
public final class GroupedUpdates extends GroupWriter<GroupedUpdates.Pending> {

    /** Longest the idle writer sleeps between looks at the queue (a new update wakes it). */
    private static final long IDLE_PARK_NANOS = 10_000_000L;

    /** One parameterised statement and its values, in JDBC order (a null binds SQL NULL). */
    public record Update(String sql, List<Object> params) {

        /** Checks the statement is named; keeps its own copy of the values. */
        public Update {
            Objects.requireNonNull(sql, "sql");
            params = Collections.unmodifiableList(new ArrayList<>(params));
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
    private final long lingerNanos;
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
        super("grouped updates", maxBatch, maxQueued, IDLE_PARK_NANOS);
        if (lingerNanos < 0) {
            throw new IllegalArgumentException("invalid grouped update linger");
        }
        this.sink = Objects.requireNonNull(sink);
        this.lingerNanos = lingerNanos;
    }

    /** Queues an update; the future holds its row count once the transaction that ran it has committed. */
    public CompletableFuture<Integer> submit(Update update) {
        return submitUnit(List.of(Objects.requireNonNull(update))).thenApply(counts -> counts[0]);
    }

    /**
     * Queues statements that commit together or not at all (never split over two transactions); the future
     * holds their row counts, in order, once the transaction that ran them has committed.
     */
    public CompletableFuture<int[]> submitUnit(List<Update> unit) {
        if (unit.isEmpty()) {
            throw new IllegalArgumentException("an empty unit of updates");
        }
        long now = System.nanoTime();
        Pending pending = new Pending(List.copyOf(unit), now - lastQueuedNanos);
        lastQueuedNanos = now;
        enqueue(pending);
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

    @Override
    protected RuntimeException unavailable(String message) {
        return new UnavailableException(message);
    }

    /**
     * A commit's cost hardly depends on its rows: wait briefly for more, but only while updates keep coming
     * (the first came within four lingers of the one before it), so a lone update never waits.
     */
    @Override
    protected int linger(List<Pending> batch, int size) {
        if (lingerNanos == 0 || size >= maxBatchSize() || batch.get(0).gapNanos >= 4 * lingerNanos) {
            return size;
        }
        long deadline = System.nanoTime() + lingerNanos;
        lingering(true);
        long now;
        while (true) {
            // take what came (an update queued before the flag was set woke nobody), then wait
            size = takeMore(batch, size);
            now = System.nanoTime();
            if (!running() || now >= deadline || size >= maxBatchSize()) {
                break;
            }
            LockSupport.parkNanos(this, deadline - now);
        }
        lingering(false);
        return size;
    }

    /** A lingering batch wakes once the queue holds enough to fill it. */
    @Override
    protected boolean endsLinger(Pending pending, int queuedUpdates) {
        return queuedUpdates >= maxBatchSize();
    }

    /** Commits the batch and completes its futures; returns the failure (nothing committed) or null. */
    @Override
    protected Throwable commit(List<Pending> batch) {
        List<Update> list = new ArrayList<>(batch.size() + 8);
        for (Pending pending : batch) {
            list.addAll(pending.unit);
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
        updates += list.size();
        // the callers only wait (join), so completing here runs nothing else on the writer
        int at = 0;
        for (Pending pending : batch) {
            int n = pending.unit.size();
            pending.future.complete(n == 1 ? new int[] {counts[at]} : Arrays.copyOfRange(counts, at, at + n));
            at += n;
        }
        return null;
    }

    /** One caller's update or unit, waiting for the writer. */
    static final class Pending extends GroupWriter.Entry {
        final List<Update> unit;
        final long gapNanos;
        final CompletableFuture<int[]> future = new CompletableFuture<>();

        Pending(List<Update> unit, long gapNanos) {
            this.unit = unit;
            this.gapNanos = gapNanos;
        }

        @Override
        protected int size() {
            return unit.size();
        }

        @Override
        protected void fail(Throwable failure) {
            future.completeExceptionally(failure);
        }
    }
}
