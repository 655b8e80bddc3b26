package org.switchboard.ops.operator;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.board.Blackboard;
import org.switchboard.synapse.claims.ClaimBook;
import org.switchboard.synapse.claims.TaskClaim;
import org.switchboard.synapse.idempotency.CommitFailedException;
import org.switchboard.synapse.idempotency.HubReply;
import org.switchboard.synapse.idempotency.Mutation;
import org.switchboard.synapse.idempotency.MutationCommit;

/**
 * The SYNAPSE side of the operator's views and actions (JMX and console both call it): roster and
 * disconnect, live claims and force-release, mailbox backlog, blackboard. Every action is journalled
 * as an {@link OperatorAudit} event before it takes effect; a failed append changes nothing.
 */
public final class SynapseOperations {

    /** WebSocket close code of an operator disconnect (policy violation: the client should not retry blindly). */
    public static final int DISCONNECT_CODE = 1008;
    private static final long APPEND_SECONDS = 30;

    /** One open socket as the operator sees it. */
    public record RosterEntry(String connectionId, String name, String remoteHost, List<String> roles,
                              int protocolVersion, double openedAt) {
    }

    private final SynapseContext ctx;
    private final Supplier<ClaimBook> book;
    private final Supplier<Blackboard> board;
    private final Supplier<JsonObject> mailboxPending;

    /**
     * @param ctx            the running hub (registry, journal, clock, broadcast)
     * @param book           the claim book (null supplier result = no coordination deployed)
     * @param board          the blackboard (idem)
     * @param mailboxPending the {@code who_snapshot.mailbox_pending} projection (null without a journal)
     */
    public SynapseOperations(SynapseContext ctx, Supplier<ClaimBook> book, Supplier<Blackboard> board,
                             Supplier<JsonObject> mailboxPending) {
        this.ctx = ctx;
        this.book = book;
        this.board = board;
        this.mailboxPending = mailboxPending;
    }

    /** Every open socket, bound ones by name first, then unbound ones by id. */
    public List<RosterEntry> roster() {
        List<RosterEntry> out = new ArrayList<>();
        for (Connection c : ctx.registry().openConnections()) {
            out.add(new RosterEntry(c.id(), c.name() == null ? "" : c.name(), c.peer().remoteHost(), c.roles(),
                    c.protocolVersion(), c.openedAt()));
        }
        out.sort(Comparator.comparing((RosterEntry e) -> e.name().isEmpty()).thenComparing(RosterEntry::name)
                .thenComparing(RosterEntry::connectionId));
        return out;
    }

    /**
     * Closes one socket (found by bound name, else by connection id) with {@link #DISCONNECT_CODE} and
     * "disconnected by operator"; journals the action first. Returns the connection id closed.
     */
    public String disconnect(String connection, String reason, String principal) {
        String why = OperatorAudit.requireReason(reason);
        if (connection == null || connection.isBlank()) {
            throw OperatorRefusal.badRequest("which connection? give its name or connection id");
        }
        Connection target = find(connection.trim());
        if (target == null) {
            throw OperatorRefusal.notFound("no open connection named or numbered '" + connection.trim() + "'");
        }
        String label = target.name() == null ? target.id() : target.name() + " (" + target.id() + ")";
        append(List.of(OperatorAudit.event(principal, "synapse.disconnect", label, why, ctx.frames().now())));
        target.close(DISCONNECT_CODE, "disconnected by operator");
        return target.id();
    }

    private Connection find(String key) {
        Connection bound = ctx.registry().socketOf(key);
        if (bound != null) {
            return bound;
        }
        for (Connection c : ctx.registry().openConnections()) {
            if (c.id().equals(key)) {
                return c;
            }
        }
        return null;
    }

    /** Live claims, sorted by task id. */
    public List<TaskClaim> claims() {
        ClaimBook b = book.get();
        return b == null ? List.of() : b.liveClaims(ctx.frames().now());
    }

    /**
     * Releases a live claim whoever holds it: the {@code release} and the audit event are journalled in
     * one batch before the book frees the task, then every bound socket gets {@code release_granted}
     * (with {@code released_by_operator}). Returns the claim released.
     */
    public TaskClaim forceRelease(String taskId, String reason, String principal) {
        String why = OperatorAudit.requireReason(reason);
        if (taskId == null || taskId.isBlank()) {
            throw OperatorRefusal.badRequest("which task? give its task_id");
        }
        ClaimBook b = book.get();
        if (b == null) {
            throw OperatorRefusal.conflict("no claim book on this hub");
        }
        double now = ctx.frames().now();
        Mutation[] committed = new Mutation[1];
        MutationCommit commit = mutation -> {
            append(mutation.events());
            committed[0] = mutation;
        };
        TaskClaim released = b.operatorRelease(taskId.trim(),
                OperatorAudit.event(principal, "synapse.claims.force_release", taskId.trim(), why, now), now, commit);
        if (released == null) {
            throw OperatorRefusal.notFound("no live claim on task '" + taskId.trim() + "'");
        }
        for (HubReply reply : committed[0].replies()) {
            ctx.broadcast(reply.toFrame("all", now, ctx.frames().hubId()).toString());
        }
        return released;
    }

    /** Pending directed chats per identity (online ones and recently touched ones), sorted; empty without a journal. */
    public Map<String, Long> mailboxBacklog() {
        JsonObject pending = mailboxPending.get();
        Map<String, Long> out = new TreeMap<>();
        if (pending != null) {
            for (Map.Entry<String, JsonValue> e : pending.entrySet()) {
                if (e.getValue() instanceof JsonNumber n) {
                    out.put(e.getKey(), n.longValue());
                }
            }
        }
        return out;
    }

    /** The blackboard as {@code board_snapshot} shows it (empty object when no board is deployed). */
    public JsonObject board() {
        Blackboard b = board.get();
        return b == null ? JsonValue.EMPTY_JSON_OBJECT : b.snapshot();
    }

    /** Open sockets and bound names. */
    public int openConnections() {
        return ctx.registry().connectedClients();
    }

    /** Bound names. */
    public int onlineAgents() {
        return ctx.registry().onlineCount();
    }

    /** Appends and waits for the commit; without a journal nothing is recorded (and nothing durable changes). */
    private void append(List<JournalEvent.Draft> events) {
        if (!ctx.hasJournal() || events.isEmpty()) {
            return;
        }
        try {
            ctx.journal().append(events, List.of()).get(APPEND_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommitFailedException(e);
        } catch (Exception e) {
            throw new CommitFailedException(e);
        }
    }
}
