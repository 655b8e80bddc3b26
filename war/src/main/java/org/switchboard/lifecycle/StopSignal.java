package org.switchboard.lifecycle;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs an action as soon as the server is told to stop, before the container's own stop suspends or
 * undeploys anything: at the JVM's stop signal (a shutdown hook), or earlier when the container
 * announces its stop ({@link #containerStopping}: Payara Server's {@code stop-domain} sends the JVM no
 * signal until its services are down). Periodic work cancelled this way does not fire into a suspended
 * container (WildFly and Payara log every such attempt with a stack trace). Close it at undeploy.
 */
public final class StopSignal implements AutoCloseable {

    private static final Set<StopSignal> LIVE = ConcurrentHashMap.newKeySet();

    private final Thread hook;
    private final Runnable action;
    private final AtomicBoolean ran = new AtomicBoolean();

    private StopSignal(String name, Runnable action) {
        this.action = action;
        this.hook = new Thread(this::runOnce, name);
    }

    /** Registers {@code action} to run (once) at the stop signal, on a thread named {@code name}. */
    public static StopSignal onStop(String name, Runnable action) {
        StopSignal signal = new StopSignal(name, action);
        Runtime.getRuntime().addShutdownHook(signal.hook);
        LIVE.add(signal);
        return signal;
    }

    /**
     * The container says it is stopping (the container seam's stop notice): runs every registered
     * action now, on the calling thread; the JVM hooks find them done.
     */
    public static void containerStopping() {
        for (StopSignal signal : LIVE) {
            signal.runOnce();
        }
    }

    private void runOnce() {
        if (ran.compareAndSet(false, true)) {
            action.run();
        }
    }

    /** Unregisters the action (an undeploy without a JVM exit); harmless once the JVM is stopping. */
    @Override
    public void close() {
        LIVE.remove(this);
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException stopping) {
            // the JVM is exiting: the hook has run or is running
        }
    }

    /** True while the action is still registered (tests). */
    boolean registered() {
        try {
            boolean removed = Runtime.getRuntime().removeShutdownHook(hook);
            if (removed) {
                Runtime.getRuntime().addShutdownHook(hook);
            }
            return removed;
        } catch (IllegalStateException stopping) {
            return false;
        }
    }
}
