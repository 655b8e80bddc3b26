package org.switchboard.synapse.mailbox;

import org.switchboard.journal.snapshot.SnapshotText;
import org.switchboard.json.Jsons;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.addressing.Addressing;
import org.switchboard.synapse.receipts.ReceiptService;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.ConnectionRegistry;
import org.switchboard.synapse.wire.JsonFields;

/**
 * The directed backlog (§8): replay on registration, {@code ack}, receiver watermarks, pending
 * counts for {@code who_snapshot}. Keeps an in-memory index of journalled directed chats
 * ({@link DirectedIndex}) so acks and counts never touch the database. A chat leaves the index once
 * every named recipient's watermark has passed it; the size limit ({@link #DIRECTED_INDEX_LIMIT} by
 * default) remains a backstop for chats to roles, bare projects or globs, whose recipients cannot be
 * listed. An ack of a chat the limit dropped is checked against the journal instead; pending counts
 * cover the indexed window (older backlog stays in the journal, reachable through the inbox query).
 */
public final class MailboxService {

    private static final Logger LOG = Logger.getLogger(MailboxService.class.getName());
    /** Chat events scanned by one replay. */
    public static final int REPLAY_SCAN = 1000;
    /** Chat events read from the journal at a time by a replay. */
    static final int REPLAY_PAGE = 64;
    /** Characters of replayed frames sent before waiting for the socket to take them (one reply budget's worth). */
    static final long REPLAY_CHUNK_CHARS = 4L * 1024 * 1024;
    /** Identities kept in the pending-count projection besides the online ones. */
    public static final int TRACKED_IDENTITIES = 512;
    /** Directed chats kept in the in-memory index: ten mailbox replay windows. */
    public static final int DIRECTED_INDEX_LIMIT = 10 * REPLAY_SCAN;

    private final SynapseContext ctx;
    private final ReceiptService receipts;
    private final int directedIndexLimit;
    private final ConcurrentHashMap<String, Long> watermarks = new ConcurrentHashMap<>();
    private final DirectedIndex directed;
    private final ConcurrentHashMap<String, Double> tracked = new ConcurrentHashMap<>();
    private final AtomicLong highestSeq = new AtomicLong();
    /** Sockets bound with a mailbox replay (pending, or finished within {@link ReplayGuard#KEEP_SECONDS}). */
    private final ConcurrentHashMap<Connection, ReplayGuard> replayGuards = new ConcurrentHashMap<>();

    /** Mailbox rules over the given hub and receipt service. */
    public MailboxService(SynapseContext ctx, ReceiptService receipts) {
        this(ctx, receipts, DIRECTED_INDEX_LIMIT);
    }

    /** Mailbox rules keeping at most {@code directedIndexLimit} directed chats in memory. */
    public MailboxService(SynapseContext ctx, ReceiptService receipts, int directedIndexLimit) {
        this.ctx = ctx;
        this.receipts = receipts;
        this.directedIndexLimit = Math.max(1, directedIndexLimit);
        this.directed = new DirectedIndex(this.directedIndexLimit, this::watermark);
    }

    /** Indexes a committed chat (live or replayed at start-up). */
    public void chatCommitted(long seq, String sender, String target, boolean channelTagged, double now) {
        highestSeq.accumulateAndGet(seq, Math::max);
        if (channelTagged || !Addressing.isDirectedTarget(target)) {
            return;
        }
        directed.add(seq, sender, target);
        for (String part : Addressing.parts(target)) {
            if (!Addressing.hasMeta(part)) {
                track(part, now);
            }
        }
    }

    /**
     * The directed chats below {@code cut} that the journal's retention must keep, ascending: those a
     * recipient may still need (the index drops a chat once every named recipient acked it; a
     * glob-addressed one only by its size limit).
     */
    public long[] retainedBelow(long cut) {
        return directed.seqsBelow(cut);
    }

    /** Highest journal seq this hub has seen. */
    public long highestSeq() {
        return highestSeq.get();
    }

    /** Mailbox identity of §8.1: the sidecar's owner when {@code mailbox_for} names it, else the connection name. */
    public static String identityFor(String connectionName, String mailboxFor) {
        if (mailboxFor == null || mailboxFor.isBlank() || mailboxFor.equals(connectionName)) {
            return connectionName;
        }
        String owner = ConnectionRegistry.waiterOwner(connectionName);
        return !owner.equals(connectionName) && owner.equals(mailboxFor) ? mailboxFor : connectionName;
    }

    /** Watermark of an identity (0 when none). */
    public long watermark(String identity) {
        return watermarks.getOrDefault(identity, 0L);
    }

