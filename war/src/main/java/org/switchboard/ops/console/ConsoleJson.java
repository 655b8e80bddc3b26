package org.switchboard.ops.console;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.Map;
import org.switchboard.json.Jsons;
import org.switchboard.ops.operator.JournalOperations;
import org.switchboard.ops.operator.OperatorOperations;
import org.switchboard.ops.operator.SynapseOperations;
import org.switchboard.synapse.claims.TaskClaim;

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

    /** A refusal body: {@code {"error": "...", "status": N}}. */
    public static JsonObject error(int status, String message) {
        return Jsons.PROVIDER.createObjectBuilder().add("error", message).add("status", status).build();
    }
}
