package org.switchboard.journal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One writer thread committing many callers' work in shared transactions, the engine of every group
 * commit (the journal's {@link GroupCommitter}, REDSYN's grouped updates): callers on any thread queue an
 * entry without locking, bounded by a total size; the writer takes what is queued, in queue order, up to
 * a batch size, lets the subclass {@linkplain #linger wait for more}, and {@linkplain #commit commits} it. A
 * failed batch is retried one entry per transaction, so one bad entry cannot fail its neighbours. The
 * subclass completes its callers: on success in {@link #commit}, on failure in {@link #failed}.
 *
 * @param <E> what one caller queued
 */
public abstract class GroupWriter<E extends GroupWriter.Entry> implements AutoCloseable {

    /** How long {@link #close()} lets the writer finish what is queued before interrupting it. */
    static final long SHUTDOWN_WAIT_SECONDS = 3;

    /** What one caller queued: its size against the writer's bounds, and how to fail it. */
    public abstract static class Entry {
        private long enqueuedNanos;

        /** Counted against the batch and queue bounds (0 for a marker that only takes its place in line). */
        protected abstract int size();

        /** Fails the caller (on whatever thread calls it). */
        protected abstract void fail(Throwable failure);

        /** When it was queued ({@link System#nanoTime()}). */
        protected final long enqueuedNanos() {
            return enqueuedNanos;
        }
    }

    private final String name;
    private final int maxBatchSize;
    private final int maxQueuedSize;
    private final long idleParkNanos;
    private final ConcurrentLinkedQueue<E> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queuedSize = new AtomicInteger();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean accepting = true;
    private volatile boolean running = true;
    private volatile boolean writerIdle;
    private volatile boolean writerLingering;
    private volatile boolean writerDone;
    private volatile Thread writer;

    /**
     * @param name          what refusals call the writer ("journal")
     * @param maxBatchSize  most size one transaction takes (an entry larger than this goes alone)
     * @param maxQueuedSize size waiting (batch in the making included) beyond which new entries are refused
     * @param idleParkNanos longest the idle writer sleeps between looks at the queue (a new entry wakes it)
     */
    protected GroupWriter(String name, int maxBatchSize, int maxQueuedSize, long idleParkNanos) {
        if (maxBatchSize < 1 || maxQueuedSize < maxBatchSize || idleParkNanos < 1) {
            throw new IllegalArgumentException("invalid group writer bounds");
        }
        this.name = Objects.requireNonNull(name);
        this.maxBatchSize = maxBatchSize;
        this.maxQueuedSize = maxQueuedSize;
        this.idleParkNanos = idleParkNanos;
    }

    /** Starts the writer on a thread from {@code threads} (a container-managed factory in the server). */
    public void start(ThreadFactory threads, String name) {
        Thread thread = threads.newThread(this::writeLoop);
        thread.setName(name);
        writer = thread;
        thread.start();
    }

    /** Stops accepting, lets the writer finish everything already queued, and waits for it (bounded). */
    @Override
    public void close() {
        accepting = false;
        running = false;
        Thread thread = writer;
        if (thread == null) {
            writerDone = true;
            failAll(unavailable(name + " never started"));
            return;
        }
        LockSupport.unpark(thread);
        try {
            // Bounded so that SIGTERM stops the hub within 10 s: entries still queued then are failed, never
            // acknowledged, so nothing a client was told is durable goes missing.
            if (!stopped.await(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS)) {
                thread.interrupt();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The exception a refused or abandoned entry fails with, carrying {@code message}. */
    protected abstract RuntimeException unavailable(String message);

    /**
     * Commits the batch in one transaction and completes its entries; returns the failure, having committed
     * and completed nothing, or null. Runs on the writer thread.
     */
    protected abstract Throwable commit(List<E> batch);

    /** Fails entries whose commit failed alone (on the writer thread; by default at once). */
    protected void failed(List<E> entries, Throwable failure) {
        for (E entry : entries) {
            entry.fail(failure);
        }
    }

    /**
     * Lets the batch wait for more entries before its commit; returns its size then. By default it never
     * waits. An override sets {@link #lingering} while it parks, so that {@link #endsLinger} can wake it.
     */
    protected int linger(List<E> batch, int size) {
        return size;
    }

    /** Whether the entry just queued ends a lingering writer's wait ({@code queuedSize} includes the batch). */
    protected boolean endsLinger(E entry, int queuedSize) {
        return false;
    }

    /** Queues the entry, or fails it at once (closed, or too much waiting). */
    protected final void enqueue(E entry) {
        if (!accepting) {
            entry.fail(unavailable(name + " is shut down"));
            return;
        }
        int size = entry.size();
        if (size > 0 && queuedSize.addAndGet(size) > maxQueuedSize) {
            queuedSize.addAndGet(-size);
            entry.fail(unavailable(name + " overloaded: too much waiting"));
            return;
        }
        ((Entry) entry).enqueuedNanos = System.nanoTime();
        queue.add(entry);
        if (writerIdle || (writerLingering && endsLinger(entry, queuedSize.get()))) {
            LockSupport.unpark(writer);
        } else if (writerDone) {
            // Raced with shutdown after the writer's final drain: nobody else will see this entry.
            failAll(unavailable(name + " is shut down"));
        }
    }

    /** Moves queued entries into the batch while they fit; returns the batch's size. Writer thread only. */
    protected final int takeMore(List<E> batch, int size) {
        E next;
        while ((next = queue.peek()) != null && size + next.size() <= maxBatchSize) {
            queue.poll();
            batch.add(next);
            size += next.size();
        }
        return size;
    }

    /** Marks the writer as lingering (an entry for which {@link #endsLinger} holds then wakes it). */
    protected final void lingering(boolean lingering) {
        writerLingering = lingering;
    }

    /** Whether the writer is to go on (false once closed: a lingering batch then commits at once). */
    protected final boolean running() {
        return running;
    }

    /** Size queued and not yet handed to a commit (the batch in the making included). */
    protected final int queuedSize() {
        return queuedSize.get();
    }

    /** The batch size bound. */
    protected final int maxBatchSize() {
        return maxBatchSize;
    }

    private void writeLoop() {
        try {
            List<E> batch = new ArrayList<>();
            while (true) {
                E first = queue.poll();
                if (first == null) {
                    if (!running) {
                        return;
                    }
                    writerIdle = true;
                    if (queue.isEmpty() && running) {
                        LockSupport.parkNanos(this, idleParkNanos);
                    }
                    writerIdle = false;
                    continue;
                }
                batch.add(first);
                int size = takeMore(batch, first.size());
                size = linger(batch, size);
                queuedSize.addAndGet(-size);
                write(batch);
                batch.clear();
            }
        } finally {
            writerDone = true;
            failAll(unavailable(name + " writer stopped"));
            stopped.countDown();
        }
    }

    private void write(List<E> batch) {
        Throwable failure = commit(batch);
        if (failure == null) {
            return;
        }
        if (batch.size() == 1) {
            failed(List.copyOf(batch), failure);
            return;
        }
        // Isolate the culprit: retry each entry alone.
        for (E entry : batch) {
            List<E> single = List.of(entry);
            Throwable again = commit(single);
            if (again != null) {
                failed(single, again);
            }
        }
    }

    private void failAll(Throwable failure) {
        E entry;
        while ((entry = queue.poll()) != null) {
            queuedSize.addAndGet(-entry.size());
            entry.fail(failure);
        }
    }
}
