package org.switchboard.lifecycle;

/**
 * Runs an action as soon as the JVM is told to stop (a JVM shutdown hook), before the container's
 * own stop suspends or undeploys anything. Periodic work cancelled this way does not fire into a
 * suspended container (WildFly logs every such attempt with a stack trace). Close it at undeploy.
 */
public final class StopSignal implements AutoCloseable {

    private final Thread hook;

    private StopSignal(Thread hook) {
        this.hook = hook;
    }

    /** Registers {@code action} to run at the stop signal, on a thread named {@code name}. */
    public static StopSignal onStop(String name, Runnable action) {
        Thread hook = new Thread(action, name);
        Runtime.getRuntime().addShutdownHook(hook);
        return new StopSignal(hook);
    }

    /** Unregisters the action (an undeploy without a JVM exit); harmless once the JVM is stopping. */
    @Override
    public void close() {
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
