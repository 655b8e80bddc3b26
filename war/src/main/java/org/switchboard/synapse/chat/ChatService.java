package org.switchboard.synapse.chat;

import org.switchboard.journal.snapshot.SnapshotText;
import org.switchboard.json.JsonText;
import org.switchboard.json.Jsons;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.PayloadCodec;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SharedText;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.mailbox.MailboxService;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.ConnectionRegistry;
import org.switchboard.synapse.wire.HubStrings;
import org.switchboard.synapse.wire.JsonFields;
import org.switchboard.synapse.addressing.Addressing;
import org.switchboard.synapse.receipts.ReceiptService;

/**
 * Chat processing in the normative order of §7.2: structured-response check, stamping,
 * duplicate suppression, ingress quota, {@code msg_id}, channel or public routing, dead letters,
 * journal-before-fan-out, receipts and liveness warnings. No global lock: the only shared
 * mutable state is concurrent maps and an atomic {@code msg_id} counter.
 */
public final class ChatService {

    private final SynapseContext ctx;
    private final ChatHistory history;
    private final DuplicateSuppressor duplicates = new DuplicateSuppressor();
    private final DeadLetterLedger deadLetters = new DeadLetterLedger();
    private final IngressQuotas quotas;
    private final ReceiptService receipts;
    private final MailboxService mailbox;
    private final ChannelService channels;
    private final AtomicLong msgIds = new AtomicLong();
    private volatile RemoteChats remote;

    /** Chat rules wired to the hub's shared parts. */
    public ChatService(SynapseContext ctx, ReceiptService receipts, MailboxService mailbox, ChannelService channels) {
        this.ctx = ctx;
        this.receipts = receipts;
        this.mailbox = mailbox;
        this.channels = channels;
        this.history = new ChatHistory(ctx.settings().historyLimit(), ctx.settings().historyMaxBytes());
        channels.chatService(this);
        var s = ctx.settings();
        this.quotas = s.ingressQuotaEnabled() ? new IngressQuotas(s.ingressQuotaMaxEvents(), s.ingressQuotaMaxBytes(),
                s.ingressQuotaWindowSeconds(), s.ingressQuotaMaxPrincipals()) : null;
    }

    public ChatHistory history() {
        return history;
    }

    ReceiptService receipts() {
        return receipts;
    }

    public DeadLetterLedger deadLetters() {
        return deadLetters;
    }

    /** Highest msg_id assigned (the {@code synapse_messages_total} counter). */
    public long lastMsgId() {
        return msgIds.get();
    }

