package org.switchboard.synapse.federation.receive;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.chat.ChatService;
import org.switchboard.synapse.federation.policy.MultihubPolicy;
import org.switchboard.synapse.federation.policy.PolicyChecks;
import org.switchboard.synapse.wire.JsonFields;

/**
 * The receiving hub's algorithm of synapse-advanced §4.5 for one {@code multihub_message_forward}
 * from a proven peer: decode (malformed → plain error, no result), the inbound ledger
 * ({@code duplicate} / {@code forward_id_conflict}), the kind's checks and action (first failure wins),
 * remembering only accepted forwards, and one {@code multihub_message_result} on the same socket.
 */
public final class ForwardReceiver {

    /** The plain error text for an undecodable forward [SEED]. */
    public static final String MALFORMED = "Malformed multi-hub message forward";
    /** The verb a grant needs for forwards. */
    public static final String VERB = "message";

    private static final Logger LOG = Logger.getLogger(ForwardReceiver.class.getName());

    private final SynapseContext ctx;
    private final ChatService chat;
    private final InboundLedger ledger;
    private final IntSupplier corruptRows;
    private final Supplier<JsonObject> deliverySessions;
    private final ForwardedDelivery delivery;
    private final Map<String, CompletableFuture<ForwardResult>> inFlight = new ConcurrentHashMap<>();
    private final Map<String, java.util.concurrent.atomic.LongAdder> counts = new ConcurrentHashMap<>();

    /**
     * The receiver over the hub's chat router, ledger, journal-recovery state ({@code corruptRows} &gt;
     * 0 = degraded), live delivery sessions and delivery bridge.
     */
    public ForwardReceiver(SynapseContext ctx, ChatService chat, InboundLedger ledger, IntSupplier corruptRows,
                           Supplier<JsonObject> deliverySessions, ForwardedDelivery delivery) {
        this.ctx = ctx;
        this.chat = chat;
        this.ledger = ledger;
        this.corruptRows = corruptRows;
        this.deliverySessions = deliverySessions;
        this.delivery = delivery;
    }

    /** Forwards received, keyed {@code "<kind> <disposition or reason_code>"} (for /metrics). */
    public Map<String, java.util.concurrent.atomic.LongAdder> counts() {
        return counts;
    }

    /**
     * Handles one forward from {@code origin} (the peer's authenticated id) under {@code policy};
     * the result (or the malformed error) is sent on {@code peer}. Completes once it is sent.
     */
    public CompletableFuture<Void> receive(Connection peer, String origin, MultihubPolicy policy, JsonObject frame) {
        ForwardFrame forward = ForwardFrame.decode(frame);
        if (forward == null) {
            count("malformed", "error");
            return peer.send(ctx.frames().errorText(origin, MALFORMED)).thenApply(ok -> null);
        }
        String key = origin + " " + forward.forwardId();
        CompletableFuture<ForwardResult> mine = new CompletableFuture<>();
        CompletableFuture<ForwardResult> running = inFlight.putIfAbsent(key, mine);
        if (running != null) {
            // a repeat racing its first copy: answer it once the first settled (from the ledger if accepted)
            return running.handle((r, e) -> null).thenCompose(ignored -> receive(peer, origin, policy, frame));
        }
        LedgerWrite written = new LedgerWrite();
        CompletableFuture<ForwardResult> result;
        try {
            result = decide(peer, origin, policy, forward, written);
        } catch (RuntimeException e) {
            result = CompletableFuture.failedFuture(e);
        }
        return result.handle((r, error) -> {
            if (error != null) {
                LOG.log(Level.WARNING, "forward from " + origin + " failed", error);
                return ForwardResult.refused("chat_refused", "the receiving hub could not process the forward");
            }
            return r;
        }).thenApplyAsync(r -> {
            // only accepted chats and requests are remembered (§4.5 step 5); reads and the cancel (idempotent by
            // its mutation_id) are answered afresh. A failed write leaves it unremembered: a retry routes again.
            if (r.isAccepted() && forward.targeted() && !written.matches) {
                rememberAccepted(origin, forward, r, written.rode);
            }
            return r;
        }, ctx.blocking()).thenCompose(r -> {
            inFlight.remove(key, mine);
            mine.complete(r);
            count(forward.kind(), r.isAccepted() || "duplicate".equals(r.disposition()) ? r.disposition() : r.reasonCode());
            return peer.send(encode(origin, forward.forwardId(), r)).thenApply(ok -> (Void) null);
        });
    }

    /** What became of a forwarded chat's ledger row that rode with its journal append. */
    private static final class LedgerWrite {
        /** A row rode with the chat's append (it is durable once the chat is). */
        volatile boolean rode;
        /** ... and holds the result the chat actually got: nothing more to write. */
        volatile boolean matches;
    }

    private void rememberAccepted(String origin, ForwardFrame forward, ForwardResult r, boolean amend) {
        try {
            InboundLedger.Entry entry = new InboundLedger.Entry(origin, forward.forwardId(), forward.kind(),
                    forward.digest(), r.result(), ctx.frames().now());
            if (amend) {
                ledger.amend(entry);
            } else {
                ledger.record(entry);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "inbound ledger write failed for a forward from " + origin, e);
        }
    }

