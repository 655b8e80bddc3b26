package org.switchboard.ops.operator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.switchboard.synapse.delivery.DeliveryQueueView;
import org.switchboard.synapse.delivery.DeliveryService;
import org.switchboard.synapse.delivery.Stage;
import org.switchboard.synapse.federation.outbound.ForwardEntry;
import org.switchboard.synapse.federation.outbound.ForwardOutbox;
import org.switchboard.synapse.federation.outbound.ForwardService;
import org.switchboard.synapse.wire.BoundedText;

/**
 * The operator's read-only views of SYNAPSE's two queues (JMX and the console both call it): session-bound
 * delivery (open requests per stage, the oldest open requests, undelivered notifications per audience, one
 * request by key) and the cross-hub forward outbox (pending per configured peer, oldest age, the oldest
 * pending forwards). Lists are bounded so a long queue cannot make one read expensive.
 */
public final class QueueOperations {

    /** Rows shown at most in each list (open requests, audiences, pending forwards). */
    public static final int MAX_ROWS = 100;

    /** The delivery queue: counts per open stage, the oldest open requests, the largest notification backlogs. */
    public record DeliveryQueue(boolean durable, Map<String, Integer> openByStage, int openTotal, int offersPending,
                                int notificationsPending, long notificationsDropped, List<DeliveryQueueView.Request> oldestOpen,
                                List<DeliveryQueueView.AudienceBacklog> notificationBacklog) {
    }

    /** Pending forwards to one configured peer (zero included) and the age of its oldest, in seconds. */
    public record PeerQueue(String peer, long pending, double oldestPendingSeconds) {
    }

    /** One pending forward; times in epoch seconds. The chat itself is not shown. */
    public record PendingForward(String forwardId, String peer, String sender, String target, String state, int attempts,
                                 double createdAt, double nextAttemptAt, double expiresAt) {
    }

    /** The forward outbox: pending per peer, in total, the oldest age, and the oldest pending forwards. */
    public record ForwardQueue(boolean configured, List<PeerQueue> peers, long pending, double oldestPendingSeconds,
                               List<PendingForward> oldestPending) {
    }

    private final Supplier<DeliveryService> delivery;
    private final Supplier<ForwardService> forwards;

    /**
     * @param delivery the hub's delivery service
     * @param forwards the forward service (null result: the hub was built without forwarding)
     */
    public QueueOperations(Supplier<DeliveryService> delivery, Supplier<ForwardService> forwards) {
        this.delivery = delivery;
        this.forwards = forwards;
    }

    /** The delivery queue now. */
    public DeliveryQueue deliveryQueue() {
        DeliveryService d = delivery.get();
        Map<String, Integer> byStage = new LinkedHashMap<>();
        int total = 0;
        for (Map.Entry<Stage, Integer> e : d.openByStage().entrySet()) {
            byStage.put(e.getKey().wire(), e.getValue());
            total += e.getValue();
        }
        return new DeliveryQueue(d.durable(), byStage, total, d.offersPending(), d.notificationsPending(),
                d.notificationsDropped(), d.openRequests(MAX_ROWS), d.notificationBacklog(MAX_ROWS));
    }

    /** One request by its {@code operation_key} (64 lowercase hex): 400 when malformed, 404 when this hub holds none. */
    public DeliveryQueueView.Request deliveryRequest(String operationKey) {
        String key = operationKey == null ? "" : operationKey.trim();
        if (!BoundedText.hex64(key)) {
            throw OperatorRefusal.badRequest("operation_key must be 64 lowercase hex characters");
        }
        DeliveryQueueView.Request request = delivery.get().request(key);
        if (request == null) {
            throw OperatorRefusal.notFound("no delivery request " + key + " on this hub");
        }
        return request;
    }

    /** The forward outbox now; every configured peer is listed, with zero when nothing waits for it. */
    public ForwardQueue forwardQueue() {
        ForwardService f = forwards.get();
        if (f == null) {
            return new ForwardQueue(false, List.of(), 0, 0, List.of());
        }
        Map<String, ForwardOutbox.PeerStats> stats = f.stats();
        TreeSet<String> names = new TreeSet<>(f.peers().peers().keySet());
        names.addAll(stats.keySet()); // entries journalled for a peer since removed from the configuration
        List<PeerQueue> peers = new ArrayList<>();
        long pending = 0;
        double oldest = 0;
        for (String peer : names) {
            ForwardOutbox.PeerStats s = stats.getOrDefault(peer, new ForwardOutbox.PeerStats(0, 0));
            peers.add(new PeerQueue(peer, s.pending(), s.oldestPendingSeconds()));
            pending += s.pending();
            oldest = Math.max(oldest, s.oldestPendingSeconds());
        }
        List<PendingForward> rows = new ArrayList<>();
        for (ForwardEntry e : f.outbox().pending()) { // oldest first
            if (rows.size() >= MAX_ROWS) {
                break;
            }
            rows.add(new PendingForward(e.forwardId(), e.peer(), e.sender(), e.target(), e.state(), e.attempts(),
                    e.created(), e.nextAttemptAt(), e.expiresAt()));
        }
        return new ForwardQueue(!f.peers().peers().isEmpty(), peers, pending, oldest, rows);
    }
}
