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
 * undeploy is. An undeploy without a JVM exit removes the hook again.
 */
@ApplicationScoped
public class ShutdownGuard {

    private static final Logger LOG = Logger.getLogger(ShutdownGuard.class.getName());

    @Inject
    @ConfigProperty(name = "switchboard.shutdown.grace-seconds", defaultValue = "8")
    int graceSeconds;

    private Thread hook;

    void register(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
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
        if (hook == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException stopping) {
            // the JVM is exiting: the hook has run (or is running) and its deadline stands
        }
    }
}