    /** Moves a watermark forward (capped at the highest seq) and journals the advance. */
    public void advance(String identity, long throughSeq, String source) {
        long capped = Math.min(throughSeq, highestSeq.get());
        if (capped <= 0) {
            return;
        }
        long[] before = new long[1];
        long after = watermarks.merge(identity, capped, (old, candidate) -> {
            before[0] = old;
            return Math.max(old, candidate);
        });
        track(identity, ctx.frames().now());
        if (after == capped && before[0] < capped) {
            directed.advanced(identity);
        }
        if (after != capped || before[0] >= capped || !ctx.hasJournal()) {
            return;
        }
        JsonObject payload = Jsons.PROVIDER.createObjectBuilder().add("identity", identity).add("through_seq", capped)
                .add("source", source).build();
        ctx.journal().append("mailbox_watermark", payload).exceptionally(error -> {
            LOG.log(Level.FINE, "watermark not journalled (safe: recount on restart)", error);
            return null;
        });
    }

    /** {@code ack} (§8.3): never replies. Advances the watermark and settles a pending receipt. */
    public void ack(Connection connection, JsonObject frame) {
        Long seq = JsonFields.integer(frame, "seq");
        if (seq == null) {
            return;
        }
        String identity = identityFor(connection.name(), JsonFields.string(frame, "mailbox_for"));
        DirectedIndex.Entry chat = directed.get(seq);
        if (chat != null && Addressing.isRecipient(chat.target(), identity, connection.roles())) {
            advance(identity, seq, "ack");
        } else if (chat == null && seq <= directed.sizePrunedThrough() && seq > watermark(identity) && ctx.hasJournal()) {
            ackFromJournal(identity, seq, connection.roles());
        }
        receipts.settle(seq, identity, connection.roles());
    }

    /** An ack of a seq that has left the index: the same check, against the journal row. */
    private void ackFromJournal(String identity, long seq, List<String> roles) {
        CompletableFuture.supplyAsync(() -> ctx.journal().at(seq), ctx.blocking()).thenAccept(event -> {
            if (event == null || !"chat".equals(event.kind()) || event.payload().containsKey("channel")) {
                return;
            }
            String target = JsonFields.string(event.payload(), "target");
            if (target != null && Addressing.isDirectedTarget(target) && Addressing.isRecipient(target, identity, roles)) {
                advance(identity, seq, "ack");
            }
        }).exceptionally(error -> {
            LOG.log(Level.FINE, "ack of seq " + seq + " not checked against the journal", error);
            return null;
        });
    }

    /** Directed chats currently indexed (at most the index limit). */
    public int indexedDirectedChats() {
        return directed.size();
    }

    /** Names with directed chats pending in the index (each keeps a backlog of seqs). */
    public int namesWithBacklog() {
        return directed.names();
    }

    /**
     * Replay requested on the registration frame (§8.1/§8.2), called once the name is bound. Live copies
     * reach the socket from the bind on; each chat's seq is claimed once per socket, by the live write
     * ({@link #claimLive}) or by the replay, so the client never gets one message twice. The returned
     * step (run after presence) reads the journal only once every append made before it has committed:
     * a chat journalled before the bind but published after it (so not sent live to this socket) is
     * then in what the replay reads. Nothing happens without {@code mailbox: true} or without a journal.
     */
    public Supplier<CompletableFuture<Void>> replayOnRegistration(Connection connection, JsonObject frame) {
        if (!JsonFields.isTrue(frame, "mailbox") || !ctx.hasJournal()) {
            return () -> CompletableFuture.completedFuture(null);
        }
        Long requested = JsonFields.integer(frame, "since_seq");
        long since = requested == null || requested < 0 ? 0 : requested;
        String identity = identityFor(connection.name(), JsonFields.string(frame, "mailbox_for"));
        advance(identity, since, "cursor");
        ReplayGuard guard = replayGuards.computeIfAbsent(connection, c -> new ReplayGuard());
        return () -> ctx.journal().flushed()
                .thenCompose(flushed -> replayPage(new Replay(connection, identity, guard), since, 0))
                .whenComplete((ignored, error) -> replayFinished(guard));
    }

    /** One socket's replay in progress. */
    private record Replay(Connection connection, String identity, ReplayGuard guard) {
    }

