package org.switchboard.synapse.federation.outbound;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.journal.JournalEvent;
import org.switchboard.json.Jsons;
import org.switchboard.logging.LogSafe;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.chat.RemoteChats;

/**
 * The origin side of cross-hub forwarding (synapse-advanced §4.6, §4.8): validates hub-qualified
 * chats, keeps their durable outbox (journalled with the chat), makes each attempt over a fresh peer
 * connection, settles, expires, and sends the forward receipts; answers remote roster requests.
 * Attempts are scheduled through a {@link Scheduler} (the JMS work queue in the server).
 */
public final class ForwardService implements RemoteChats, org.switchboard.synapse.query.RemoteRoster {

    private static final Logger LOG = Logger.getLogger(ForwardService.class.getName());
    /** Slack before an early queue item counts as stale (a copy of an item already rescheduled). */
    private static final double EARLY_SLACK_SECONDS = 0.5;

    /** Puts an attempt of one forward on the queue after a delay. */
    public interface Scheduler {
        void attemptAfter(String forwardId, long delayMillis);
    }

    private record Prepared(String forwardId, JournalEvent.Draft outboxEvent, ForwardEntry entry) implements Forward {
    }

    private final SynapseContext ctx;
    private final MessagePeers peers;
    private final String token;
    private final PeerClient client;
    private final Scheduler scheduler;
    private final ForwardOutbox outbox = new ForwardOutbox();
    private final java.util.concurrent.atomic.LongAdder refusedFull = new java.util.concurrent.atomic.LongAdder();
    private volatile java.util.concurrent.Executor direct;
    private volatile int directPerPeer;
    private final Map<String, java.util.concurrent.atomic.AtomicInteger> directInFlight =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** First attempts (and attempts made due by a peer's return) waiting for a direct slot of their peer. */
    private final Map<String, java.util.Queue<String>> directWaiting = new java.util.concurrent.ConcurrentHashMap<>();
    /** Peers whose last attempt got no answer (their waiting entries are re-queued at the next answer). */
    private final java.util.Set<String> peersDown = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Per peer, a count of its answers (any forward's): an attempt that failed while it grew failed with the peer up. */
    private final Map<String, java.util.concurrent.atomic.AtomicLong> answers = new java.util.concurrent.ConcurrentHashMap<>();

    /** The private error of a chat refused by the hub-wide cap [OURS wording, in the style of §4.6's refusals]. */
    public static final String HUB_QUEUE_FULL = "Forward queue of this hub is full; try again once it drains";

    /** Forwarding over {@code client} to the configured {@code peers}, presenting {@code token}. */
    public ForwardService(SynapseContext ctx, MessagePeers peers, String token, PeerClient client, Scheduler scheduler) {
        this.ctx = ctx;
        this.peers = peers;
        this.token = token == null ? "" : token;
        this.client = client;
        this.scheduler = scheduler;
    }

    private volatile ForwardedDeliveries deliveries;

    /** The forwarded delivery intents of §4.7 (same peers and client). */
    public ForwardedDeliveries deliveries() {
        return deliveries;
    }

    /** Attaches the forwarded delivery intents. */
    public void deliveries(ForwardedDeliveries forwarded) {
        this.deliveries = forwarded;
    }

    private volatile org.switchboard.synapse.attachments.RemoteAttachments peerReads;

    /** Peer attachment reads for local agents (§5, recipient side; same peers and client), or null. */
    public org.switchboard.synapse.attachments.RemoteAttachments peerReads() {
        return peerReads;
    }

    /** Attaches the peer attachment reads. */
    public void peerReads(org.switchboard.synapse.attachments.RemoteAttachments reads) {
        this.peerReads = reads;
    }

    /** The peer client's connection counts (for /metrics). */
    public PeerClient.ConnectionStats connectionStats() {
        return client.connectionStats();
    }

    public ForwardOutbox outbox() {
        return outbox;
    }

    public MessagePeers peers() {
        return peers;
    }

    // ---- chat (§4.6) ----

    @Override
    public String refusal(String sender, String target, JsonObject frame) {
        String refused = HubAddress.refusal(target, peers.peers().keySet());
        if (refused != null) {
            return refused;
        }
        if (!ctx.hasJournal()) {
            return "Cross-hub forwarding needs the hub's journal (durable outbox)";
        }
        JsonValue payload = frame.get("payload");
        int bytes = payload == null ? 0 : payload.toString().getBytes(StandardCharsets.UTF_8).length;
        if (bytes + 1024 > ForwardFrames.MAX_BODY_BYTES) {
            return "Chat too large to forward (a forward body holds at most 262144 bytes)";
        }
        return capRefusal(HubAddress.parse(target).hubId(), payload);
    }

    /**
     * The outbox caps (ours, issue 18): a dead peer must not let senders grow the origin's heap without
     * bound, so a chat is refused before anything is journalled once its peer holds
     * {@code hub.message-forward-max-pending-per-peer} pending forwards or the pending forwards of all
     * peers are counted at {@code hub.message-forward-max-pending-bytes}. Chats racing this check may
     * pass it together: the caps can be exceeded by the chats in flight at one moment.
     */
    String capRefusal(String peer, JsonValue payload) {
        if (outbox.pendingFor(peer) >= peers.maxPendingPerPeer()) {
            refusedFull.increment();
            return peerQueueFull(peer, peers.maxPendingPerPeer());
        }
        long chars = payload instanceof JsonString s ? s.getString().length() : payload == null ? 0 : payload.toString().length();
        if (outbox.pendingBytes() + ForwardOutbox.ENTRY_OVERHEAD_BYTES + 2 * chars > peers.maxPendingBytes()) {
            refusedFull.increment();
            return HUB_QUEUE_FULL;
        }
        return null;
    }

    /** The private error of a chat refused by the per-peer cap [OURS wording, in the style of §4.6's refusals]. */
    public static String peerQueueFull(String peer, long cap) {
        return "Forward queue to hub '" + peer + "' is full (" + cap + " pending); try again once it drains";
    }

    /** Chats refused by an outbox cap since start (for /metrics). */
    public long refusedFull() {
        return refusedFull.sum();
    }

    @Override
    public Forward prepare(String sender, String target, JsonObject frame, long msgId, double timestamp, String clientMsgId,
                           boolean receiptRequested) {
        HubAddress address = HubAddress.parse(target);
        String forwardId = ForwardFrames.newForwardId();
        JsonObject request = ForwardFrames.chat(ctx.frames().hubId(), forwardId, sender, address.seat(), frame.get("payload"),
                msgId, timestamp, clientMsgId);
        double now = ctx.frames().now();
        ForwardEntry entry = ForwardEntry.queued(forwardId, address.hubId(), sender, target, request, msgId, null, clientMsgId,
                now, now + peers.ttlSeconds(), receiptRequested);
        return new Prepared(forwardId, ForwardJournal.queued(entry), entry);
    }

    @Override
    public void committed(Forward forward, Long seq) {
        ForwardEntry e = ((Prepared) forward).entry();
        outbox.putIfAbsent(new ForwardEntry(e.forwardId(), e.peer(), e.sender(), e.target(), e.request(), e.msgId(), seq,
                e.clientMsgId(), e.created(), e.expiresAt(), e.notifySender(), e.state(), e.attempts(), e.nextAttemptAt(),
                e.result(), e.answeringHub(), e.reasonCode(), e.detail(), e.receiptOwed()));
        firstAttempt(e.peer(), e.forwardId());
    }

    /**
     * Runs first attempts on {@code executor} (ours, issue 18: §4.6's "attempt immediately" without a
     * persistent queue item per forward), at most {@code perPeer} at once per peer; the others wait in
     * memory for a free slot of their peer (issue 18 speed: the broker's persistent item per overflowing
     * forward was a tenth of the origin's CPU at saturation). Without an executor the attempt goes
     * through the work queue. The entry is durable already: a crash with attempts waiting or running
     * leaves them pending, and the start-up re-queue retries them.
     */
    public void directAttempts(java.util.concurrent.Executor executor, int perPeer) {
        this.direct = executor;
        this.directPerPeer = perPeer;
    }

    private void firstAttempt(String peer, String forwardId) {
        if (direct != null) {
            directWaiting.computeIfAbsent(peer, p -> new java.util.concurrent.ConcurrentLinkedQueue<>()).add(forwardId);
            drainDirect(peer);
            return;
        }
        // off the journal's completion thread: the queue write is a broker round trip
        ctx.blocking().execute(() -> schedule(forwardId, 0));
    }

    /** Starts workers for {@code peer}'s waiting attempts while it has free slots; each worker runs them until none waits. */
    private void drainDirect(String peer) {
        java.util.concurrent.Executor executor = direct;
        java.util.Queue<String> waiting = directWaiting.get(peer);
        java.util.concurrent.atomic.AtomicInteger running =
                directInFlight.computeIfAbsent(peer, p -> new java.util.concurrent.atomic.AtomicInteger());
        while (executor != null && waiting != null && !waiting.isEmpty()) {
            int n = running.get();
            if (n >= directPerPeer) {
                return; // a running worker re-checks after it finished
            }
            if (!running.compareAndSet(n, n + 1)) {
                continue;
            }
            String first = waiting.poll();
            if (first == null) {
                running.decrementAndGet();
                continue;
            }
            try {
                executor.execute(() -> {
                    try {
                        for (String id = first; id != null; id = waiting.poll()) {
                            attempt(id);
                        }
                    } finally {
                        running.decrementAndGet();
                        drainDirect(peer);
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException stopped) {
                // stopping: the queue takes what waits
                running.decrementAndGet();
                for (String id = first; id != null; id = waiting.poll()) {
                    String queued = id;
                    ctx.blocking().execute(() -> schedule(queued, 0));
                }
                return;
            }
        }
    }

    private void schedule(String forwardId, long delayMillis) {
        try {
            scheduler.attemptAfter(forwardId, delayMillis);
        } catch (RuntimeException ex) {
            LOG.log(Level.WARNING, "could not queue forward " + forwardId + "; the recovery sweep will retry it", LogSafe.failure(ex));
        }
    }

    /** One attempt of a pending forward (a queue item); stale or concurrent copies return at once. */
    public void attempt(String forwardId) {
        ForwardEntry e = outbox.get(forwardId);
        if (e == null || !e.pending() || ctx.frames().now() + EARLY_SLACK_SECONDS < e.nextAttemptAt()) {
            return;
        }
        if (!outbox.tryLock(forwardId)) {
            return;
        }
        try {
            e = outbox.get(forwardId);
            if (e == null || !e.pending()) {
                return;
            }
            run(e);
        } finally {
            outbox.unlock(forwardId);
        }
    }

    private void run(ForwardEntry e) {
        double now = ctx.frames().now();
        boolean first = e.attempts() == 0;
        if (now >= e.expiresAt()) {
            settle(e, ForwardEntry.EXPIRED, e.attempts(), null, null, "", "", first);
            return;
        }
        MessagePeers.Peer peer = peers.peers().get(e.peer());
        if (peer == null) {
            settle(e, ForwardEntry.REFUSED, e.attempts(), null, null, "peer_not_configured", "", first);
            return;
        }
        java.util.concurrent.atomic.AtomicLong answered = answers.computeIfAbsent(e.peer(),
                p -> new java.util.concurrent.atomic.AtomicLong());
        long answeredBefore = answered.get();
        ForwardFrames.Answer answer;
        try {
            JsonObject frame = client.exchange(peer, ForwardFrames.registration(ctx.frames().hubId(), token, now),
                    e.request(), e.forwardId());
            answer = ForwardFrames.read(frame, e.forwardId());
        } catch (IOException | RuntimeException ex) {
            LOG.fine(() -> "forward " + e.forwardId() + " to " + e.peer() + ": no answer (" + LogSafe.text(ex.getMessage()) + ")");
            answer = new ForwardFrames.Answer(ForwardFrames.Kind.INVALID, null, null, "", "", null);
        }
        int attempts = e.attempts() + 1;
        if (answer.kind() == ForwardFrames.Kind.INVALID) {
            peersDown.add(e.peer());
        }
        switch (answer.kind()) {
            case RESULT -> settle(e, answer.disposition(), attempts, answer.result(), answer.answeringHub(),
                    answer.reasonCode(), answer.detail(), first);
            case REJECTED -> settle(e, ForwardEntry.REFUSED, attempts, null, null, "peer_rejected", "", first);
            // the peer answered another forward while this one failed (e.g. an attempt that hung on the
            // peer's restart and timed out after its return had re-queued the rest): retry soon, not after
            // the back-off, which no later answer would cut short once the others are settled
            default -> failed(e, attempts, first, answered.get() != answeredBefore);
        }
        if (answer.kind() != ForwardFrames.Kind.INVALID) {
            answered.incrementAndGet();
            peerAnswered(e.peer()); // after the settlement: this entry is not pending any more
        }
    }

    /**
     * The peer answered: if it had been unreachable, every pending entry of it is made due now and
     * re-queued in memory (ours, issue 18), so a peer's return is not followed by up to five minutes of
     * back-off, or by the broker's backlog of retry items, before the queue drains. The journalled schedule is not changed: after a restart the
     * entries are re-queued for when they were due, and the first answer then re-queues them again.
     */
    private void peerAnswered(String peer) {
        if (!peersDown.remove(peer)) {
            return;
        }
        ctx.blocking().execute(() -> {
            double now = ctx.frames().now();
            int n = 0;
            for (ForwardEntry waiting : outbox.pending()) {
                // overdue entries too: their queue items may sit behind a backlog the outage built up
                if (waiting.peer().equals(peer)) {
                    if (waiting.nextAttemptAt() > now) {
                        outbox.update(waiting.forwardId(), x -> x.pending() && x.nextAttemptAt() > now ? x.failed(x.attempts(), now) : x);
                    }
                    if (direct != null) {
                        // in memory, like a first attempt; the back-off item still on the broker finds it settled
                        directWaiting.computeIfAbsent(peer, p -> new java.util.concurrent.ConcurrentLinkedQueue<>())
                                .add(waiting.forwardId());
                    } else {
                        schedule(waiting.forwardId(), 0);
                    }
                    n++;
                }
            }
            drainDirect(peer);
            if (n > 0) {
                LOG.info("hub '" + peer + "' answers again: " + n + " pending forwards re-queued now");
            }
        });
    }

    private void failed(ForwardEntry e, int attempts, boolean first, boolean peerUp) {
        long delay = peerUp ? 1 : ForwardBackoff.delaySeconds(attempts, peers.maxBackoffSeconds());
        ForwardEntry next = e.failed(attempts, ctx.frames().now() + delay);
        ctx.journal().append(List.of(ForwardJournal.failed(next)), List.of()).join();
        outbox.update(e.forwardId(), x -> x.pending() ? next : x);
        if (first && e.notifySender()) {
            sendToSender(ForwardReceipts.build(ctx.frames(), next, true));
        }
        schedule(e.forwardId(), delay * 1000);
    }

    private void settle(ForwardEntry e, String state, int attempts, JsonObject result, String answering, String code,
                        String detail, boolean first) {
        boolean owed = e.notifySender() && !first;
        ForwardEntry s = e.settled(state, attempts, result, answering, code, detail, owed);
        ctx.journal().append(List.of(ForwardJournal.settled(s)), List.of()).join();
        outbox.update(e.forwardId(), x -> s);
        if (!ForwardEntry.ACCEPTED.equals(state) && !ForwardEntry.DUPLICATE.equals(state)) {
            LOG.info(() -> "forward " + e.forwardId() + " to hub '" + e.peer() + "' settled " + state
                    + (code == null || code.isEmpty() ? "" : " (" + code + ")"));
        }
        if (first && e.notifySender()) {
            sendToSender(ForwardReceipts.build(ctx.frames(), s, true));
        } else if (owed) {
            Connection online = ctx.registry().socketOf(s.sender());
            if (online != null) {
                deliverOwed(online, s);
            }
        }
    }

    private void sendToSender(JsonObject receipt) {
        Connection online = ctx.registry().socketOf(receipt.getString("target"));
        if (online != null) {
            online.send(receipt.toString());
        }
    }

    /** Sends a settlement receipt and records, once the socket took it, that the sender was told. */
    private void deliverOwed(Connection connection, ForwardEntry s) {
        if (!outbox.claimNotify(s.forwardId())) {
            return; // being sent already (a settlement racing the sender's registration): once only
        }
        connection.send(ForwardReceipts.build(ctx.frames(), s, false).toString()).whenComplete((ok, error) -> {
            if (Boolean.TRUE.equals(ok)) {
                ctx.journal().append(List.of(ForwardJournal.notified(s.forwardId())), List.of())
                        .thenRun(() -> outbox.update(s.forwardId(), ForwardEntry::notified));
            } else {
                outbox.releaseNotify(s.forwardId());
            }
        });
    }

    /** Pipeline step 12: the settlement receipts a (re-)registering sender is owed. */
    public void flushReceipts(Connection connection) {
        String name = connection.name();
        if (name == null) {
            return;
        }
        for (ForwardEntry e : outbox.owedTo(name)) {
            deliverOwed(connection, e);
        }
    }

    /** The 1 s loop of §4.6: expires entries past their TTL (the queue carries the attempts). */
    public void expireDue() {
        for (ForwardEntry e : outbox.expiredAt(ctx.frames().now())) {
            if (outbox.tryLock(e.forwardId())) {
                try {
                    ForwardEntry current = outbox.get(e.forwardId());
                    if (current != null && current.pending()) {
                        settle(current, ForwardEntry.EXPIRED, current.attempts(), null, null, "", "", current.attempts() == 0);
                    }
                } finally {
                    outbox.unlock(e.forwardId());
                }
            }
        }
    }

    /**
     * Re-queues pending entries due more than {@code graceSeconds} ago: their queue item was lost (a
     * crash between commit and queue write). With 0 it re-queues every pending entry (at start-up), each
     * for when it is due; a copy of an item still on the broker finds the entry locked or settled.
     */
    public int redrive(double graceSeconds) {
        double now = ctx.frames().now();
        List<ForwardEntry> due = graceSeconds <= 0 ? outbox.pending() : outbox.overdue(now - graceSeconds);
        for (ForwardEntry e : due) {
            if (graceSeconds <= 0 && e.attempts() > 0) {
                peersDown.add(e.peer()); // unanswered before the restart: its first answer re-queues the rest
            }
            schedule(e.forwardId(), Math.max(0, Math.round((e.nextAttemptAt() - now) * 1000)));
        }
        return due.size();
    }

    /** Start-up: one replayed journal event. */
    public void replay(JournalEvent event) {
        ForwardJournal.replay(event, outbox);
    }

    /** Pending forwards per peer (/metrics, /health). */
    public Map<String, ForwardOutbox.PeerStats> stats() {
        return outbox.statsByPeer(ctx.frames().now());
    }

    // ---- remote roster (§4.8) ----

    /** Answers {@code who_request} with {@code hub}: the peer's roster, or a private error (blocking: run off the socket). */
    @Override
    public void roster(Connection connection, String requester, String hubId) {
        connection.send(rosterFrame(requester, hubId).toString());
    }

    JsonObject rosterFrame(String requester, String hubId) {
        MessagePeers.Peer peer = hubId == null ? null : peers.peers().get(hubId);
        String shown = hubId != null && HubAddress.HUB_ID.matcher(hubId).matches() ? hubId : "?";
        if (peer == null) {
            return rosterError(requester, shown, "unknown_hub", "not a configured message peer");
        }
        String forwardId = ForwardFrames.newForwardId();
        ForwardFrames.Answer answer;
        try {
            JsonObject frame = client.exchange(peer, ForwardFrames.registration(ctx.frames().hubId(), token, ctx.frames().now()),
                    ForwardFrames.who(ctx.frames().hubId(), forwardId, requester), forwardId);
            answer = ForwardFrames.read(frame, forwardId);
        } catch (IOException | RuntimeException ex) {
            return rosterError(requester, shown, "peer_unreachable", "no answer from the peer");
        }
        if (answer.kind() == ForwardFrames.Kind.REJECTED) {
            return rosterError(requester, shown, "peer_rejected", "the peer answered with an error");
        }
        if (answer.kind() != ForwardFrames.Kind.RESULT) {
            return rosterError(requester, shown, "peer_invalid_answer", "the peer's answer could not be read");
        }
        if (ForwardEntry.REFUSED.equals(answer.disposition())) {
            return rosterError(requester, shown, answer.reasonCode(), answer.detail());
        }
        return remoteSnapshot(requester, hubId, answer.result());
    }

    /** The §4.8 {@code who_snapshot}: names qualified with the peer id, sessions keyed likewise with {@code hub_id}. */
    JsonObject remoteSnapshot(String requester, String hubId, JsonObject result) {
        JsonObjectBuilder sessions = Jsons.PROVIDER.createObjectBuilder();
        if (result.get("delivery_sessions") instanceof JsonObject s) {
            s.forEach((name, value) -> {
                JsonObjectBuilder session = value instanceof JsonObject o ? Jsons.PROVIDER.createObjectBuilder(o)
                        : Jsons.PROVIDER.createObjectBuilder();
                sessions.add(HubAddress.qualify(name, hubId), session.add("hub_id", hubId));
            });
        }
        JsonArray online = ForwardReceipts.qualified(result.get("online_agents"), hubId);
        return ctx.frames().hub("who_snapshot", requester, "Roster of hub '" + hubId + "'")
                .add("remote_hub", hubId).add("online_agents", online).add("delivery_sessions", sessions).build();
    }

    private JsonObject rosterError(String requester, String hubId, String code, String detail) {
        String safeDetail = detail == null ? "" : detail.replaceAll("\\p{Cntrl}", " ");
        return ctx.frames().error(requester, "Roster of hub '" + hubId + "' unavailable (" + code + "): " + safeDetail)
                .add("error_code", code).build();
    }

    /** The string value of a key, or null. */
    static String text(JsonObject o, String key) {
        return o.get(key) instanceof JsonString s ? s.getString() : null;
    }

    /** The replayed state as a snapshot part (issue 20): the outbox entries, all {@link #replay} builds. */
    public org.switchboard.journal.snapshot.SnapshotPart snapshotPart() {
        return org.switchboard.journal.snapshot.SnapshotPart.of("forward_outbox", () -> {
            jakarta.json.JsonArrayBuilder all = Jsons.PROVIDER.createArrayBuilder();
            outbox.all().forEach(e -> all.add(ForwardJournal.snapshot(e)));
            return Jsons.PROVIDER.createObjectBuilder().add("entries", all).build().toString();
        }, text -> {
            JsonObject part = org.switchboard.journal.snapshot.SnapshotText.object(text);
            try {
                for (jakarta.json.JsonValue value : part.getJsonArray("entries")) {
                    outbox.putIfAbsent(ForwardJournal.fromSnapshot(value.asJsonObject()));
                }
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("forward_outbox snapshot part: " + e, e);
            }
        });
    }
}
