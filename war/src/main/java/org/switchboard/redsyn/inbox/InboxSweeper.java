package org.switchboard.redsyn.inbox;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.lifecycle.PeriodicSweep;
import org.switchboard.redsyn.RedsynConfig;

/**
 * Runs the inbox sweep (lease expiry, abandonment, TTL expiry) every {@code redsyn.inbox.sweep-interval-ms}
 * on the managed scheduled executor (EJB timers need the data grid, which a single hub switches off).
 * Fixed delay, so sweeps never overlap.
 */
@ApplicationScoped
public class InboxSweeper {

    private static final Logger LOG = Logger.getLogger(InboxSweeper.class.getName());

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory sweepThreads;

    @Inject
    InboxService inbox;

    @Inject
    RedsynConfig config;

    private PeriodicSweep sweeps;

    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        sweeps = PeriodicSweep.start(sweepThreads, "redsyn-inbox-sweeper-stop", Math.max(100, config.sweepIntervalMillis()), this::sweep);
    }


    @PreDestroy
    void stop() {
        if (sweeps != null) {
            sweeps.close();
        }
    }

    void sweep() {
        try {
            int handled;
            int rounds = 0;
            do {
                handled = inbox.sweep(System.currentTimeMillis());
            } while (handled > 0 && ++rounds < 50);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "REDSYN inbox sweep failed; retrying at the next interval", e);
        }
    }
}