    /**
     * Reads the next {@link #REPLAY_PAGE} chat events after {@code after} and sends what matches. Pages,
     * and chunks of {@link #REPLAY_CHUNK_CHARS} within one, go out only once the socket took the ones
     * before: a backlog of big chats never sits in memory (or in the socket's outbound queue, whose bound
     * would close it) all at once, however large the 1000-event window.
     */
    private CompletableFuture<Void> replayPage(Replay replay, long after, int scanned) {
        int want = Math.min(REPLAY_PAGE, REPLAY_SCAN - scanned);
        if (want <= 0 || !replay.connection().peer().isOpen()) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.supplyAsync(() -> ctx.journal().read(after, want, Set.of("chat")), ctx.blocking())
                .thenCompose(events -> {
                    LOG.fine(() -> "mailbox replay for " + org.switchboard.logging.LogSafe.text(replay.identity()) + " after " + after + ": " + events.size()
                            + " chat events");
                    boolean last = events.size() < want;
                    return replayFrom(replay, events, 0, scanned + events.size(), last);
                });
    }

    private CompletableFuture<Void> replayFrom(Replay replay, List<JournalEvent> events, int index, int scanned,
                                               boolean lastPage) {
        List<CompletableFuture<Boolean>> writes = new ArrayList<>();
        long chars = 0;
        List<String> roles = replay.connection().roles();
        for (int i = index; i < events.size(); i++) {
            JournalEvent event = events.get(i);
            JsonObject chat = event.payload();
            String target = JsonFields.string(chat, "target");
            if (target == null || replay.identity().equals(JsonFields.string(chat, "sender"))
                    || !Addressing.isDirectedTarget(target) || chat.containsKey("channel")
                    || !Addressing.isRecipient(target, replay.identity(), roles) || !replay.guard().claimForReplay(event.seq())) {
                continue;
            }
            JsonObjectBuilder copy = Jsons.PROVIDER.createObjectBuilder(chat);
            copy.remove("receipt_requested");
            String text = copy.add("seq", event.seq()).add("replayed", true).build().toString();
            writes.add(replay.connection().send(text));
            chars += text.length();
            if (chars >= REPLAY_CHUNK_CHARS && i + 1 < events.size()) {
                int next = i + 1;
                return allWritten(writes).thenCompose(ok -> ok
                        ? replayFrom(replay, events, next, scanned, lastPage) : CompletableFuture.completedFuture(null));
            }
        }
        if (lastPage || events.isEmpty() || scanned >= REPLAY_SCAN) {
            return CompletableFuture.completedFuture(null);
        }
        long after = events.get(events.size() - 1).seq();
        return allWritten(writes).thenCompose(ok -> ok ? replayPage(replay, after, scanned) : CompletableFuture.completedFuture(null));
    }

