package org.switchboard.redsyn.inbox;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.lifecycle.StopSignal;
import org.switchboard.redsyn.RedsynConfig;

/**
 * Runs the inbox sweep (lease expiry, abandonment, TTL expiry) every {@code redsyn.inbox.sweep-interval-ms}
 * on the managed scheduled executor (EJB timers need the data grid, which a single hub switches off).
 * Fixed delay, so sweeps never overlap.
 */
@ApplicationScoped
public class InboxSweeper {

    private static final Logger LOG = Logger.getLogger(InboxSweeper.class.getName());

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    InboxService inbox;

    @Inject
    RedsynConfig config;

    private ScheduledFuture<?> task;
    private StopSignal stopSignal;

    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        long interval = Math.max(100, config.sweepIntervalMillis());
        ScheduledFuture<?> scheduled = scheduler.scheduleWithFixedDelay(this::sweep, interval, interval, TimeUnit.MILLISECONDS);
        task = scheduled;
        // stop sweeping at the signal, before the container suspends its executors
        stopSignal = StopSignal.onStop("redsyn-inbox-sweeper-stop", () -> scheduled.cancel(false));
    }

    @PreDestroy
    void stop() {
        if (stopSignal != null) {
            stopSignal.close();
        }
        if (task != null) {
            task.cancel(false);
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
