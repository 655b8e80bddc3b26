package org.switchboard.ops;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

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

    private final long graceMillis;
    private final Halter halter;
    private final PrintStream err;
    private final Thread timer;
    private final AtomicBoolean started = new AtomicBoolean();

    /**
     * @param grace  how long the orderly shutdown may take; zero or negative switches the deadline off
     * @param halter called with exit status 143 (128 + SIGTERM) when the grace runs out; a JVM that
     *               finished stopping before then has taken the daemon countdown thread with it
     * @param err    where the one line saying so goes (stderr in the server: JUL handlers may already
     *               be closed by the container's own shutdown hook)
     */
    public ShutdownDeadline(Duration grace, Halter halter, PrintStream err) {
        this.graceMillis = Objects.requireNonNull(grace).toMillis();
        this.halter = Objects.requireNonNull(halter);
        this.err = Objects.requireNonNull(err);
        // Built and rehearsed now: once the undeploy has begun, the application's class loader refuses
        // every class, so the countdown must need none it has not already loaded and linked.
        this.timer = new Thread(this::countdown, "switchboard-shutdown-deadline");
        timer.setDaemon(true);
        expire(0, status -> { }, new PrintStream(OutputStream.nullOutputStream()));
    }

    /** Whether a positive grace period is configured. */
    public boolean enabled() {
        return graceMillis > 0;
    }

    /** Starts the countdown on its daemon thread (once; later calls do nothing). */
    public void start() {
        if (enabled() && started.compareAndSet(false, true)) {
            timer.start();
        }
    }

    /** Waits for the countdown thread, for tests. */
    void join(Duration max) throws InterruptedException {
        if (started.get()) {
            timer.join(max.toMillis());
        }
    }

    private void countdown() {
        try {
            Thread.sleep(graceMillis);
        } catch (InterruptedException e) {
            return;
        }
        expire(graceMillis, halter, err);
    }

    private static void expire(long afterMillis, Halter halter, PrintStream err) {
        err.println("switchboard: still stopping " + afterMillis / 1000
                + " s after the stop signal; halting (everything acknowledged is already on disk)");
        err.flush();
        halter.halt(143);
    }
}
