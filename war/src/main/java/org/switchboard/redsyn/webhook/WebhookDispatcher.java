package org.switchboard.redsyn.webhook;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.messaging.WorkHandler;
import org.switchboard.messaging.WorkQueue;
import org.switchboard.redsyn.RedsynConfig;

/**
 * Webhook work taken off the JMS work queue (on the {@code WorkConsumer} MDB's thread; the MDB pool
 * bounds how many POSTs run at once). A delivery attempt is: claim it (short transaction), POST
 * (no transaction), record the outcome (short transaction), and for a failure put the next attempt
 * on the queue with the broker-scheduled delay. A crash anywhere leaves either the unacked queue item
 * (redelivered: the POST is repeated, at least once) or an overdue delivery row the recovery sweep
 * wakes up again.
 */
@ApplicationScoped
public class WebhookDispatcher implements WorkHandler {

    /** The work-queue kind of webhook items. */
    public static final String KIND = "redsyn.webhook";

    private static final Logger LOG = Logger.getLogger(WebhookDispatcher.class.getName());
    private static final int SCAN_BATCH = 500;

    private final WebhookPoster poster = new WebhookPoster();

    @Inject
    DeliveryStore store;

    @Inject
    WorkQueue queue;

    @Inject
    RedsynConfig config;

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public void handle(String body, int deliveryCount) {
        WorkItem item;
        try {
            item = WorkItem.parse(body);
        } catch (IllegalArgumentException e) {
            LOG.warning(() -> "dropped a webhook work item: " + org.switchboard.logging.LogSafe.text(e.getMessage()));
            return;
        }
        if (item.op() == WorkItem.Op.SCAN) {
            scan(item.id());
        } else {
            deliver(item.id(), item.attempt());
        }
    }

    /** Opens a delivery (first attempt due now) for each message waiting for the agent. */
    void scan(long agentId) {
        for (DeliveryStore.Waiting w : store.waitingFor(agentId, Long.MAX_VALUE, SCAN_BATCH)) {
            open(w);
        }
    }

    /** Opens one delivery and queues its first attempt; a concurrent opener winning is fine. */
    void open(DeliveryStore.Waiting w) {
        try {
            store.open(w, System.currentTimeMillis());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "delivery of " + org.switchboard.logging.LogSafe.text(w.messageId()) + " already opened", e);
            return;
        }
        queue.submit(KIND, WorkItem.deliver(w.seq(), 1).toJson(), Duration.ZERO);
    }

    private void deliver(long seq, int attempt) {
        DeliveryAttempt a = store.claim(seq, attempt, System.currentTimeMillis());
        if (a == null) {
            return;
        }
        int status = destinationIsPublic(a) ? poster.post(a, System.currentTimeMillis() / 1000) : -1;
        long now = System.currentTimeMillis();
        if (RetrySchedule.accepted(status)) {
            store.accepted(a, now);
            LOG.fine(() -> org.switchboard.logging.LogSafe.text(a) + ": accepted with " + status);
            return;
        }
        Duration next = new RetrySchedule(config.webhookRetryScale()).afterFailure(attempt);
        if (next == null) {
            store.giveUp(a, now);
            LOG.info(() -> org.switchboard.logging.LogSafe.text(a) + ": answered " + describe(status) + "; last attempt, the sender is told");
            return;
        }
        if (store.failed(a, now + next.toMillis())) {
            queue.submit(KIND, WorkItem.deliver(seq, attempt + 1).toJson(), next);
            LOG.fine(() -> org.switchboard.logging.LogSafe.text(a) + ": answered " + describe(status) + "; next attempt in " + next.toMillis() + " ms");
        }
    }

    /**
     * The host must still resolve to public addresses only (a public name can point inside); an
     * internal or unresolvable destination counts as no answer. The test knob's loopback URL is exempt.
     */
    private boolean destinationIsPublic(DeliveryAttempt a) {
        if (config.webhookAllowLoopbackHttp() && WebhookUrls.isLoopbackHttp(a.url())) {
            return true;
        }
        try {
            InetAddress[] addresses = InetAddress.getAllByName(URI.create(a.url()).getHost());
            for (InetAddress address : addresses) {
                if (!WebhookUrls.publicAddress(address)) {
                    LOG.warning(() -> org.switchboard.logging.LogSafe.text(a) + ": its host resolves to an internal address; not sent");
                    return false;
                }
            }
            return addresses.length > 0;
        } catch (UnknownHostException | IllegalArgumentException e) {
            return false;
        }
    }

    private static String describe(int status) {
        return status < 0 ? "nothing" : Integer.toString(status);
    }
}
