package org.switchboard.lifecycle;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** The calling thread's CPU time, for start-up steps that log what they cost (0 where the JVM cannot tell). */
public final class ThreadCpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ThreadCpu() {
    }

    /** The calling thread's CPU time so far, in nanoseconds (0 when unsupported). */
    public static long now() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : 0;
    }

    /** Milliseconds of the calling thread's CPU since {@code startedNanos} (a {@link #now()} value). */
    public static long millisSince(long startedNanos) {
        return Math.max(0, now() - startedNanos) / 1_000_000;
    }
}