    /** Completes once every write finished: true when all were written (a failed one ends the replay). */
    private static CompletableFuture<Boolean> allWritten(List<CompletableFuture<Boolean>> writes) {
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new))
                .thenApply(x -> writes.stream().allMatch(w -> Boolean.TRUE.equals(w.join())));
    }

    /**
     * Called just before a registration frame binds its name: when it asks for a replay, chats written
     * live to the socket from the bind on are noted (the replay itself starts after the bind).
     */
    public void expectReplay(Connection connection, JsonObject frame) {
        if (JsonFields.isTrue(frame, "mailbox") && ctx.hasJournal()) {
            replayGuards.put(connection, new ReplayGuard());
        }
    }

    /** The socket closed: drops what a replay that will not run had noted. */
    public void closed(Connection connection) {
        replayGuards.remove(connection);
    }

    /**
     * Whether the live copy of journalled chat {@code seq} may be written to {@code socket}: always, unless
     * that socket's mailbox replay (pending or just finished) has already written it, so its copy stands.
     * A replay that runs later skips what this claimed.
     */
    public boolean claimLive(Connection socket, long seq) {
        if (replayGuards.isEmpty()) {
            return true;
        }
        ReplayGuard guard = replayGuards.get(socket);
        if (guard == null) {
            return true;
        }
        if (guard.expired(ctx.frames().now())) {
            replayGuards.remove(socket, guard);
            return true;
        }
        return guard.claimLive(seq);
    }

    /** Keeps the finished replay's claims a while and forgets guards whose time is up. */
    private void replayFinished(ReplayGuard guard) {
        double now = ctx.frames().now();
        guard.finish(now);
        replayGuards.values().removeIf(g -> g.expired(now));
    }

    /** Sockets whose replay guard is still kept (for tests). */
    int replayGuardCount() {
        return replayGuards.size();
    }

    /**
     * Undelivered directed chats for {@code identity} after its watermark (§8.5), within the indexed window:
     * kept as counts per name, so only chats to roles, bare projects or globs are looked at one by one.
     */
    public long pendingFor(String identity, Collection<String> roles) {
        return directed.pendingFor(identity, roles);
    }

    /** {@code who_snapshot.mailbox_pending}: online logical identities plus recently touched ones; null without a journal. */
    public JsonObject pendingSnapshot() {
        if (!ctx.hasJournal()) {
            return null;
        }
        ConnectionRegistry registry = ctx.registry();
        Map<String, Set<String>> identities = new TreeMap<>();
        for (String name : registry.boundNames()) {
            String owner = ConnectionRegistry.waiterOwner(name);
            Set<String> roles = identities.computeIfAbsent(owner, o -> new LinkedHashSet<>());
            roles.addAll(registry.rolesOf(name));
            roles.addAll(registry.rolesOf(owner));
        }
        for (String identity : tracked.keySet()) {
            identities.computeIfAbsent(identity, i -> new LinkedHashSet<>());
        }
        JsonObjectBuilder out = Jsons.PROVIDER.createObjectBuilder();
        identities.forEach((identity, roles) -> out.add(identity, pendingFor(identity, roles)));
        return out.build();
    }

    /** Start-up replay of chat and watermark events. */
    public void replay(JournalEvent event) {
        JsonObject p = event.payload();
        if ("chat".equals(event.kind())) {
            String target = JsonFields.string(p, "target");
            String sender = JsonFields.string(p, "sender");
            if (target != null && sender != null) {
                chatCommitted(event.seq(), sender, target, p.containsKey("channel"), event.appendedAt());
            }
            highestSeq.accumulateAndGet(event.seq(), Math::max);
        } else if ("mailbox_watermark".equals(event.kind())) {
            String identity = JsonFields.string(p, "identity");
            Long through = JsonFields.integer(p, "through_seq");
            if (identity != null && through != null) {
                watermarks.merge(identity, through, Math::max);
                directed.advanced(identity);
            }
        }
        highestSeq.accumulateAndGet(event.seq(), Math::max);
    }

    private void track(String identity, double now) {
        tracked.put(identity, now);
        if (tracked.size() > TRACKED_IDENTITIES) {
            String oldest = null;
            double oldestAt = Double.MAX_VALUE;
            for (Map.Entry<String, Double> e : tracked.entrySet()) {
                if (e.getValue() < oldestAt) {
                    oldestAt = e.getValue();
                    oldest = e.getKey();
                }
            }
            if (oldest != null) {
                tracked.remove(oldest);
            }
        }
    }

    /**
     * The replayed state as a snapshot part (issue 20): the highest seq seen, the watermarks, the recently
     * touched identities and the directed index (its chats and the size limit's high-water).
     */
    public org.switchboard.journal.snapshot.SnapshotPart snapshotPart() {
        return org.switchboard.journal.snapshot.SnapshotPart.of("mailbox", () -> {
            JsonObjectBuilder marks = Jsons.PROVIDER.createObjectBuilder();
            new TreeMap<>(watermarks).forEach(marks::add);
            JsonObjectBuilder touched = Jsons.PROVIDER.createObjectBuilder();
            new TreeMap<>(tracked).forEach(touched::add);
            jakarta.json.JsonArrayBuilder chats = Jsons.PROVIDER.createArrayBuilder();
            directed.entries().forEach((seq, entry) -> chats.add(Jsons.PROVIDER.createArrayBuilder().add(seq)
                    .add(entry.sender()).add(entry.target())));
            return Jsons.PROVIDER.createObjectBuilder().add("highest_seq", highestSeq.get()).add("watermarks", marks)
                    .add("tracked", touched).add("size_pruned_through", directed.sizePrunedThrough())
                    .add("directed", chats).build().toString();
        }, text -> {
            JsonObject part = SnapshotText.object(text);
            try {
                highestSeq.accumulateAndGet(part.getJsonNumber("highest_seq").longValueExact(), Math::max);
                part.getJsonObject("watermarks").forEach((identity, seq) ->
                        watermarks.merge(identity, ((jakarta.json.JsonNumber) seq).longValueExact(), Math::max));
                part.getJsonObject("tracked").forEach((identity, at) ->
                        tracked.put(identity, ((jakarta.json.JsonNumber) at).doubleValue()));
                directed.restorePruned(part.getJsonNumber("size_pruned_through").longValueExact());
                // after the watermarks: the index files each chat only under names still behind it
                SnapshotText.eachArray(part, "directed", chat ->
                        directed.restore(chat.getJsonNumber(0).longValueExact(), chat.getString(1), chat.getString(2)));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("mailbox snapshot part: " + e, e);
            }
        });
    }
}