    private CompletableFuture<ForwardResult> decide(Connection peer, String origin, MultihubPolicy policy,
                                                    ForwardFrame forward, LedgerWrite written) {
        InboundLedger.Entry seen = ledger.find(origin, forward.forwardId());
        if (seen != null) {
            return done(seen.digest().equals(forward.digest())
                    ? ForwardResult.accepted(seen.result()).asDuplicate()
                    : ForwardResult.refused("forward_id_conflict", "forward_id was used for a different request"));
        }
        if (!PolicyChecks.hubId(origin)) {
            return done(ForwardResult.refused("invalid_origin", ""));
        }
        double now = ctx.frames().now();
        if ("who".equals(forward.kind())) {
            if (!policy.authorisesVerb(origin, VERB, now)) {
                return done(ForwardResult.refused("peer_not_authorised", ""));
            }
            return done(ForwardResult.accepted(roster(namespaces(policy, origin, now))));
        }
        if (forward.targeted() && !ForwardFrame.singleSeat(forward.targetSeat())) {
            return done(ForwardResult.refused("invalid_target", "the target must be exactly one seat"));
        }
        if ("chat".equals(forward.kind())) {
            ForwardResult refusal = namespaceRefusal(policy, origin, forward.targetSeat(), now);
            if (refusal != null) {
                return done(refusal);
            }
            if (corruptRows.getAsInt() > 0) {
                return done(ForwardResult.refused("journal_recovery_required", ""));
            }
            if (!(forward.body().get("payload") instanceof JsonString payload)) {
                return done(ForwardResult.refused("invalid_shape", "payload must be a string"));
            }
            double received = ctx.frames().now();
            ChatService.ForwardLedger rowWithChat = resultForSeq -> {
                org.switchboard.journal.SideRow row = ledger.rowWithChat(origin, forward.forwardId(), forward.kind(),
                        forward.digest(), received, resultForSeq);
                written.rode = row != null;
                return row;
            };
            return chat.forwarded(peer, forward.senderSeat() + "@" + origin, forward.targetSeat(), payload.getString(),
                    origin, forward.forwardId(), JsonFields.string(forward.body(), "client_msg_id"), rowWithChat)
                    .thenApply(outcome -> {
                        if (outcome.refusal() != null) {
                            // refused before the append (quota) or the append failed: no row was written
                            written.rode = false;
                            return ForwardResult.refused("chat_refused", outcome.refusal());
                        }
                        written.matches = written.rode && outcome.ledgered();
                        return ForwardResult.accepted(outcome.result());
                    });
        }
        return delivery.forward(this, peer, origin, policy, forward, corruptRows.getAsInt() > 0);
    }

    /** The §4.5 namespace check of {@code seat}: null when granted, else the refusal. */
    public ForwardResult namespaceRefusal(MultihubPolicy policy, String origin, String seat, double now) {
        if (!policy.authorisesVerb(origin, VERB, now)) {
            return ForwardResult.refused("peer_not_authorised", "");
        }
        String project = ForwardFrame.project(seat);
        if (project.isEmpty() || !policy.grants(origin, project, VERB, now)) {
            return ForwardResult.refused("namespace_not_granted", "");
        }
        return null;
    }

    private static Set<String> namespaces(MultihubPolicy policy, String origin, double now) {
        Set<String> out = new java.util.TreeSet<>();
        for (var g : policy.grants()) {
            if (g.sender().equals(origin) && g.live(now) && g.verbs().contains(VERB)) {
                out.add(g.namespace());
            }
        }
        return out;
    }

    /** The §4.4 {@code who} result: local names whose project the peer may address (names without one hidden). */
    JsonObject roster(Set<String> namespaces) {
        List<String> online = new ArrayList<>();
        for (String name : ctx.registry().roster()) {
            String project = ForwardFrame.project(name);
            if (!project.isEmpty() && namespaces.contains(project)) {
                online.add(name);
            }
        }
        JsonObjectBuilder sessions = Jsons.PROVIDER.createObjectBuilder();
        deliverySessions.get().forEach((name, value) -> {
            String project = ForwardFrame.project(name);
            if (!project.isEmpty() && namespaces.contains(project) && value instanceof JsonObject s) {
                JsonObjectBuilder one = Jsons.PROVIDER.createObjectBuilder();
                if (s.containsKey("incarnation")) {
                    one.add("incarnation", s.get("incarnation"));
                }
                one.add("capabilities", s.getOrDefault("capabilities", JsonValue.EMPTY_JSON_OBJECT));
                sessions.add(name, one);
            }
        });
        return Jsons.PROVIDER.createObjectBuilder().add("online_agents", JsonFields.sortedArray(online))
                .add("delivery_sessions", sessions).build();
    }

    /**
     * The {@code multihub_message_result} frame (private, to the peer), with {@code connection_reuse:
     * true} (ours): this hub answers any number of forwards on one peer connection, each checked as the
     * first, so a Switchboard origin may keep the connection for more.
     */
    public String encode(String origin, String forwardId, ForwardResult r) {
        return ctx.frames().hub("multihub_message_result", origin, "Multi-hub message result")
                .add("forward_id", forwardId).add("disposition", r.disposition())
                .add("answering_hub", ctx.frames().hubId()).add("reason_code", r.reasonCode())
                .add("detail", r.detail()).add("result", r.result()).add("connection_reuse", true).build().toString();
    }

    private void count(String kind, String outcome) {
        counts.computeIfAbsent(kind + " " + outcome, k -> new java.util.concurrent.atomic.LongAdder()).increment();
    }

    static CompletableFuture<ForwardResult> done(ForwardResult r) {
        return CompletableFuture.completedFuture(r);
    }
}
