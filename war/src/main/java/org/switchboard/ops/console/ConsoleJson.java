package org.switchboard.ops.console;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.Map;
import org.switchboard.json.Jsons;
import org.switchboard.ops.operator.JournalOperations;
import org.switchboard.ops.operator.OperatorOperations;
import org.switchboard.ops.operator.QueueOperations;
import org.switchboard.ops.operator.SynapseOperations;
import org.switchboard.synapse.claims.TaskClaim;
import org.switchboard.synapse.delivery.DeliveryQueueView;

/** The console API's JSON shapes of the operator views (what {@code console.js} renders). */
public final class ConsoleJson {

    private ConsoleJson() {
    }

    /** {@code {"connections": [...]}}. */
    public static JsonObject roster(List<SynapseOperations.RosterEntry> roster) {
        JsonArrayBuilder a = Jsons.PROVIDER.createArrayBuilder();
        for (SynapseOperations.RosterEntry e : roster) {
            JsonArrayBuilder roles = Jsons.PROVIDER.createArrayBuilder();
            e.roles().forEach(roles::add);
            a.add(Jsons.PROVIDER.createObjectBuilder().add("connection_id", e.connectionId()).add("name", e.name())
                    .add("remote_host", e.remoteHost() == null ? "" : e.remoteHost()).add("roles", roles)
                    .add("protocol_version", e.protocolVersion()).add("opened_at", e.openedAt()));
        }
        return Jsons.PROVIDER.createObjectBuilder().add("connections", a).build();
    }

    /** {@code {"claims": [...]}}: each live claim's public projection. */
    public static JsonObject claims(List<TaskClaim> claims) {
        JsonArrayBuilder a = Jsons.PROVIDER.createArrayBuilder();
        claims.forEach(c -> a.add(c.projection()));
        return Jsons.PROVIDER.createObjectBuilder().add("claims", a).build();
    }

    /** {@code {"name": number, ...}} of counters or per-identity counts. */
    public static JsonObject counts(Map<String, Long> counts) {
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder();
        counts.forEach(b::add);
        return b.build();
    }

    /** {@code {"agents": [{"agent", "queued", "taken"}]}}. */
    public static JsonObject inbox(Map<String, long[]> depths) {
        JsonArrayBuilder a = Jsons.PROVIDER.createArrayBuilder();
        depths.forEach((agent, c) -> a.add(Jsons.PROVIDER.createObjectBuilder().add("agent", agent).add("queued", c[0]).add("taken", c[1])));
        return Jsons.PROVIDER.createObjectBuilder().add("agents", a).build();
    }

    /** {@code {"deliveries": [...]}}: the webhook retry queue. */
    public static JsonObject webhooks(List<OperatorOperations.WebhookDelivery> queue) {
        JsonArrayBuilder a = Jsons.PROVIDER.createArrayBuilder();
        for (OperatorOperations.WebhookDelivery d : queue) {
            a.add(Jsons.PROVIDER.createObjectBuilder().add("message_seq", d.messageSeq()).add("message_id", d.messageId())
                    .add("agent_id", d.agentId()).add("attempts_failed", d.attemptsFailed()).add("due_at_ms", d.dueAt())
                    .add("in_flight", d.inFlight()));
        }
        return Jsons.PROVIDER.createObjectBuilder().add("deliveries", a).build();
    }

    /** The journal's figures. */
    public static JsonObject journal(JournalOperations.Stats s) {
        return Jsons.PROVIDER.createObjectBuilder().add("last_seq", s.lastSeq()).add("rows", s.rows())
                .add("size_bytes", s.sizeBytes()).add("replay_ms", s.replayMillis())
                .add("receipt_outbox_pending", s.pendingOutbox()).add("quarantined_rows", s.quarantinedRows()).build();
    }

    /** {@code {"orgs": [...]}}: usage objects as REDSYN's usage endpoint shows them. */
    public static JsonObject plans(List<JsonObject> usage) {
        JsonArrayBuilder a = Jsons.PROVIDER.createArrayBuilder();
        usage.forEach(a::add);
        return Jsons.PROVIDER.createObjectBuilder().add("orgs", a).build();
    }

    /**
     * The delivery queue: {@code {"durable", "open_by_stage": {stage: n}, "open_total", "offers_pending",
     * "notifications_pending", "notifications_dropped", "requests": [...], "audiences": [...]}}.
     */
    public static JsonObject delivery(QueueOperations.DeliveryQueue q) {
        JsonObjectBuilder stages = Jsons.PROVIDER.createObjectBuilder();
        q.openByStage().forEach(stages::add);
        JsonArrayBuilder requests = Jsons.PROVIDER.createArrayBuilder();
        q.oldestOpen().forEach(r -> requests.add(request(r)));
        JsonArrayBuilder audiences = Jsons.PROVIDER.createArrayBuilder();
        q.notificationBacklog().forEach(b -> audiences.add(Jsons.PROVIDER.createObjectBuilder().add("audience", b.audience())
                .add("pending", b.pending()).add("oldest_at", b.oldestAt())));
        return Jsons.PROVIDER.createObjectBuilder().add("durable", q.durable()).add("open_by_stage", stages)
                .add("open_total", q.openTotal()).add("offers_pending", q.offersPending())
                .add("notifications_pending", q.notificationsPending()).add("notifications_dropped", q.notificationsDropped())
                .add("requests", requests).add("audiences", audiences).build();
    }

    /** One delivery request (never its body), with the wire's field names. */
    public static JsonObject request(DeliveryQueueView.Request r) {
        return Jsons.PROVIDER.createObjectBuilder().add("operation_key", r.operationKey()).add("request_id", r.requestId())
                .add("sender", r.sender()).add("target", r.target()).add("target_incarnation", r.targetIncarnation())
                .add("task_id", r.taskId()).add("requested_mode", r.requestedMode()).add("selected_mode", r.selectedMode())
                .add("stage", r.stage()).add("cancel_requested", r.cancelRequested()).add("deadline", r.deadline())
                .add("ordinal", r.ordinal()).add("latest_event_seq", r.latestEventSeq()).build();
    }

    /**
     * The forward outbox: {@code {"configured", "pending", "oldest_pending_seconds", "peers": [...],
     * "forwards": [...]}}.
     */
    public static JsonObject forwards(QueueOperations.ForwardQueue q) {
        JsonArrayBuilder peers = Jsons.PROVIDER.createArrayBuilder();
        q.peers().forEach(p -> peers.add(Jsons.PROVIDER.createObjectBuilder().add("peer", p.peer()).add("pending", p.pending())
                .add("oldest_pending_seconds", p.oldestPendingSeconds())));
        JsonArrayBuilder forwards = Jsons.PROVIDER.createArrayBuilder();
        q.oldestPending().forEach(f -> forwards.add(Jsons.PROVIDER.createObjectBuilder().add("forward_id", f.forwardId())
                .add("peer", f.peer()).add("sender", f.sender()).add("target", f.target()).add("state", f.state())
                .add("attempts", f.attempts()).add("created_at", f.createdAt()).add("next_attempt_at", f.nextAttemptAt())
                .add("expires_at", f.expiresAt())));
        return Jsons.PROVIDER.createObjectBuilder().add("configured", q.configured()).add("pending", q.pending())
                .add("oldest_pending_seconds", q.oldestPendingSeconds()).add("peers", peers).add("forwards", forwards).build();
    }

    /** A refusal body: {@code {"error": "...", "status": N}}. */
    public static JsonObject error(int status, String message) {
        return Jsons.PROVIDER.createObjectBuilder().add("error", message).add("status", status).build();
    }
}
