package org.switchboard.messaging;

import java.time.Duration;

/**
 * Admits work items while the application runs and lets a stop wait for those in flight. Once
 * closed it admits nothing: at undeploy the container may still hand the consumer a message after
 * the application's classes are gone, and such a message must go back to the broker untouched.
 */
public final class WorkGate {

    private int inFlight;
    private boolean closed;

    /** True when the item may run; the caller must then call {@link #leave()} when it ends. */
    public synchronized boolean enter() {
        if (closed) {
            return false;
        }
        inFlight++;
        return true;
    }

    /** Ends one admitted item. */
    public synchronized void leave() {
        inFlight--;
        if (inFlight == 0) {
            notifyAll();
        }
    }

    /**
     * Admits nothing more and waits up to {@code patience} for the items in flight to end.
     * Returns how many were still running when the wait ended (0 when all finished).
     */
    public synchronized int closeAndDrain(Duration patience) throws InterruptedException {
        closed = true;
        long deadline = System.nanoTime() + patience.toNanos();
        while (inFlight > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return inFlight;
    }

    /** Admits nothing more, without waiting (the JVM is stopping: the container's own stop runs beside us). */
    public synchronized void close() {
        closed = true;
    }

    /** True once {@link #close} or {@link #closeAndDrain} has been called. */
    public synchronized boolean closed() {
        return closed;
    }
}