    /** Handles one inbound {@code chat}. */
    public void handle(InboundFrame in) {
        Connection connection = in.connection();
        String sender = in.sender();
        JsonObject frame = in.frame();
        String refusal = StructuredResponses.validate(frame, sender, connection.roles(), ctx.journal());
        if (refusal != null) {
            connection.send(ctx.frames().errorText(sender, refusal));
            return;
        }
        String channel = JsonFields.string(frame, "channel");
        String target = in.target();
        // a seat on another hub (synapse-advanced §4.6): refused here, before anything is stored; channel chats stay local
        boolean remoteTarget = channel == null && target != null && target.indexOf('@') >= 0;
        if (remoteTarget) {
            RemoteChats forwarding = remote;
            String refused = forwarding == null ? "Cross-hub forwarding is not configured on this hub"
                    : forwarding.refusal(sender, target, frame);
            if (refused != null) {
                connection.send(ctx.frames().errorText(sender, refused));
                return;
            }
        }
        double now = ctx.frames().now();
        Double clientTimestamp = JsonFields.number(frame, "timestamp");
        String clientMsgId = DuplicateSuppressor.normaliseId(JsonFields.string(frame, "client_msg_id"));
        String hubId = ctx.frames().hubId();

        // without msg_id: what duplicates are compared on and quotas charge for (written once for both)
        String unnumbered = clientMsgId != null || quotas != null
                ? ChatStamp.json(frame, clientTimestamp, now, clientMsgId, hubId, null) : null;
        String digest = null;
        if (clientMsgId != null) {
            CompletableFuture<Void> first = duplicates.inFlight(sender, clientMsgId);
            if (first != null) {
                // a resend overtaking its first copy: decide once that copy was (or was not) delivered
                first.whenComplete((ignored, error) -> handle(in));
                return;
            }
            digest = DuplicateSuppressor.contentDigest(PayloadCodec.decode(unnumbered));
            DuplicateSuppressor.Verdict verdict = duplicates.check(sender, clientMsgId, digest, now);
            if (verdict.duplicate()) {
                connection.send(duplicateNotice(sender, clientMsgId, verdict.remembered()));
                return;
            }
            if (verdict.conflict()) {
                connection.send(ctx.frames().error(sender, HubStrings.CLIENT_MSG_ID_CONFLICT)
                        .add("error_code", "client_msg_id_conflict").add("client_msg_id", clientMsgId)
                        .build().toString());
                return;
            }
        }
        if (quotas != null) {
            String reason = quotas.charge(connection.quotaPrincipal(),
                    unnumbered.getBytes(StandardCharsets.UTF_8).length, now);
            if (reason != null) {
                ctx.counters().ingressRefused.increment();
                connection.send(ctx.frames().errorText(sender, HubStrings.quotaExceeded(reason)));
                return;
            }
        }
        long msgId = msgIds.incrementAndGet();
        // serialised once: the journal stores this text and delivery splices the seq into it. A stamped
        // text already written for duplicates or quotas only lacks msg_id, which ChatStamp puts last
        // when the client sent none.
        String chatJson = unnumbered != null && !frame.containsKey("msg_id")
                ? JsonText.withLongMember(unnumbered, "msg_id", msgId)
                : ChatStamp.json(frame, clientTimestamp, now, clientMsgId, hubId, msgId);
        Outgoing out = new Outgoing(connection, sender, target, chatJson, msgId, clientMsgId, digest,
                JsonFields.isTrue(frame, "receipt_requested"), now);
        if (channel != null) {
            channels.route(out, channel);
            return;
        }
        if (clientMsgId != null) {
            duplicates.sending(sender, clientMsgId);
        }
        if (remoteTarget) {
            routeRemote(out, frame);
            return;
        }
        routePublic(out);
    }

    /** Installs the cross-hub forwarding of hub-qualified chats (synapse-advanced §4.6). */
    public void remoteChats(RemoteChats forwarding) {
        this.remote = forwarding;
    }

    /**
     * A chat to a seat on another hub: journalled like a local one (with its {@code forward_id}) in the
     * same append as its outbox entry, kept in history, shown locally only where a local chat to an
     * unknown seat would be (everyone without private directed routing, else the sender), then handed on.
     */
    private void routeRemote(Outgoing out, JsonObject frame) {
        RemoteChats.Forward forward = remote.prepare(out.sender(), out.target(), frame, out.msgId(), out.now(),
                out.clientMsgId(), out.receiptRequested());
        String chatJson = new StringBuilder(out.chatJson().length() + 64).append(out.chatJson(), 0, out.chatJson().length() - 1)
                .append(",\"forward_id\":\"").append(forward.forwardId()).append("\"}").toString();
        Outgoing stamped = new Outgoing(out.connection(), out.sender(), out.target(), chatJson, out.msgId(), out.clientMsgId(),
                out.digest(), out.receiptRequested(), out.now());
        CompletableFuture<Long> committed = ctx.journal()
                .append(List.of(new JournalEvent.Draft("chat", null, chatJson), forward.outboxEvent()), List.of())
                .thenApply(seqs -> seqs[0]);
        committed = committed.thenApplyAsync(seq -> seq, ctx.publish());
        Recipients nobody = new Recipients(List.of(), List.of(), List.of(), true);
        out.connection().inOrder(committed, seq -> {
            String text = seq == null ? chatJson : withSeq(chatJson, seq);
            history.add(chatJson, seq, out.msgId());
            ctx.counters().chatDirected.increment();
            fanOut(stamped, nobody, text, seq, true);
            if (out.clientMsgId() != null) {
                // reached the outbox: a resend is a duplicate (seed: "or a peer hub's forward outbox")
                duplicates.remember(out.sender(), out.clientMsgId(),
                        new DuplicateSuppressor.Remembered(out.digest(), out.msgId(), seq, null, out.now()));
                duplicates.settled(out.sender(), out.clientMsgId());
            }
            remote.committed(forward, seq);
        }).whenComplete((ignored, error) -> {
            if (error != null) {
                refuseUnjournalled(out);
                if (out.clientMsgId() != null) {
                    duplicates.settled(out.sender(), out.clientMsgId());
                }
            }
        });
    }

