package org.switchboard.synapse.idempotency;

import org.switchboard.synapse.wire.NonCanonicalException;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.Connection;

/**
 * The keyed-request flow shared by every coordination handler (§15): resolves {@code idem_key}
 * (verbatim private replay, {@code idempotency_conflict}, or a fresh run), runs the rule with a
 * {@link JournalCommit}, and publishes the rule's replies only after the journal committed them, in
 * the requester's arrival order. The stored response frame is sent byte-for-byte as recorded.
 */
public final class MutationFlow {

    private static final Logger LOG = Logger.getLogger(MutationFlow.class.getName());

    /** A rule call: decides, commits through {@code commit}, applies, and returns what to send. */
    @FunctionalInterface
    public interface Rule {
        /** Runs the rule at hub time {@code now}; throws {@link CommitFailedException} when an awaited append failed. */
        Mutation apply(JournalCommit commit, double now);
    }

    private final IdempotencyLedger ledger;
    private final Map<String, LongAdder> published = new ConcurrentHashMap<>();
    private final LongAdder keyedInserted = new LongAdder();
    private final LongAdder keyedReplayed = new LongAdder();
    private final LongAdder keyedConflicts = new LongAdder();

    /** A flow over the hub's idempotency ledger. */
    public MutationFlow(IdempotencyLedger ledger) {
        this.ledger = ledger;
    }

    /** The ledger (for release confirmations and replay). */
    public IdempotencyLedger ledger() {
        return ledger;
    }

    /**
     * Runs one mutating verb.
     *
     * @param awaitCommit true = the rule's commit blocks until durable; false = ordered enqueue
     * @param onLostCommit called (off the request thread) when an ordered append failed after the
     *                     rule applied its change, so the owner can rebuild state from the journal
     */
    public void run(InboundFrame in, SynapseContext ctx, boolean awaitCommit, Rule rule,
                    Consumer<Throwable> onLostCommit) {
        Connection connection = in.connection();
        String sender = in.sender();
        String operationKey = null;
        String digest = null;
        String idemKey = IdempotencyLedger.idemKey(in.frame());
        if (!idemKey.isEmpty() && IdempotencyLedger.covers(in.type())) {
            String verb = IdempotencyLedger.normaliseType(in.type());
            try {
                digest = RequestDigest.of(in.frame(), sender, verb);
            } catch (NonCanonicalException e) {
                connection.send(ctx.frames().error(sender, RequestDigest.NON_CANONICAL_SENTENCE)
                        .add("error_code", RequestDigest.NON_CANONICAL_CODE).build().toString());
                return;
            }
            operationKey = IdempotencyLedger.operationKey(sender, verb, idemKey);
            IdempotencyLedger.Lookup lookup = ledger.begin(operationKey, digest);
            if (lookup instanceof IdempotencyLedger.Replay replay) {
                keyedReplayed.increment();
                String text = replay.response().toString();
                connection.inOrder(CompletableFuture.completedFuture(text), connection::send);
                return;
            }
            if (lookup instanceof IdempotencyLedger.Conflict conflict) {
                keyedConflicts.increment();
                connection.send(conflict.error().toString());
                return;
            }
        }
        double now = ctx.frames().now();
        String hubId = ctx.frames().hubId();
        JournalCommit commit = new JournalCommit(ctx.journal(), operationKey, digest, sender, now, hubId, awaitCommit);
        Mutation mutation;
        try {
            mutation = rule.apply(commit, now);
        } catch (CommitFailedException e) {
            finish(operationKey, null);
            LOG.log(Level.WARNING, "SYNAPSE " + in.type() + " from " + org.switchboard.logging.LogSafe.text(sender) + " was not journalled", e.getCause());
            connection.send(notJournalled(ctx, in));
            return;
        } catch (RuntimeException e) {
            finish(operationKey, null);
            throw e;
        }
        String key = operationKey;
        CompletableFuture<long[]> settled = commit.committed().handle((seqs, error) -> {
            if (error != null) {
                LOG.log(Level.SEVERE, "SYNAPSE " + in.type() + " from " + org.switchboard.logging.LogSafe.text(sender) + " lost its journal append", error);
                finish(key, null);
                connection.send(notJournalled(ctx, in));
                onLostCommit.accept(error);
                return null;
            }
            return seqs;
        });
        connection.inOrder(settled, seqs -> {
            if (seqs != null) {
                OperationRecord record = commit.record(seqs);
                if (record != null) {
                    keyedInserted.increment();
                }
                finish(key, record);
                if (!mutation.replies().isEmpty()) {
                    published.computeIfAbsent(mutation.replies().get(0).type(), t -> new LongAdder()).increment();
                }
                publish(mutation.replies(), commit.responseFrame(), connection, sender, now, hubId, ctx);
            }
        });
    }

    /** How many published mutations answered with a first reply of {@code type} (e.g. {@code claim_granted}). */
    public long published(String type) {
        LongAdder n = published.get(type);
        return n == null ? 0 : n.sum();
    }

    /** Keyed operations committed with their operation record. */
    public long keyedInserted() {
        return keyedInserted.sum();
    }

    /** Keyed retries answered from a stored record. */
    public long keyedReplayed() {
        return keyedReplayed.sum();
    }

    /** Keyed retries refused as {@code idempotency_conflict}. */
    public long keyedConflicts() {
        return keyedConflicts.sum();
    }

    private void finish(String operationKey, OperationRecord record) {
        if (operationKey != null) {
            ledger.finish(operationKey, record);
        }
    }

    /** Sends replies in order: broadcasts to every bound socket, the rest to the requester. */
    public static void publish(List<HubReply> replies, JsonObject storedResponse, Connection connection, String sender,
                               double now, String hubId, SynapseContext ctx) {
        for (int i = 0; i < replies.size(); i++) {
            HubReply reply = replies.get(i);
            JsonObject frame = i == 0 && storedResponse != null ? storedResponse : reply.toFrame(sender, now, hubId);
            String text = frame.toString();
            if (reply.broadcast()) {
                ctx.broadcast(text);
            } else {
                connection.send(text);
            }
        }
    }

    private static String notJournalled(SynapseContext ctx, InboundFrame in) {
        return ctx.frames().error(in.sender(), "Request '" + in.type() + "' was not journalled; nothing was applied.")
                .add("error_code", "journal_append_failed").build().toString();
    }
}
