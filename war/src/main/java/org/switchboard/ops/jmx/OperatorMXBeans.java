package org.switchboard.ops.jmx;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.switchboard.ops.operator.JournalOperations;
import org.switchboard.ops.operator.OperatorOperations;
import org.switchboard.ops.operator.OperatorRefusal;
import org.switchboard.ops.operator.QueueOperations;
import org.switchboard.ops.operator.SynapseOperations;
import org.switchboard.synapse.claims.TaskClaim;
import org.switchboard.synapse.delivery.DeliveryQueueView;

/**
 * The operator MXBeans ({@code org.switchboard:type=…,name=…}), open types only so jconsole and
 * Jolokia-style tools read them without our classes. Each call passes the caller's JMX principal to
 * the {@link OperatorOperations}; refusals reach the client as {@link IllegalArgumentException}s
 * (a JDK type: the client cannot load ours).
 */
public final class OperatorMXBeans {

    private OperatorMXBeans() {
    }

    /** {@code org.switchboard:type=Synapse,name=Roster}: open sockets; disconnect one. */
    public interface RosterMXBean {
        Views.ConnectionInfo[] getConnections();

        int getOnlineAgents();

        /** Closes the socket bound to {@code connection} (a name or connection id); returns the connection id. */
        String disconnect(String connection, String reason);
    }

    /** {@code org.switchboard:type=Synapse,name=Claims}: live claims; force-release one (reason required, audited). */
    public interface ClaimsMXBean {
        Views.ClaimInfo[] getClaims();

        int getLiveClaims();

        /** Releases the live claim on {@code taskId} whoever holds it; returns the previous owner. */
        String forceRelease(String taskId, String reason);
    }

    /** {@code org.switchboard:type=Synapse,name=Mailbox}: pending directed chats per identity. */
    public interface MailboxMXBean {
        Map<String, Long> getBacklog();
    }

    /** {@code org.switchboard:type=Journal,name=Journal}: the journal's figures and an online backup. */
    public interface JournalMXBean {
        long getLastSeq();

        long getRows();

        long getSizeBytes();

        long getReplayMillis();

        long getPendingReceipts();

        long getQuarantinedRows();

        /** Writes an H2 backup zip under the data directory; returns its path. */
        String backup();
    }

    /** {@code org.switchboard:type=Redsyn,name=Inbox}: waiting messages per agent address. */
    public interface InboxMXBean {
        Map<String, Long> getQueued();

        Map<String, Long> getTaken();
    }

    /** {@code org.switchboard:type=Redsyn,name=Webhooks}: the webhook retry queue; retry now, drop with a reason. */
    public interface WebhooksMXBean {
        Views.WebhookInfo[] getRetryQueue();

        void retryNow(long messageSeq);

        void drop(long messageSeq, String reason);
    }

    /** {@code org.switchboard:type=Redsyn,name=Plans}: usage against the plan per organisation. */
    public interface PlansMXBean {
        Views.PlanUsageInfo[] getUsage();
    }

    /**
     * {@code org.switchboard:type=Synapse,name=Delivery}: session-bound delivery (synapse-advanced §2): open
     * requests per stage, the oldest open requests and the largest notification backlogs (each list at most
     * {@value QueueOperations#MAX_ROWS} rows), and one request read by its operation key.
     */
    public interface DeliveryMXBean {
        Map<String, Integer> getOpenByStage();

        int getOpenRequestCount();

        int getOffersPending();

        int getNotificationsPending();

        long getNotificationsDropped();

        Views.DeliveryRequestInfo[] getOldestOpenRequests();

        Views.NotificationBacklogInfo[] getNotificationBacklog();

        /** The request with this {@code operation_key} (64 lowercase hex), whatever its stage. */
        Views.DeliveryRequestInfo requestStatus(String operationKey);
    }

    /**
     * {@code org.switchboard:type=Synapse,name=Forwards}: the cross-hub forward outbox (synapse-advanced §4.6):
     * pending per configured peer, in total, the oldest pending age, and the oldest pending forwards (at most
     * {@value QueueOperations#MAX_ROWS}).
     */
    public interface ForwardsMXBean {
        long getPending();

        double getOldestPendingSeconds();

        Views.ForwardPeerInfo[] getPendingByPeer();

        Views.ForwardInfo[] getPendingForwards();
    }

