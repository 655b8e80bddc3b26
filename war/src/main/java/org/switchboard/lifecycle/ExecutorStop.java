package org.switchboard.lifecycle;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Waits, within one deadline, for executors already told to stop. A container-managed thread runs the
 * container's clean-up (closing the entity managers it used outside a transaction) when it ends; a
 * thread still ending after the persistence unit closed dies on "a closed EntityManager" with a stack
 * trace. So a bean's {@code @PreDestroy} waits here for its threads before the unit goes. An executor's
 * own termination is not enough: it is reached when the last worker leaves the pool, before a managed
 * thread has run that clean-up, so executors built on {@link #tracked} threads are waited for until
 * their threads have ended ({@link #awaitEnded}).
 */
public final class ExecutorStop {

    private ExecutorStop() {
    }

    /** A thread factory that remembers the threads it made, so a stop can wait for the threads themselves. */
    public static final class TrackedThreads implements ThreadFactory {
        private final ThreadFactory delegate;
        private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

        private TrackedThreads(ThreadFactory delegate) {
            this.delegate = delegate;
        }

        @Override
        public Thread newThread(Runnable task) {
            threads.removeIf(t -> t.getState() == Thread.State.TERMINATED); // pools replace idle threads over time
            Thread thread = delegate.newThread(task);
            if (thread != null) {
                threads.add(thread);
            }
            return thread;
        }

        /** Waits until every thread made so far has ended (the caller's own excepted) or the deadline passed. */
        private boolean join(long deadlineNanos) throws InterruptedException {
            for (Thread thread : threads) {
                if (thread == Thread.currentThread()) {
                    continue;
                }
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
            return threads.stream().noneMatch(t -> t != Thread.currentThread() && t.isAlive());
        }
    }

    /** {@code factory}'s threads, remembered for {@link #awaitEnded}. */
    public static TrackedThreads tracked(ThreadFactory factory) {
        return new TrackedThreads(factory);
    }

    /**
     * Waits until every executor (each already shut down) has terminated or {@code within} has passed;
     * true when all terminated. Null entries are skipped; an interrupt ends the wait early (and is kept).
     */
    public static boolean awaitAll(Duration within, ExecutorService... executors) {
        return await(System.nanoTime() + within.toNanos(), executors);
    }

    /**
     * As {@link #awaitAll}, then until every thread {@code threads} made has ended (so a managed thread's
     * end-of-invocation clean-up is over too); true when all did within {@code within}.
     */
    public static boolean awaitEnded(Duration within, TrackedThreads threads, ExecutorService... executors) {
        long deadline = System.nanoTime() + within.toNanos();
        boolean all = await(deadline, executors);
        if (threads == null) {
            return all;
        }
        try {
            return threads.join(deadline) && all;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean await(long deadline, ExecutorService... executors) {
        boolean all = true;
        for (ExecutorService executor : executors) {
            if (executor == null) {
                continue;
            }
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                all &= executor.awaitTermination(left, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return all;
    }
}
