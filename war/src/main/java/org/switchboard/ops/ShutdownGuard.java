package org.switchboard.ops;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Registers a JVM shutdown hook at deployment that starts a {@link ShutdownDeadline}, so a stop
 * signal ends the hub within {@code switchboard.shutdown.grace-seconds} however slow the container's
 * undeploy is. An undeploy without a JVM exit removes the hook again; one during a JVM exit lets
 * {@link FinalStopLine} keep Payara Micro's last log line formattable.
 */
@ApplicationScoped
public class ShutdownGuard {

    private static final Logger LOG = Logger.getLogger(ShutdownGuard.class.getName());

    @Inject
    @ConfigProperty(name = "switchboard.shutdown.grace-seconds", defaultValue = "8")
    int graceSeconds;

    private Thread hook;
    private final FinalStopLine stopLine = FinalStopLine.payaraMicro();

    void register(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        // before the deadline's early return: the stop line does not depend on the deadline
        LOG.info(stopLine.prepare()
                ? "shutdown: final-stop-line engaged (Payara Micro's logger " + FinalStopLine.PAYARA_MICRO_LOGGER
                        + " found): its last line at a JVM exit is formatted without HK2"
                : "shutdown: final-stop-line not engaged (no " + FinalStopLine.PAYARA_MICRO_LOGGER
                        + " logger: not Payara Micro); the server's log formatters stay as they are");
        ShutdownDeadline deadline = new ShutdownDeadline(Duration.ofSeconds(graceSeconds),
                Runtime.getRuntime()::halt, System.err);
        if (!deadline.enabled()) {
            LOG.info("shutdown: no deadline (switchboard.shutdown.grace-seconds=" + graceSeconds + ")");
            return;
        }
        hook = new Thread(deadline::start, "switchboard-shutdown-hook");
        Runtime.getRuntime().addShutdownHook(hook);
        LOG.info(() -> "shutdown: a stop signal ends the process within " + graceSeconds
                + " s (switchboard.shutdown.grace-seconds)");
    }

    @PreDestroy
    void unregister() {
        stopLine.undeployed(jvmExiting(hook));
    }

    /**
     * Removes {@code hook} (when there is one) and tells whether the JVM is exiting: the JDK refuses
     * every change to its shutdown hooks once they have started. Without a hook a throwaway one probes.
     */
    static boolean jvmExiting(Thread hook) {
        Runtime runtime = Runtime.getRuntime();
        try {
            if (hook != null) {
                runtime.removeShutdownHook(hook);
            } else {
                Thread probe = new Thread("switchboard-exit-probe");
                runtime.addShutdownHook(probe);
                runtime.removeShutdownHook(probe);
            }
            return false;
        } catch (IllegalStateException stopping) {
            // the JVM is exiting: the deadline's hook has run (or is running) and its deadline stands
            return true;
        }
    }
}