    /** Runs one call, turning operator refusals into a JDK exception type the remote client can read. */
    static <T> T call(Supplier<T> body) {
        try {
            return body.get();
        } catch (OperatorRefusal e) {
            throw new IllegalArgumentException(e.getMessage());
        } catch (RuntimeException e) {
            // never ship our exception classes (or a stack of container internals) to the client
            throw new IllegalStateException(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /** The roster bean. */
    public static final class Roster implements RosterMXBean {
        private final OperatorOperations ops;

        /** Over the operator services. */
        public Roster(OperatorOperations ops) {
            this.ops = ops;
        }

        @Override
        public Views.ConnectionInfo[] getConnections() {
            return call(() -> ops.roster().stream().map(Roster::view).toArray(Views.ConnectionInfo[]::new));
        }

        private static Views.ConnectionInfo view(SynapseOperations.RosterEntry e) {
            return new Views.ConnectionInfo(e.connectionId(), e.name(), e.remoteHost(), String.join(",", e.roles()),
                    e.protocolVersion(), e.openedAt());
        }

        @Override
        public int getOnlineAgents() {
            return call(() -> (int) ops.roster().stream().filter(e -> !e.name().isEmpty()).count());
        }

        @Override
        public String disconnect(String connection, String reason) {
            String principal = JmxPrincipal.current();
            return call(() -> ops.disconnect(connection, reason, principal));
        }
    }

    /** The claims bean. */
    public static final class Claims implements ClaimsMXBean {
        private final OperatorOperations ops;

        /** Over the operator services. */
        public Claims(OperatorOperations ops) {
            this.ops = ops;
        }

        @Override
        public Views.ClaimInfo[] getClaims() {
            return call(() -> ops.claims().stream().map(Claims::view).toArray(Views.ClaimInfo[]::new));
        }

        private static Views.ClaimInfo view(TaskClaim c) {
            return new Views.ClaimInfo(c.taskId(), c.owner(), c.status(), c.epoch(), c.claimedAt(), c.leaseExpiresAt());
        }

        @Override
        public int getLiveClaims() {
            return call(() -> ops.claims().size());
        }

        @Override
        public String forceRelease(String taskId, String reason) {
            String principal = JmxPrincipal.current();
            return call(() -> ops.forceRelease(taskId, reason, principal).owner());
        }
    }

    /** The mailbox bean. */
    public static final class Mailbox implements MailboxMXBean {
        private final OperatorOperations ops;

        /** Over the operator services. */
        public Mailbox(OperatorOperations ops) {
            this.ops = ops;
        }

        @Override
        public Map<String, Long> getBacklog() {
            return call(ops::mailboxBacklog);
        }
    }

    /** The journal bean. */
    public static final class Journal implements JournalMXBean {
        private final OperatorOperations ops;

        /** Over the operator services. */
        public Journal(OperatorOperations ops) {
            this.ops = ops;
        }

        private JournalOperations.Stats stats() {
            return call(ops::journalStats);
        }

        @Override
        public long getLastSeq() {
            return stats().lastSeq();
        }

        @Override
        public long getRows() {
            return stats().rows();
        }

        @Override
        public long getSizeBytes() {
            return stats().sizeBytes();
        }

        @Override
        public long getReplayMillis() {
            return stats().replayMillis();
        }

        @Override
        public long getPendingReceipts() {
            return stats().pendingOutbox();
        }

        @Override
        public long getQuarantinedRows() {
            return stats().quarantinedRows();
        }

        @Override
        public String backup() {
            String principal = JmxPrincipal.current();
            return call(() -> ops.backup(principal));
        }
    }

    /** The REDSYN inbox bean. */
    public static final class Inbox implements InboxMXBean {
        private final OperatorOperations ops;

        /** Over the operator services. */
        public Inbox(OperatorOperations ops) {
            this.ops = ops;
        }

        private Map<String, Long> column(int index) {
            return call(() -> {
                Map<String, Long> out = new TreeMap<>();
                ops.inboxDepths().forEach((agent, counts) -> out.put(agent, counts[index]));
                return out;
            });
        }

        @Override
        public Map<String, Long> getQueued() {
            return column(0);
        }

        @Override
        public Map<String, Long> getTaken() {
            return column(1);
        }
    }

    /** The webhook retry queue bean. */
    public static final class Webhooks implements WebhooksMXBean {
        private final OperatorOperations ops;

        /** Over the operator services. */
        public Webhooks(OperatorOperations ops) {
            this.ops = ops;
        }

        @Override
        public Views.WebhookInfo[] getRetryQueue() {
            return call(() -> ops.webhookQueue().stream().map(d -> new Views.WebhookInfo(d.messageSeq(), d.messageId(),
                    d.agentId(), d.attemptsFailed(), d.dueAt(), d.inFlight())).toArray(Views.WebhookInfo[]::new));
        }

        @Override
        public void retryNow(long messageSeq) {
            String principal = JmxPrincipal.current();
            call(() -> {
                ops.retryWebhook(messageSeq, principal);
                return null;
            });
        }

        @Override
        public void drop(long messageSeq, String reason) {
            String principal = JmxPrincipal.current();
            call(() -> {
                ops.dropWebhook(messageSeq, reason, principal);
                return null;
            });
        }
    }

    /** The plan usage bean. */
    public static final class Plans implements PlansMXBean {
        private final OperatorOperations ops;

        /** Over the operator services. */
        public Plans(OperatorOperations ops) {
            this.ops = ops;
        }

        @Override
        public Views.PlanUsageInfo[] getUsage() {
            return call(() -> ops.planUsage().stream().map(Plans::view).toArray(Views.PlanUsageInfo[]::new));
        }

        private static Views.PlanUsageInfo view(JsonObject u) {
            JsonObject limits = u.getJsonObject("limits");
            return new Views.PlanUsageInfo(u.getString("org"), u.getString("plan"), number(u, "messages_today"),
                    number(limits, "messages_per_day"), number(u, "agents"), number(limits, "agents"),
                    number(u, "files_pending_bytes"));
        }

        private static long number(JsonObject o, String key) {
            return o != null && o.get(key) instanceof JsonNumber n ? n.longValue() : 0;
        }
    }

    /** The delivery queue bean. */
    public static final class Delivery implements DeliveryMXBean {
        private final OperatorOperations ops;

        /** Over the operator services. */
        public Delivery(OperatorOperations ops) {
            this.ops = ops;
        }

        private QueueOperations.DeliveryQueue queue() {
            return call(ops::deliveryQueue);
        }

        static Views.DeliveryRequestInfo view(DeliveryQueueView.Request r) {
            return new Views.DeliveryRequestInfo(r.operationKey(), r.requestId(), r.sender(), r.target(), r.targetIncarnation(),
                    r.taskId(), r.requestedMode(), r.selectedMode(), r.stage(), r.cancelRequested(), r.deadline(), r.ordinal(),
                    r.latestEventSeq());
        }

        @Override
        public Map<String, Integer> getOpenByStage() {
            return queue().openByStage();
        }

        @Override
        public int getOpenRequestCount() {
            return queue().openTotal();
        }

        @Override
        public int getOffersPending() {
            return queue().offersPending();
        }

        @Override
        public int getNotificationsPending() {
            return queue().notificationsPending();
        }

        @Override
        public long getNotificationsDropped() {
            return queue().notificationsDropped();
        }

        @Override
        public Views.DeliveryRequestInfo[] getOldestOpenRequests() {
            return queue().oldestOpen().stream().map(Delivery::view).toArray(Views.DeliveryRequestInfo[]::new);
        }

        @Override
        public Views.NotificationBacklogInfo[] getNotificationBacklog() {
            return queue().notificationBacklog().stream()
                    .map(b -> new Views.NotificationBacklogInfo(b.audience(), b.pending(), b.oldestAt()))
                    .toArray(Views.NotificationBacklogInfo[]::new);
        }

        @Override
        public Views.DeliveryRequestInfo requestStatus(String operationKey) {
            return view(call(() -> ops.deliveryRequest(operationKey)));
        }
    }

    /** The forward outbox bean. */
    public static final class Forwards implements ForwardsMXBean {
        private final OperatorOperations ops;

        /** Over the operator services. */
        public Forwards(OperatorOperations ops) {
            this.ops = ops;
        }

        private QueueOperations.ForwardQueue queue() {
            return call(ops::forwardQueue);
        }

        @Override
        public long getPending() {
            return queue().pending();
        }

        @Override
        public double getOldestPendingSeconds() {
            return queue().oldestPendingSeconds();
        }

        @Override
        public Views.ForwardPeerInfo[] getPendingByPeer() {
            return queue().peers().stream().map(p -> new Views.ForwardPeerInfo(p.peer(), p.pending(), p.oldestPendingSeconds()))
                    .toArray(Views.ForwardPeerInfo[]::new);
        }

        @Override
        public Views.ForwardInfo[] getPendingForwards() {
            return queue().oldestPending().stream().map(f -> new Views.ForwardInfo(f.forwardId(), f.peer(), f.sender(), f.target(),
                    f.state(), f.attempts(), f.createdAt(), f.nextAttemptAt(), f.expiresAt())).toArray(Views.ForwardInfo[]::new);
        }
    }

    /** Every bean with its object name, in registration order. */
    public static Map<String, Object> all(OperatorOperations ops) {
        Map<String, Object> beans = new java.util.LinkedHashMap<>();
        beans.put("org.switchboard:type=Synapse,name=Roster", new Roster(ops));
        beans.put("org.switchboard:type=Synapse,name=Claims", new Claims(ops));
        beans.put("org.switchboard:type=Synapse,name=Mailbox", new Mailbox(ops));
        beans.put("org.switchboard:type=Synapse,name=Delivery", new Delivery(ops));
        beans.put("org.switchboard:type=Synapse,name=Forwards", new Forwards(ops));
        beans.put("org.switchboard:type=Journal,name=Journal", new Journal(ops));
        beans.put("org.switchboard:type=Redsyn,name=Inbox", new Inbox(ops));
        beans.put("org.switchboard:type=Redsyn,name=Webhooks", new Webhooks(ops));
        beans.put("org.switchboard:type=Redsyn,name=Plans", new Plans(ops));
        return beans;
    }

    /** Names of every bean (for docs and tests). */
    public static List<String> names() {
        return List.copyOf(all(null).keySet());
    }
}