    /**
     * What a chat forwarded by a peer hub came to: the §4.4 result object, or the router's refusal text;
     * {@code ledgered} tells whether the ledger row that rode with the chat's append holds this very result.
     */
    public record ForwardedOutcome(String refusal, JsonObject result, boolean ledgered) {
        /** An outcome whose result no ledger row holds yet. */
        public ForwardedOutcome(String refusal, JsonObject result) {
            this(refusal, result, false);
        }
    }

    /**
     * Makes the receiver's inbound-ledger row that rides in a forwarded chat's own journal append
     * (issue 18: chat and ledger row commit together, so a crash between them cannot make a retry
     * deliver the chat twice). {@code resultForSeq} gives the result's JSON text once the chat's seq is
     * known; null when the ledger cannot ride with the append.
     */
    public interface ForwardLedger {
        org.switchboard.journal.SideRow row(java.util.function.LongFunction<String> resultForSeq);
    }

    /**
     * A chat a granted peer hub forwarded (synapse-advanced §4.5): routed like a local chat from
     * {@code sender} ({@code seat@origin}) with {@code forwarded_from} and {@code forward_id} in the
     * recipients' frame, journalled, charged to the peer connection's quota, never copied back to the
     * peer's socket. Completes with the §4.4 result once the live writes settled.
     * With {@code ledger} (null: none), the chat's append also carries the ledger row of the result
     * this chat is expected to get (its recipients as resolved before the append, every live write
     * succeeding); the outcome says whether the actual result matched it, and when not the caller amends.
     */
    public CompletableFuture<ForwardedOutcome> forwarded(Connection peer, String sender, String target, String payload,
                                                         String origin, String forwardId, String clientMsgId,
                                                         ForwardLedger ledger) {
        double now = ctx.frames().now();
        JsonObjectBuilder frame = Jsons.PROVIDER.createObjectBuilder().add("type", "chat").add("sender", sender)
                .add("target", target).add("payload", payload).add("forwarded_from", origin).add("forward_id", forwardId);
        String cleanId = DuplicateSuppressor.normaliseId(clientMsgId);
        JsonObject built = frame.build();
        if (quotas != null) {
            String reason = quotas.charge(peer.quotaPrincipal(),
                    ChatStamp.json(built, null, now, cleanId, ctx.frames().hubId(), null)
                            .getBytes(StandardCharsets.UTF_8).length, now);
            if (reason != null) {
                ctx.counters().ingressRefused.increment();
                return CompletableFuture.completedFuture(new ForwardedOutcome(HubStrings.quotaExceeded(reason), null));
            }
        }
        long msgId = msgIds.incrementAndGet();
        String chatJson = ChatStamp.json(built, null, now, cleanId, ctx.frames().hubId(), msgId);
        Outgoing out = new Outgoing(peer, sender, target, chatJson, msgId, null, null, false, now);
        boolean directed = Addressing.isDirectedTarget(target);
        JsonObject expected = null;
        org.switchboard.journal.SideRow row = null;
        if (ledger != null && ctx.hasJournal()) {
            Recipients predicted = Recipients.resolve(target, sender, ctx.registry(), now);
            List<String> counted = predicted.directed() ? predicted.live() : predicted.matched();
            JsonObject result = forwardResult(null, msgId, verdict(predicted, counted, Map.of()));
            String tail = result.toString().substring(1); // the members after seq, with the closing brace
            row = ledger.row(seq -> "{\"seq\":" + seq + "," + tail);
            expected = row == null ? null : result;
        }
        CompletableFuture<Long> committed = append(out, directed, row == null ? List.of() : List.of(row));
        // resolved again after the append is issued, as for a local chat (see routePublic)
        Recipients recipients = Recipients.resolve(target, sender, ctx.registry(), now);
        long deadLetterCount = directed && recipients.live().isEmpty() ? deadLetters.record(target, sender, now) : 0;
        if (ctx.hasJournal()) {
            committed = committed.thenApplyAsync(seq -> seq, ctx.publish());
        }
        CompletableFuture<ForwardedOutcome> outcome = new CompletableFuture<>();
        JsonObject ledgered = expected;
        committed.whenComplete((seq, error) -> {
            if (error != null) {
                outcome.complete(new ForwardedOutcome("Chat was not journalled; message dropped.", null));
                return;
            }
            try {
                publishForwarded(out, recipients, seq, deadLetterCount, outcome, ledgered);
            } catch (RuntimeException e) {
                outcome.completeExceptionally(e);
            }
        });
        return outcome;
    }

