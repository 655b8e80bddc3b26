package org.switchboard.redsyn.webhook;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.lifecycle.PeriodicSweep;
import org.switchboard.messaging.WorkQueue;
import org.switchboard.redsyn.message.MessageQueued;

/**
 * Starts webhook deliveries and keeps them going: after a message for a webhook agent commits, a scan
 * of that agent goes on the work queue; every {@link #INTERVAL_MILLIS} the recovery sweep opens
 * deliveries nobody opened (a crash right after commit, copies stored by other features) and wakes
 * up deliveries whose queue item was lost.
 */
@ApplicationScoped
public class WebhookSweeper {

    /** How often the recovery sweep runs. */
    static final long INTERVAL_MILLIS = 10_000;
    /** How late a delivery (or an unopened message) must be before the sweep steps in. */
    static final long GRACE_MILLIS = 30_000;

    private static final Logger LOG = Logger.getLogger(WebhookSweeper.class.getName());
    private static final int BATCH = 200;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory sweepThreads;

    @Inject
    WebhookRegistry registry;

    @Inject
    WorkQueue queue;

    @Inject
    DeliveryStore store;

    @Inject
    WebhookDispatcher dispatcher;

    private PeriodicSweep sweeps;

    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        sweeps = PeriodicSweep.start(sweepThreads, "redsyn-webhook-sweeper-stop", INTERVAL_MILLIS, this::sweep);
    }


    @PreDestroy
    void stop() {
        if (sweeps != null) {
            sweeps.close();
        }
    }

    /** After commit: a message became takeable for this agent; push it if the agent has a webhook. */
    void onQueued(@Observes(during = TransactionPhase.AFTER_SUCCESS) MessageQueued event) {
        try {
            if (registry.has(event.agentId())) {
                queue.submit(WebhookDispatcher.KIND, WorkItem.scan(event.agentId()).toJson(), Duration.ZERO);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not queue a webhook scan; the recovery sweep will push the message", e);
        }
    }

    /**
     * The line a sweep logs, or null when it recovered nothing: in a healthy hub each message or delivery
     * it finds had lost its work-queue item, so an operator should see it.
     */
    static String recoveryReport(int unopened, int overdue) {
        if (unopened == 0 && overdue == 0) {
            return null;
        }
        return "webhook recovery sweep: found " + unopened + " messages never opened, woke " + overdue + " overdue ones";
    }

    void sweep() {
        try {
            long now = System.currentTimeMillis();
            int unopened = 0;
            for (long agentId : store.webhookAgents()) {
                for (DeliveryStore.Waiting w : store.waitingFor(agentId, now - GRACE_MILLIS, BATCH)) {
                    dispatcher.open(w);
                    unopened++;
                }
            }
            List<WorkItem> overdue = store.overdue(now, GRACE_MILLIS, BATCH);
            for (WorkItem item : overdue) {
                queue.submit(WebhookDispatcher.KIND, item.toJson(), Duration.ZERO);
            }
            String report = recoveryReport(unopened, overdue.size());
            if (report != null) {
                LOG.info(report);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "webhook recovery sweep failed; retrying at the next interval", e);
        }
    }
}
