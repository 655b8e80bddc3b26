package org.switchboard.ops;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounds how long a stopping JVM may take: once started, it waits the grace period and, if the
 * process is still alive then, halts it. Halting loses nothing a client was told is accepted, since
 * every acknowledgement follows its commit (the same guarantee a {@code kill -9} relies on); it only
 * cuts short the container's orderly undeploy, which on a CPU-starved machine took 10-15 s.
 */
public final class ShutdownDeadline {

    /** What ends the process; {@link Runtime#halt} in the server, a recorder in tests. */
    public interface Halter {
        void halt(int status);
    }

    private final Duration grace;
    private final Halter halter;
    private volatile Thread timer;

    /**
     * @param grace    how long the orderly shutdown may take; zero or negative switches the deadline off
     * @param halter   called with exit status 143 (128 + SIGTERM) when the grace runs out; a JVM that
     *                 finished stopping before then has taken this daemon thread with it
     */
    public ShutdownDeadline(Duration grace, Halter halter) {
        this.grace = Objects.requireNonNull(grace);
        this.halter = Objects.requireNonNull(halter);
    }

    /** Whether a positive grace period is configured. */
    public boolean enabled() {
        return !grace.isNegative() && !grace.isZero();
    }

    /** Starts the countdown on a daemon thread (once; later calls do nothing). */
    public synchronized void start() {
        if (!enabled() || timer != null) {
            return;
        }
        Thread t = new Thread(this::await, "switchboard-shutdown-deadline");
        t.setDaemon(true);
        timer = t;
        t.start();
    }

    /** Waits for the countdown thread, for tests. */
    void join(Duration max) throws InterruptedException {
        Thread t = timer;
        if (t != null) {
            t.join(max.toMillis());
        }
    }

    private void await() {
        try {
            Thread.sleep(grace.toMillis());
        } catch (InterruptedException e) {
            return;
        }
        // JUL handlers may already be closed by the container's own shutdown hook: stderr reaches the log.
        System.err.println("switchboard: still stopping " + grace.toSeconds()
                + " s after the stop signal; halting (everything acknowledged is already on disk)");
        System.err.flush();
        halter.halt(143);
    }
}