    private void publishForwarded(Outgoing out, Recipients recipients, Long seq, long deadLetterCount,
                                  CompletableFuture<ForwardedOutcome> outcome, JsonObject ledgered) {
        String text = seq == null ? out.chatJson() : withSeq(out.chatJson(), seq);
        history.add(out.chatJson(), seq, out.msgId());
        if (seq != null) {
            mailbox.chatCommitted(seq, out.sender(), out.target(), false, out.now());
        }
        (recipients.directed() ? ctx.counters().chatDirected : ctx.counters().chatBroadcast).increment();
        Map<String, String> wake = wakeCapabilities(recipients.matched());
        Map<Connection, CompletableFuture<Boolean>> writes = fanOut(out, recipients, text, seq, false);
        if (deadLetterCount > 0) {
            escalate(out, deadLetterCount);
        }
        List<String> counted = recipients.directed() ? recipients.live() : recipients.matched();
        Map<String, List<CompletableFuture<Boolean>>> perRecipient = new LinkedHashMap<>();
        for (String recipient : counted) {
            List<CompletableFuture<Boolean>> futures = new ArrayList<>(1);
            ctx.registry().socketsOf(recipient, socket -> {
                CompletableFuture<Boolean> write = writes.get(socket);
                if (write != null) {
                    futures.add(write);
                }
            });
            perRecipient.put(recipient, futures);
        }
        List<CompletableFuture<Boolean>> all = new ArrayList<>();
        perRecipient.values().forEach(all::addAll);
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).whenComplete((ignored, error) -> {
            List<String> delivered = new ArrayList<>();
            perRecipient.forEach((recipient, futures) -> {
                for (CompletableFuture<Boolean> f : futures) {
                    if (Boolean.TRUE.equals(f.getNow(false))) {
                        delivered.add(recipient);
                        return;
                    }
                }
            });
            ReceiptService.Verdict v = verdict(recipients, delivered, wake);
            JsonObject result = forwardResult(seq == null ? jakarta.json.JsonValue.NULL : Jsons.PROVIDER.createValue(seq),
                    out.msgId(), v);
            boolean matches = ledgered != null && ledgered.equals(forwardResult(null, out.msgId(), v));
            outcome.complete(new ForwardedOutcome(null, result, matches));
        });
    }

    /** The §4.4 result object of a forwarded chat; without {@code seq} when it is null (the ledger row adds it first). */
    static JsonObject forwardResult(jakarta.json.JsonValue seq, long msgId, ReceiptService.Verdict v) {
        JsonObjectBuilder result = Jsons.PROVIDER.createObjectBuilder();
        if (seq != null) {
            result.add("seq", seq);
        }
        return result.add("msg_id", msgId).add("delivered", v.delivered())
                .add("recipients", JsonFields.array(v.recipients()))
                .add("matched_recipients", JsonFields.array(v.matched()))
                .add("stale_recipients", JsonFields.array(v.stale()))
                .add("reason", v.reason()).add("dead_lettered", v.deadLettered()).build();
    }

    /** One accepted chat on its way out; {@code chatJson} is its stamped compact JSON ({@link ChatStamp}). */
    record Outgoing(Connection connection, String sender, String target, String chatJson, long msgId,
                    String clientMsgId, String digest, boolean receiptRequested, double now) {
    }

    private void routePublic(Outgoing out) {
        boolean directed = Addressing.isDirectedTarget(out.target());
        // Journalled before the recipients are resolved: one that binds with a mailbox replay in between is
        // either resolved here (and sent the chat live) or, as its replay waits for this append, replayed it.
        CompletableFuture<Long> committed = append(out, directed);
        Recipients recipients = Recipients.resolve(out.target(), out.sender(), ctx.registry(), out.now());
        long deadLetterCount = 0;
        if (directed && recipients.live().isEmpty()) {
            deadLetterCount = deadLetters.record(out.target(), out.sender(), out.now());
        }
        long escalationCount = deadLetterCount;
        if (ctx.hasJournal()) {
            // fan out where the context says (the journal's completion thread in the server), never on its writer
            committed = committed.thenApplyAsync(seq -> seq, ctx.publish());
        }
        out.connection().inOrder(committed, seq -> publish(out, recipients, seq, escalationCount))
                .whenComplete((ignored, error) -> {
                    if (error != null) {
                        refuseUnjournalled(out);
                        if (out.clientMsgId() != null) {
                            duplicates.settled(out.sender(), out.clientMsgId());
                        }
                    }
                });
    }

    /** Journal-before-apply: an append that failed publishes nothing; the sender is told. */
    void refuseUnjournalled(Outgoing out) {
        out.connection().send(ctx.frames().error(out.sender(), "Chat was not journalled; message dropped.")
                .add("error_code", "journal_append_failed").add("msg_id", out.msgId()).build().toString());
    }

    /** Journals the chat (with its receipt aggregate when asked for); completes with its seq or null. */
    CompletableFuture<Long> append(Outgoing out, boolean directed) {
        return append(out, directed, List.of());
    }

    /** As above, with side rows of other tables in the same transaction. */
    CompletableFuture<Long> append(Outgoing out, boolean directed, List<org.switchboard.journal.SideRow> sideRows) {
        if (!ctx.hasJournal()) {
            return CompletableFuture.completedFuture(null);
        }
        List<JournalEvent.Draft> events = new ArrayList<>(2);
        events.add(new JournalEvent.Draft("chat", null, out.chatJson()));
        if (out.receiptRequested() && directed) {
            JsonObjectBuilder aggregate = Jsons.PROVIDER.createObjectBuilder().add("sender", out.sender())
                    .add("target", out.target()).add("message_id", out.msgId());
            if (out.clientMsgId() != null) {
                aggregate.add("client_msg_id", out.clientMsgId());
            }
            events.add(new JournalEvent.Draft("delivery_receipt_requested", aggregate.build()));
        }
        return (sideRows.isEmpty() ? ctx.journal().append(events, List.of())
                : ctx.journal().append(events, List.of(), sideRows)).thenApply(seqs -> seqs[0]);
    }

    private void publish(Outgoing out, Recipients recipients, Long seq, long deadLetterCount) {
        String text = seq == null ? out.chatJson() : withSeq(out.chatJson(), seq);
        history.add(out.chatJson(), seq, out.msgId());
        if (seq != null) {
            mailbox.chatCommitted(seq, out.sender(), out.target(), false, out.now());
        }
        (recipients.directed() ? ctx.counters().chatDirected : ctx.counters().chatBroadcast).increment();
        ConnectionRegistry registry = ctx.registry();
        Map<String, String> wake = wakeCapabilities(recipients.matched());
        ReceiptService.Subject subject = new ReceiptService.Subject(out.sender(), out.target(), out.msgId(), seq,
                out.clientMsgId(), recipients.directed());
        boolean negativeSent = false;
        if (out.receiptRequested() && recipients.directed() && recipients.live().isEmpty()
                && !recipients.matched().isEmpty()) {
            // before fan-out, so that a mailbox ack of the live copy always finds the pending entry
            receipts.immediate(subject, new ReceiptService.Verdict(false, List.of(), recipients.matched(),
                    recipients.stale(), ReceiptService.REASON_NO_LIVE, true, wake));
            negativeSent = true;
        }
        Map<Connection, CompletableFuture<Boolean>> writes = fanOut(out, recipients, text, seq, true);
        if (deadLetterCount > 0) {
            escalate(out, deadLetterCount);
        }
        livenessWarning(out, recipients, wake);
        boolean wantOutcome = (out.receiptRequested() && !negativeSent) || out.clientMsgId() != null;
        if (!wantOutcome) {
            return;
        }
        List<String> counted = recipients.directed() ? recipients.live() : recipients.matched();
        Map<String, List<CompletableFuture<Boolean>>> perRecipient = new LinkedHashMap<>();
        for (String recipient : counted) {
            List<CompletableFuture<Boolean>> futures = new ArrayList<>(1);
            registry.socketsOf(recipient, socket -> {
                CompletableFuture<Boolean> write = writes.get(socket);
                if (write != null) {
                    futures.add(write);
                }
            });
            perRecipient.put(recipient, futures);
        }
        List<CompletableFuture<Boolean>> all = new ArrayList<>();
        perRecipient.values().forEach(all::addAll);
        boolean finalNegativeSent = negativeSent;
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).whenComplete((ignored, error) -> {
            List<String> delivered = new ArrayList<>();
            perRecipient.forEach((recipient, futures) -> {
                for (CompletableFuture<Boolean> f : futures) {
                    if (Boolean.TRUE.equals(f.getNow(false))) {
                        delivered.add(recipient);
                        return;
                    }
                }
            });
            if (out.clientMsgId() != null) {
                if (!delivered.isEmpty()) {
                    duplicates.remember(out.sender(), out.clientMsgId(),
                            new DuplicateSuppressor.Remembered(out.digest(), out.msgId(), seq, null, out.now()));
                }
                duplicates.settled(out.sender(), out.clientMsgId());
            }
            if (out.receiptRequested() && !finalNegativeSent) {
                receipts.immediate(subject, verdict(recipients, delivered, wake));
            }
        });
    }

    /**
     * The compact JSON of an object with {@code "seq": seq} appended, from the object's own compact
     * JSON ({@code json} must end with its closing brace, have at least one member and no {@code seq}):
     * the same text as copying the object, adding the field and serialising again, for a fraction of the work.
     */
    static String withSeq(String json, long seq) {
        return JsonText.withLongMember(json, "seq", seq);
    }

    /** The live writes of one chat; {@code toOwn} false keeps a forwarded chat off the peer hub's socket. */
    private Map<Connection, CompletableFuture<Boolean>> fanOut(Outgoing out, Recipients recipients, String text, Long seq,
                                                               boolean toOwn) {
        Map<Connection, CompletableFuture<Boolean>> writes = new IdentityHashMap<>();
        // the recipients resolved here are exactly the viewers PrivateDirectedVisibility admits, found by name
        if (!PrivateDirectedVisibility.restricted(ctx.settings().privateDirectedMessages(), out.target())) {
            // every socket gets this one: its copy may wait to leave with the socket's next frames, one UTF-8 for all
            SharedText frame = new SharedText(text);
            for (Connection socket : ctx.registry().boundConnections()) {
                if (toOwn || socket != out.connection()) {
                    writes.put(socket, writeLive(socket, text, frame, seq));
                }
            }
            return writes;
        }
        for (String recipient : recipients.matched()) {
            ctx.registry().socketsOf(recipient, socket -> writes.computeIfAbsent(socket, s -> writeLive(s, text, null, seq)));
        }
        Connection own = out.connection();
        if (toOwn && own.isBound() && !own.superseded()) {
            writes.computeIfAbsent(own, s -> writeLive(s, text, null, seq));
        }
        return writes;
    }

    /**
     * Writes the live copy, unless the socket's pending mailbox replay already wrote this chat (counted as
     * delivered); with {@code shared} (the same text, sent to every socket) the copy may wait to leave with
     * the socket's next frames.
     */
    private CompletableFuture<Boolean> writeLive(Connection socket, String text, SharedText shared, Long seq) {
        if (seq != null && !mailbox.claimLive(socket, seq)) {
            return CompletableFuture.completedFuture(true);
        }
        return shared != null ? socket.sendCoalesced(shared) : socket.send(text);
    }

    static ReceiptService.Verdict verdict(Recipients recipients, List<String> delivered, Map<String, String> wake) {
        if (!delivered.isEmpty()) {
            return new ReceiptService.Verdict(true, delivered, recipients.matched(), recipients.stale(), "", false, wake);
        }
        if (!recipients.directed()) {
            return new ReceiptService.Verdict(false, List.of(), recipients.matched(), List.of(),
                    ReceiptService.REASON_NO_ONLINE, false, wake);
        }
        String reason = recipients.matched().isEmpty() ? ReceiptService.REASON_NO_ONLINE
                : recipients.live().isEmpty() ? ReceiptService.REASON_NO_LIVE : ReceiptService.REASON_TRANSPORT;
        return new ReceiptService.Verdict(false, List.of(), recipients.matched(), recipients.stale(), reason, true, wake);
    }

    private Map<String, String> wakeCapabilities(List<String> matched) {
        Map<String, String> wake = new java.util.TreeMap<>();
        for (String name : matched) {
            String capability = ctx.registry().wakeCapabilityOf(name);
            if (capability != null && !"unknown".equals(capability)) {
                wake.put(name, capability);
            }
        }
        return wake;
    }

    private void escalate(Outgoing out, long count) {
        int threshold = ctx.settings().deadLetterEscalationThreshold();
        if (threshold <= 0 || count % threshold != 0) {
            return;
        }
        JsonObject event = Jsons.PROVIDER.createObjectBuilder().add("target", out.target()).add("count", count)
                .add("last_sender", out.sender()).add("threshold", threshold).build();
        String text = ctx.frames().hub("dead_letter_escalation", "all", "dead-letter escalation: " + count
                        + " directed messages to '" + out.target() + "' have reached no live connection (most recent from '"
                        + out.sender() + "'); nobody is draining that name")
                .add("escalation_target", out.target()).add("escalation_count", count)
                .add("last_sender", out.sender()).build().toString();
        CompletableFuture<Long> journalled = ctx.hasJournal()
                ? ctx.journal().append("dead_letter_escalation", event) : CompletableFuture.completedFuture(0L);
        journalled.thenAccept(seq -> ctx.broadcast(text));
    }

    private void livenessWarning(Outgoing out, Recipients recipients, Map<String, String> wake) {
        if (!recipients.directed() || recipients.matched().isEmpty() || !ctx.registry().staleTracking()) {
            return;
        }
        List<String> passive = new ArrayList<>();
        wake.forEach((name, capability) -> {
            if ("passive".equals(capability)) {
                passive.add(name);
            }
        });
        if (recipients.stale().isEmpty() && passive.isEmpty()) {
            return;
        }
        boolean delivered = !recipients.live().isEmpty();
        List<String> reasons = new ArrayList<>();
        if (!recipients.stale().isEmpty()) {
            reasons.add("no reaction within 90 s from " + String.join(", ", recipients.stale()));
        }
        if (!passive.isEmpty()) {
            reasons.add("passive receiver cannot wake " + String.join(", ", passive));
        }
        String reason = recipients.live().isEmpty() ? ReceiptService.REASON_NO_LIVE : "stale_or_passive_recipient";
        JsonObjectBuilder wakeObject = Jsons.PROVIDER.createObjectBuilder();
        wake.forEach(wakeObject::add);
        out.connection().send(ctx.frames().hub("recipient_liveness_warning", out.sender(),
                        String.join("; ", reasons) + "; a directed message may sit unread")
                .add("message_target", out.target()).add("message_id", out.msgId())
                .add("delivered", delivered).add("dead_lettered", !delivered).add("reason", reason)
                .add("matched_recipients", JsonFields.array(recipients.matched()))
                .add("stale_recipients", JsonFields.array(recipients.stale()))
                .add("passive_recipients", JsonFields.array(passive))
                .add("recipient_wake_capabilities", wakeObject).build().toString());
    }

    private String duplicateNotice(String sender, String clientMsgId, DuplicateSuppressor.Remembered first) {
        JsonObjectBuilder notice = ctx.frames().hub("system", sender, HubStrings.DUPLICATE_CHAT)
                .add("duplicate", true).add("client_msg_id", clientMsgId).add("msg_id", first.msgId());
        if (first.seq() != null) {
            notice.add("seq", first.seq());
        }
        if (first.channel() != null) {
            notice.add("channel", first.channel());
        }
        return notice.build().toString();
    }

    /** Remembers a delivered channel chat for duplicate suppression. */
    void rememberDelivered(Outgoing out, Long seq, String channel) {
        if (out.clientMsgId() != null) {
            duplicates.remember(out.sender(), out.clientMsgId(),
                    new DuplicateSuppressor.Remembered(out.digest(), out.msgId(), seq, channel, out.now()));
        }
    }

    /** Start-up replay: public history (non-channel chats) and the msg_id high-water. */
    public void replay(JournalEvent event) {
        if (!"chat".equals(event.kind())) {
            return;
        }
        JsonObject chat = event.payload();
        Long msgId = JsonFields.integer(chat, "msg_id");
        if (msgId != null) {
            msgIds.accumulateAndGet(msgId, Math::max);
        }
        if (!chat.containsKey("channel")) {
            history.add(chat, event.seq());
        }
    }

    /**
     * The replayed state as a snapshot part (issue 20): the msg_id high-water and the public history,
     * the only state {@link #replay} builds.
     */
    public org.switchboard.journal.snapshot.SnapshotPart snapshotPart() {
        return org.switchboard.journal.snapshot.SnapshotPart.of("chat", () -> {
            jakarta.json.JsonArrayBuilder entries = Jsons.PROVIDER.createArrayBuilder();
            for (java.util.Iterator<ChatHistory.Entry> it = history.oldestFirst(); it.hasNext(); ) {
                ChatHistory.Entry entry = it.next();
                entries.add(Jsons.PROVIDER.createArrayBuilder().add(entry.storedSeq()).add(entry.msgId())
                        .add(entry.json()));
            }
            return Jsons.PROVIDER.createObjectBuilder().add("msg_id", msgIds.get()).add("history", entries)
                    .build().toString();
        }, text -> {
            JsonObject part = SnapshotText.object(text);
            try {
                msgIds.accumulateAndGet(part.getJsonNumber("msg_id").longValueExact(), Math::max);
                SnapshotText.eachArray(part, "history", entry -> history.restore(entry.getString(2),
                        entry.getJsonNumber(0).longValueExact(), entry.getJsonNumber(1).longValueExact()));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("chat snapshot part: " + e, e);
            }
        });
    }
}
