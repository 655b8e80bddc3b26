package org.switchboard.ops;

import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.switchboard.container.ContainerSeam;
import org.switchboard.container.ShortcutStatus;
import org.switchboard.journal.DurationHistogram;
import org.switchboard.journal.FileCompactionStats;
import org.switchboard.journal.JpaJournal;
import org.switchboard.redsyn.store.RelayWriter;
import org.switchboard.synapse.StateSnapshotContributor;
import org.switchboard.synapse.SynapseCounters;
import org.switchboard.synapse.hub.SynapseHub;
import org.switchboard.synapse.hub.SynapseRuntime;
import org.switchboard.synapse.ConnectionRegistry;

/** SYNAPSE {@code GET /metrics} (§17.2): Prometheus text of the {@code synapse_*} gauges and counters, from memory only. */
@WebServlet("/metrics")
public class SynapseMetricsServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    transient SynapseRuntime runtime;

    @Inject
    transient org.switchboard.synapse.federation.outbound.ForwardDispatcher forwards;

    @Inject
    transient ContainerSeam seam;

    @Inject
    transient JpaJournal journal;

    @Inject
    transient RelayWriter relayWriter;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        SynapseHub hub = runtime.hub();
        if (!SynapseEndpointAccess.allowed(runtime, request, response)) {
            return;
        }
        ConnectionRegistry registry = hub.context().registry();
        SynapseCounters counters = hub.context().counters();
        long claims = 0;
        long offers = 0;
        long tasks = 0;
        for (StateSnapshotContributor contributor : hub.contributors()) {
            claims += contributor.activeClaims();
            offers += contributor.resourceOffers();
            tasks += contributor.boardTasks();
        }
        long waiters = registry.boundNames().stream().filter(n -> n.endsWith(ConnectionRegistry.RX)).count();
        StringBuilder out = new StringBuilder(4096);
        gauge(out, "synapse_up", "Always 1 while the hub serves.", 1);
        gauge(out, "synapse_journal_corrupt_rows", "Journal rows quarantined as corrupt.", hub.corruptRows());
        FileCompactionStats compaction = journal.compactionStats();
        gauge(out, "synapse_journal_file_chunks", "Chunks in the embedded H2 file at the last count (-1: not H2).", compaction.chunks());
        gauge(out, "synapse_journal_file_old_chunks", "Of those, chunks older than H2's retention window.", compaction.oldChunks());
        counter(out, "synapse_journal_compactions_total", "H2 file compaction runs that rewrote pages.", compaction.runs());
        counter(out, "synapse_journal_commits_total", "Journal transactions committed (each carries a batch of events).", journal.batchesCommitted());
        seconds(out, "synapse_journal_commit_seconds_total", "Time the journal writer spent committing transactions.",
                journal.timings().commitNanos());
        commitHistogram(out, journal.timings().commitDurations(), journal.timings().commitNanos());
        seconds(out, "synapse_journal_linger_seconds_total", "Time the journal writer waited for more appends before committing.",
                journal.timings().lingeredNanos());
        counter(out, "synapse_journal_appends_total", "Appends committed (each is one change's events, committed together).",
                journal.timings().appendsCommitted());
        seconds(out, "synapse_journal_append_wait_seconds_total", "Sum over committed appends of the time from append to commit.",
                journal.timings().appendWaitNanos());
        counter(out, "synapse_journal_last_seq", "Seq of the newest committed journal event.", journal.lastSeq());
        out.append("# HELP synapse_journal_compaction_seconds_total Time spent in those runs (the pages are rewritten beside the commits; the few chunks holding H2's own metadata under its store lock).\n")
                .append("# TYPE synapse_journal_compaction_seconds_total counter\n")
                .append("synapse_journal_compaction_seconds_total ").append(compaction.seconds()).append('\n');
        metric(out, "synapse_journal_compaction_cpu_seconds_total",
                "CPU time the compacting thread used in those runs (the rest of their time it was off the CPU).", "counter",
                compaction.cpuSeconds());
        org.switchboard.journal.RetentionPass retention = runtime.retention();
        counter(out, "synapse_journal_retention_deleted_total", "Chat events the journal's retention deleted since start (0: retention off).",
                retention == null ? 0 : retention.deletedTotal());
        gauge(out, "synapse_journal_retention_below_seq", "Seq below which retention has deleted chat (0: none yet or off).",
                retention == null ? 0 : retention.deletedBelow());
        gauge(out, "synapse_connected_clients", "Open WebSocket connections.", registry.connectedClients());
        gauge(out, "synapse_online_agents", "Bound agent names.", registry.onlineCount());
        gauge(out, "synapse_active_claims", "Live claims.", claims);
        gauge(out, "synapse_resource_offers", "Resource offers.", offers);
        gauge(out, "synapse_chat_history_messages", "Retained public chat history.", hub.chat().history().size());
        gauge(out, "synapse_mailbox_indexed_chats", "Directed chats in the mailbox index (owed to a named recipient,"
                + " or to roles, projects or globs).", hub.mailbox().indexedDirectedChats());
        gauge(out, "synapse_blackboard_tasks", "Blackboard tasks.", tasks);
        counter(out, "synapse_messages_total", "Highest msg_id assigned.", hub.chat().lastMsgId());
        gauge(out, "synapse_live_waiters", "Bound -rx sidecars.", waiters);
        gauge(out, "synapse_dead_letter_targets", "Dead-letter ledger entries.", hub.chat().deadLetters().targets());
        gauge(out, "synapse_dead_letters", "Sum of dead-letter counts.", hub.chat().deadLetters().total());
        counter(out, "synapse_claims_granted_total", "Claims granted.", featureCounter(hub, "synapse_claims_granted_total"));
        counter(out, "synapse_claims_denied_total", "Claims denied.", featureCounter(hub, "synapse_claims_denied_total"));
        counter(out, "synapse_releases_granted_total", "Releases granted.", featureCounter(hub, "synapse_releases_granted_total"));
        counter(out, "synapse_chat_directed_total", "Directed chats accepted.", counters.chatDirected.sum());
        counter(out, "synapse_chat_broadcast_total", "Broadcast or audience chats accepted.", counters.chatBroadcast.sum());
        counter(out, "synapse_auth_failures_total", "Authentication refusals.", counters.authFailures.sum());
        counter(out, "synapse_rate_limited_total", "Per-sender rate-limit refusals.", counters.rateLimited.sum());
        counter(out, "synapse_durable_ingress_refused_total", "Durable ingress quota refusals.", counters.ingressRefused.sum());
        counter(out, "synapse_federation_denied_total", "Federation refusals.", 0);
        counter(out, "synapse_takeovers_total", "Accepted takeovers.", counters.takeovers.sum());
        counter(out, "synapse_takeover_quarantines_total", "Takeover quarantines.", counters.takeoverQuarantines.sum());
        counter(out, "synapse_identity_pin_mismatches_total", "Registrations refused: identity pin mismatch (4013).", counters.identityPinMismatches.sum());
        counter(out, "synapse_identity_binding_failures_total", "Registrations refused: identity binding failed (4013).", counters.identityBindingFailures.sum());
        counter(out, "synapse_identity_pins_created_total", "TOFU identity pins created.", counters.identityPinsCreated.sum());
        counter(out, "synapse_atomic_operations_inserted_total", "Keyed operations committed.", featureCounter(hub, "synapse_atomic_operations_inserted_total"));
        counter(out, "synapse_atomic_operations_replayed_total", "Keyed operations replayed.", featureCounter(hub, "synapse_atomic_operations_replayed_total"));
        counter(out, "synapse_atomic_operations_conflicts_total", "Idempotency conflicts.", featureCounter(hub, "synapse_atomic_operations_conflicts_total"));
        gauge(out, "synapse_operation_outbox_pending", "Committed keyed operations not yet projected.", 0);
        counter(out, "synapse_coalesced_encoded_bytes_total", "UTF-8 bytes the coalesced writes (broadcasts) encoded.",
                runtime.frameFlusher().encodedBytes());
        counter(out, "synapse_coalesced_reused_bytes_total", "UTF-8 bytes the coalesced writes reused, encoded once for another socket.",
                runtime.frameFlusher().reusedBytes());
        counter(out, "synapse_coalesced_writes_total", "Socket writes made by the coalesced writes' passes.",
                runtime.frameFlusher().writes());
        counter(out, "synapse_coalesced_frames_total", "Frames those writes carried (several per write when a socket had several waiting).",
                runtime.frameFlusher().frames());
        delivery(out, hub.delivery());
        messageForward(out, forwards.service());
        attachmentErrors(out, counters);
        messageAuth(out, counters);
        aclDenials(out, counters);
        governedVerbs(out, counters);
        federation(out, hub.federation());
        containerShortcuts(out);
        counter(out, "redsyn_relay_writer_commits_total", "REDSYN relay writer transactions committed (each carries the writes of many requests).",
                relayWriter.commits());
        counter(out, "redsyn_relay_writer_updates_total", "Statements those transactions carried (a request's inserts, a take's lease of one message, an ack).",
                relayWriter.updates());
        byte[] body = out.toString().getBytes(StandardCharsets.UTF_8);
        // the whole body in the response buffer: written past the buffer (8 KiB) on a request that offered
        // an h2c upgrade (the JDK HttpClient's default), the response left Payara without its Content-Type
        response.setBufferSize(Math.max(response.getBufferSize(), body.length + 1024));
        response.setStatus(200);
        response.setContentType("text/plain; version=0.0.4; charset=utf-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** The receiving side of cross-hub features (issue 18): forwards, peer attachment reads, spend requests. */
    private static void federation(StringBuilder out, org.switchboard.synapse.federation.FederationService federation) {
        out.append("# HELP synapse_federation_forwards_received_total Forwards received by kind and disposition or reason_code.\n")
                .append("# TYPE synapse_federation_forwards_received_total counter\n");
        new java.util.TreeMap<>(federation.receiver().counts()).forEach((key, n) -> {
            String[] parts = key.split(" ", 2);
            out.append("synapse_federation_forwards_received_total{kind=\"").append(parts[0]).append("\",outcome=\"")
                    .append(parts[1]).append("\"} ").append(n.sum()).append('\n');
        });
        counter(out, "synapse_federation_not_peer_total", "Hub-to-hub forwards refused: not a proven granted peer.",
                federation.notPeerRefusals());
        out.append("# HELP synapse_federation_peer_attachment_requests_total Peer attachment requests by decision.\n")
                .append("# TYPE synapse_federation_peer_attachment_requests_total counter\n");
        for (String decision : new String[] {"allowed", "denied"}) {
            java.util.concurrent.atomic.LongAdder n = federation.peerReads().counts().get(decision);
            out.append("synapse_federation_peer_attachment_requests_total{decision=\"").append(decision).append("\"} ")
                    .append(n == null ? 0 : n.sum()).append('\n');
        }
        out.append("# HELP synapse_spend_requests_total spend_request by action and result.\n")
                .append("# TYPE synapse_spend_requests_total counter\n");
        new java.util.TreeMap<>(federation.spend().counts()).forEach((key, n) -> {
            String[] parts = key.split(" ", 2);
            out.append("synapse_spend_requests_total{action=\"").append(parts[0]).append("\",result=\"")
                    .append(parts[1]).append("\"} ").append(n.sum()).append('\n');
        });
    }

    /** Cross-hub forwarding, origin side (synapse-advanced §4.9): the outbox entries still pending. */
    private static void messageForward(StringBuilder out, org.switchboard.synapse.federation.outbound.ForwardService service) {
        long pending = 0;
        double oldest = 0;
        if (service != null) {
            for (var stats : service.stats().values()) {
                pending += stats.pending();
                oldest = Math.max(oldest, stats.oldestPendingSeconds());
            }
        }
        gauge(out, "synapse_message_forward_pending", "Cross-hub forwards pending in the outbox.", pending);
        var connections = service == null ? null : service.connectionStats();
        counter(out, "synapse_message_forward_connections_opened_total",
                "Connections this hub opened to peer hubs (one per forward, or reused ones; ours).",
                connections == null ? 0 : connections.opened());
        counter(out, "synapse_message_forward_reused_total",
                "Forwards sent on a reused peer connection (hub.message-peer-reuse; ours).",
                connections == null ? 0 : connections.reusedForwards());
        out.append("# HELP synapse_message_forward_oldest_pending_seconds Age of the oldest pending cross-hub forward (0 when none).\n")
                .append("# TYPE synapse_message_forward_oldest_pending_seconds gauge\n")
                .append("synapse_message_forward_oldest_pending_seconds ").append(Math.round(oldest * 1000) / 1000.0).append('\n');
    }

    /** Session-bound delivery: open requests by stage, offers pending, sweeps, refusals by reason code. */
    private static void delivery(StringBuilder out, org.switchboard.synapse.delivery.DeliveryService delivery) {
        out.append("# HELP synapse_delivery_open Open delivery requests by stage.\n# TYPE synapse_delivery_open gauge\n");
        delivery.openByStage().forEach((stage, n) ->
                out.append("synapse_delivery_open{stage=\"").append(stage.wire()).append("\"} ").append(n).append('\n'));
        gauge(out, "synapse_delivery_offers_pending", "Delivery requests still queued (offer not yet taken up).", delivery.offersPending());
        counter(out, "synapse_delivery_sweeps_total", "Delivery expiry sweeps run.", delivery.sweeps());
        gauge(out, "synapse_delivery_terminal_held", "Terminal delivery requests held in memory.", delivery.terminalHeld());
        gauge(out, "synapse_delivery_terminal_archived", "Terminal delivery requests held packed in the terminal archive.",
                delivery.terminalArchived());
        gauge(out, "synapse_delivery_terminal_archive_bytes",
                "Bytes of direct memory (outside the heap) the terminal archive's records take.", delivery.terminalArchiveBytes());
        counter(out, "synapse_delivery_terminal_forgotten_total",
                "Terminal delivery requests forgotten from memory (hub.delivery-terminal-*); the journal keeps them.",
                delivery.terminalForgotten());
        out.append("# HELP synapse_delivery_refused_total Delivery refusals by reason_code.\n# TYPE synapse_delivery_refused_total counter\n");
        java.util.Map<String, Long> refused = delivery.refusals();
        for (String code : org.switchboard.synapse.delivery.ReasonCodes.ALL) {
            out.append("synapse_delivery_refused_total{reason_code=\"").append(code).append("\"} ")
                    .append(refused.getOrDefault(code, 0L)).append('\n');
        }
        gauge(out, "synapse_delivery_notifications_pending",
                "Stored delivery notifications (status changes, cancel notices) no socket of their audience has taken yet.",
                delivery.notificationsPending());
        counter(out, "synapse_delivery_notifications_dropped_total",
                "Undelivered delivery notifications dropped at the per-audience or total bound.", delivery.notificationsDropped());
        gauge(out, "synapse_delivery_quarantined_rows", "Delivery journal rows that could not be decoded at start-up.", delivery.quarantined());
    }

    /** Attachment refusals (synapse-advanced §3.6) by stable error string; every string has a line. */
    private static void attachmentErrors(StringBuilder out, SynapseCounters counters) {
        out.append("# HELP synapse_attachment_errors_total Attachment refusals by error string.\n")
                .append("# TYPE synapse_attachment_errors_total counter\n");
        for (String error : org.switchboard.synapse.attachments.AttachmentErrors.ALL) {
            java.util.concurrent.atomic.LongAdder n = counters.attachmentErrors.get(error);
            out.append("synapse_attachment_errors_total{error=\"").append(error).append("\"} ")
                    .append(n == null ? 0 : n.sum()).append('\n');
        }
    }

    /** Per-message authentication verdicts by result (§6.3/§6.4), every result listed even at zero. */
    private static void messageAuth(StringBuilder out, SynapseCounters counters) {
        out.append("# HELP synapse_message_auth_total Signed-verb frames verified, by verification_result.\n")
                .append("# TYPE synapse_message_auth_total counter\n");
        for (String result : org.switchboard.synapse.messageauth.AuthResult.ALL) {
            java.util.concurrent.atomic.LongAdder n = counters.messageAuthResults.get(result);
            out.append("synapse_message_auth_total{result=\"").append(result).append("\"} ")
                    .append(n == null ? 0 : n.sum()).append('\n');
        }
    }

    /** ACL denials by permission (synapse-advanced §6.6), every permission listed so a dashboard sees zeros. */
    /** Governed operator verbs (synapse-advanced §7) by verb and result; only outcomes seen so far have a line. */
    private static void governedVerbs(StringBuilder out, SynapseCounters counters) {
        out.append("# HELP synapse_governed_verbs_total Governed operator verb outcomes by verb and result.\n")
                .append("# TYPE synapse_governed_verbs_total counter\n");
        new java.util.TreeMap<>(counters.governedVerbs).forEach((key, n) -> {
            int space = key.indexOf(' ');
            out.append("synapse_governed_verbs_total{verb=\"").append(key, 0, space).append("\",result=\"")
                    .append(key.substring(space + 1)).append("\"} ").append(n.sum()).append('\n');
        });
    }

    private static void aclDenials(StringBuilder out, SynapseCounters counters) {
        out.append("# HELP synapse_acl_denied_total ACL denials by permission.\n# TYPE synapse_acl_denied_total counter\n");
        java.util.List<String> labels = new java.util.ArrayList<>(org.switchboard.synapse.acl.Permissions.ALL);
        labels.add(org.switchboard.synapse.acl.AclLayer.UNMAPPED);
        for (String permission : labels) {
            java.util.concurrent.atomic.LongAdder n = counters.aclDenials.get(permission);
            out.append("synapse_acl_denied_total{permission=\"").append(permission).append("\"} ")
                    .append(n == null ? 0 : n.sum()).append('\n');
        }
    }

    /** One line per container shortcut: 1 when engaged, 0 when the portable path is taken (see operator-guide.md). */
    private void containerShortcuts(StringBuilder out) {
        String name = "switchboard_container_shortcut_active";
        out.append("# HELP ").append(name).append(" Whether a container shortcut is engaged (1) or the portable path is taken (0).\n")
                .append("# TYPE ").append(name).append(" gauge\n");
        for (ShortcutStatus status : seam.shortcuts().statuses()) {
            out.append(name).append("{name=\"").append(status.shortcut().metricName()).append("\"} ")
                    .append(status.active() ? 1 : 0).append('\n');
        }
    }

    private static long featureCounter(SynapseHub hub, String metric) {
        long sum = 0;
        for (StateSnapshotContributor contributor : hub.contributors()) {
            sum += contributor.counter(metric);
        }
        return sum;
    }

    /**
     * {@code synapse_journal_commit_duration_seconds}, a Prometheus histogram: commits by how long they took
     * (those that waited behind the H2 file's compaction or a collection pause show in its upper buckets).
     */
    private static void commitHistogram(StringBuilder out, DurationHistogram histogram, long sumNanos) {
        String name = "synapse_journal_commit_duration_seconds";
        out.append("# HELP ").append(name).append(" Journal commits by how long each took.\n")
                .append("# TYPE ").append(name).append(" histogram\n");
        long[] cumulative = histogram.cumulative();
        for (int i = 0; i < DurationHistogram.boundedBuckets(); i++) {
            out.append(name).append("_bucket{le=\"").append(DurationHistogram.boundSeconds(i)).append("\"} ")
                    .append(cumulative[i]).append('\n');
        }
        long count = cumulative[DurationHistogram.boundedBuckets()];
        out.append(name).append("_bucket{le=\"+Inf\"} ").append(count).append('\n')
                .append(name).append("_sum ").append(sumNanos / 1e9).append('\n')
                .append(name).append("_count ").append(count).append('\n');
    }

    private static void gauge(StringBuilder out, String name, String help, long value) {
        metric(out, name, help, "gauge", value);
    }

    private static void counter(StringBuilder out, String name, String help, long value) {
        metric(out, name, help, "counter", value);
    }

    private static void seconds(StringBuilder out, String name, String help, long nanos) {
        metric(out, name, help, "counter", nanos / 1e9);
    }

    private static void metric(StringBuilder out, String name, String help, String type, Number value) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n')
                .append("# TYPE ").append(name).append(' ').append(type).append('\n')
                .append(name).append(' ').append(value).append('\n');
    }
}
