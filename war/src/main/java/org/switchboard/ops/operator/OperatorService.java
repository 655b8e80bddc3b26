package org.switchboard.ops.operator;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.switchboard.journal.Journal;
import org.switchboard.messaging.WorkQueue;
import org.switchboard.redsyn.inbox.InboxService;
import org.switchboard.redsyn.limit.UsageService;
import org.switchboard.redsyn.webhook.DeliveryStore;
import org.switchboard.redsyn.webhook.WebhookDeliveryEntity;
import org.switchboard.redsyn.webhook.WebhookDispatcher;
import org.switchboard.redsyn.webhook.WorkItem;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.board.BoardState;
import org.switchboard.synapse.claims.ClaimsState;
import org.switchboard.synapse.claims.TaskClaim;
import org.switchboard.synapse.hub.SynapseRuntime;

/**
 * The operator services as one CDI bean, used by the MBeans and the console: wires
 * {@link SynapseOperations} and {@link JournalOperations} to the running hub and reads the REDSYN
 * inbox, webhook retry queue and plan usage through their services. Mutations are journalled.
 */
@ApplicationScoped
@Typed(OperatorService.class) // the JMX side injects OperatorOperations, which is the EJB wrapping this bean
public class OperatorService implements OperatorOperations {

    private static final Logger LOG = Logger.getLogger(OperatorService.class.getName());
    /** Rows of the webhook retry queue shown at most. */
    static final int WEBHOOK_ROWS = 500;

    @Inject
    SynapseRuntime runtime;

    @Inject
    Instance<ClaimsState> claimsState;

    @Inject
    Instance<BoardState> boardState;

    @Inject
    Instance<Journal> journals;

    @Inject
    OperatorDatabase database;

    @Inject
    InboxService inbox;

    @Inject
    DeliveryStore deliveries;

    @Inject
    UsageService usage;

    @Inject
    WorkQueue queue;

    @Inject
    org.switchboard.synapse.federation.outbound.ForwardDispatcher forwards;

    @Inject
    @ConfigProperty(name = "hub.data-dir", defaultValue = "./data")
    String dataDir;

    private volatile SynapseOperations synapse;
    private volatile JournalOperations journal;
    private volatile QueueOperations queues;

    private SynapseOperations synapse() {
        SynapseOperations current = synapse;
        if (current == null) {
            SynapseContext ctx = runtime.context();
            ClaimsState claims = claimsState.isResolvable() ? claimsState.get() : null;
            BoardState board = boardState.isResolvable() ? boardState.get() : null;
            current = new SynapseOperations(ctx, () -> claims == null ? null : claims.book(),
                    () -> board == null ? null : board.board(), () -> runtime.hub().mailbox().pendingSnapshot());
            synapse = current;
        }
        return current;
    }

    private JournalOperations journalOps() {
        JournalOperations current = journal;
        if (current == null) {
            Journal j = journals.isResolvable() ? journals.get() : null;
            current = new JournalOperations(j, database, Path.of(dataDir), runtime::replayMillis,
                    () -> runtime.context().frames().now());
            journal = current;
        }
        return current;
    }

    private QueueOperations queues() {
        QueueOperations current = queues;
        if (current == null) {
            current = new QueueOperations(() -> runtime.hub().delivery(), forwards::service);
            queues = current;
        }
        return current;
    }

    @Override
    public Map<String, Long> counters() {
        SynapseContext ctx = runtime.context();
        Map<String, Long> out = new LinkedHashMap<>();
        out.put("open_connections", (long) ctx.registry().connectedClients());
        out.put("online_agents", (long) ctx.registry().onlineCount());
        out.put("live_claims", (long) claims().size());
        out.put("chat_directed", ctx.counters().chatDirected.sum());
        out.put("chat_broadcast", ctx.counters().chatBroadcast.sum());
        out.put("rate_limited", ctx.counters().rateLimited.sum());
        out.put("auth_failures", ctx.counters().authFailures.sum());
        out.put("journal_last_seq", ctx.hasJournal() ? ctx.journal().lastSeq() : 0L);
        out.put("receipt_outbox_pending", ctx.hasJournal() ? ctx.journal().pendingOutboxCount() : 0L);
        out.put("uptime_seconds", Math.round(runtime.hub().uptimeSeconds()));
        return out;
    }

    @Override
    public List<SynapseOperations.RosterEntry> roster() {
        return synapse().roster();
    }

    @Override
    public String disconnect(String connection, String reason, String principal) {
        String id = synapse().disconnect(connection, reason, principal);
        LOG.info(() -> "operator " + OperatorAudit.principal(principal) + " disconnected SYNAPSE connection " + id);
        return id;
    }

    @Override
    public List<TaskClaim> claims() {
        return synapse().claims();
    }

    @Override
    public TaskClaim forceRelease(String taskId, String reason, String principal) {
        TaskClaim released = synapse().forceRelease(taskId, reason, principal);
        LOG.info(() -> "operator " + OperatorAudit.principal(principal) + " force-released claim " + released.taskId()
                + " of " + released.owner());
        return released;
    }

    @Override
    public SortedMap<String, Long> mailboxBacklog() {
        return new TreeMap<>(synapse().mailboxBacklog());
    }

    @Override
    public JsonObject board() {
        return synapse().board();
    }

    @Override
    public JournalOperations.Stats journalStats() {
        return journalOps().stats();
    }

    @Override
    public String backup(String principal) {
        Path zip = journalOps().backup(principal);
        LOG.info(() -> "operator " + OperatorAudit.principal(principal) + " wrote a database backup to " + zip);
        return zip.toString();
    }

    @Override
    public SortedMap<String, long[]> inboxDepths() {
        return inbox.waitingByAgent();
    }

    @Override
    public List<WebhookDelivery> webhookQueue() {
        long now = System.currentTimeMillis();
        List<WebhookDelivery> out = new ArrayList<>();
        for (WebhookDeliveryEntity d : deliveries.pending(WEBHOOK_ROWS)) {
            out.add(new WebhookDelivery(d.getMessageSeq(), d.getMessageId(), d.getAgentId(), d.getAttemptsFailed(),
                    d.getDueAt(), d.getClaimedUntil() > now));
        }
        return out;
    }

    @Override
    public void retryWebhook(long messageSeq, String principal) {
        long now = System.currentTimeMillis();
        WorkItem item = deliveries.retryNow(messageSeq, now);
        if (item == null) {
            throw OperatorRefusal.notFound("no webhook delivery " + messageSeq + " waiting for a retry");
        }
        audit(principal, "redsyn.webhook.retry_now", Long.toString(messageSeq), "");
        queue.submit(WebhookDispatcher.KIND, item.toJson(), Duration.ZERO);
    }

    @Override
    public void dropWebhook(long messageSeq, String reason, String principal) {
        String why = OperatorAudit.requireReason(reason);
        // journalled first: a drop that then finds nothing leaves an audit line saying it was tried
        audit(principal, "redsyn.webhook.drop", Long.toString(messageSeq), why);
        if (!deliveries.drop(messageSeq, System.currentTimeMillis())) {
            throw OperatorRefusal.notFound("no webhook delivery " + messageSeq + " to drop (gone, or an attempt is in flight)");
        }
    }

    @Override
    public List<JsonObject> planUsage() {
        List<JsonObject> out = new ArrayList<>();
        for (String org : usage.orgHandles()) {
            out.add(usage.usageOf(org));
        }
        return out;
    }

    @Override
    public QueueOperations.DeliveryQueue deliveryQueue() {
        return queues().deliveryQueue();
    }

    @Override
    public org.switchboard.synapse.delivery.DeliveryQueueView.Request deliveryRequest(String operationKey) {
        return queues().deliveryRequest(operationKey);
    }

    @Override
    public QueueOperations.ForwardQueue forwardQueue() {
        return queues().forwardQueue();
    }

    private void audit(String principal, String operation, String target, String reason) {
        if (!journals.isResolvable()) {
            return;
        }
        try {
            journals.get().append(List.of(OperatorAudit.event(principal, operation, target, reason,
                    System.currentTimeMillis() / 1000.0)), List.of()).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("operator action not journalled; nothing was done", e);
        } catch (Exception e) {
            throw new IllegalStateException("operator action not journalled; nothing was done", e);
        }
    }
}
