package org.switchboard.synapse.delivery;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;
import org.switchboard.journal.snapshot.SnapshotWriter;

/**
 * The in-memory index of every delivery request (rebuilt from the journal on start): aggregates by
 * {@code operation_key} and by {@code (sender, idempotency_key)}, the mutation ledger, the open
 * requests (listed in key order), and the open counts the admission caps read. Every change is a
 * compare-and-set on {@code ordinal} under one lock, so check and change are atomic; reads
 * ({@link #get}, {@link #byIdempotency}, {@link #mutation}) take no lock of the book's: a live request is read from
 * concurrent maps, an archived one under the archive's own read lock. A terminal request
 * moves into the {@link TerminalArchive} (packed bytes instead of objects) once its last change committed
 * and {@link #ARCHIVE_AFTER_SECONDS} passed; it reads the same from there, without its body. Terminal
 * requests can be forgotten from memory after a while or beyond a count ({@link #terminalRetention},
 * {@link #forgetClosed}); the journal keeps every event of them.
 */
public final class DeliveryBook {

    /** Open requests allowed per recipient incarnation (§2.8). */
    public static final int RECIPIENT_CAP = 128;
    /** Open requests allowed per sender within one recipient incarnation (§2.8). */
    public static final int SENDER_CAP = 16;

    /** What {@link #admit} did. */
    public enum Admission { ADMITTED, RETRY, ID_CONFLICT, QUEUE_FULL }

    /** What {@link #apply} did. */
    public enum Applied { APPLIED, REPLAY, ID_CONFLICT, STATE_CONFLICT, UNKNOWN }

    /** One stored mutation: its digest and the seq of the event that recorded it (0 until committed). */
    public record Mutation(String digest, long eventSeq) {
    }

    private static final Comparator<Aggregate> BY_KEY = Comparator.comparing(Aggregate::operationKey);

    // Changed only under this book's lock; concurrent maps so that get, byIdempotency and mutation read a live
    // request without it (every stage report reads first, and one lock for all readers made convoys on 2 cores).
    private final Map<String, Aggregate> byKey = new ConcurrentHashMap<>();
    private final Map<String, String> byIdempotency = new ConcurrentHashMap<>();
    /**
     * Stored mutations by operation key, then mutation id (per request, so a forgotten request takes its own along);
     * a request's own map is concurrent too, changed in place under the lock and read without it.
     */
    private final Map<String, Map<String, Mutation>> mutations = new ConcurrentHashMap<>();
    /** Open requests by key; a hash map (walking a sorted one was ~3% of the samples in a delivery-cycle profile): the rare walks sort. */
    private final Map<String, Aggregate> open = new HashMap<>();
    private final Map<String, Integer> openPerIncarnation = new HashMap<>();
    private final Map<String, Integer> openPerSender = new HashMap<>();
    private final Map<String, Long> notificationSeqs = new HashMap<>();
    private final Map<String, Integer> openByStage = new HashMap<>();
    private final PendingNotifications notifications = new PendingNotifications();
    private volatile boolean legacyOutbox;
    /** Terminal requests whose last change committed, not archived yet, in the order they closed. */
    private final ArrayDeque<Closed> closed = new ArrayDeque<>();
    /** Terminal requests archived, in the order they closed (the order they are forgotten in). */
    private final TerminalArchive archive = new TerminalArchive();
    private final DoubleSupplier clock;
    private double retentionSeconds;
    private int terminalMax;
    private long forgotten;

    /**
     * A terminal request stays at least this long (seconds) whatever the count: its last change's commit,
     * reply and notification happen within it, so nothing forgets a request they still read.
     */
    public static final double FORGET_GRACE_SECONDS = 60;

    /**
     * A committed terminal request is archived once it closed this long ago (seconds): the reply that
     * follows its last change still reads the object, not a decoded copy, and few requests are still
     * objects when a young collection runs (each one then is copied).
     */
    public static final double ARCHIVE_AFTER_SECONDS = 0.05;

    /** Requests archived per {@link #committed} call: a few, so archiving keeps pace without a long hold of the lock. */
    private static final int ARCHIVE_PER_COMMIT = 2;
    /** Requests archived per turn of the lock in {@link #forgetClosed}. */
    private static final int ARCHIVE_BATCH = 512;

    /** A request that reached a terminal stage at {@code at} (epoch seconds; its restore time after a start). */
    private record Closed(String operationKey, long admittedOrder, double at) {
    }

    /** A book on the system clock. */
    public DeliveryBook() {
        this(() -> System.currentTimeMillis() / 1000.0);
    }

    /** A book whose close times come from {@code clock} (epoch seconds). */
    public DeliveryBook(DoubleSupplier clock) {
        this.clock = java.util.Objects.requireNonNull(clock);
    }

    /**
     * Forget terminal requests once they closed more than {@code seconds} ago (0 = never by age), and the
     * earliest closed beyond {@code max} held (0 = no cap) once they closed at least
     * {@link #FORGET_GRACE_SECONDS} ago. Applied by {@link #forgetClosed}.
     */
    public synchronized void terminalRetention(double seconds, int max) {
        retentionSeconds = Math.max(0, seconds);
        terminalMax = Math.max(0, max);
    }

    /**
     * Archives the committed terminal requests that closed {@link #ARCHIVE_AFTER_SECONDS} before {@code now}
     * (epoch seconds), then forgets those due under {@link #terminalRetention}, earliest closed first. A
     * request with a notification still pending is kept and its clock restarted, so its audience still
     * gets it on return. Returns how many were forgotten.
     */
    public int forgetClosed(double now) {
        // in batches, the lock free between them: after a start the whole replayed history may be due at once
        int moved;
        do {
            moved = archive(now - ARCHIVE_AFTER_SECONDS, ARCHIVE_BATCH);
        } while (moved == ARCHIVE_BATCH);
        return forgetArchived(now);
    }

    private synchronized int forgetArchived(double now) {
        int done = 0;
        int looked = 0;
        int bound = archive.size();
        while (archive.size() > 0 && looked++ < bound) {
            TerminalArchive.Entry head = archive.head();
            boolean aged = retentionSeconds > 0 && head.closedAt() < now - retentionSeconds;
            boolean over = terminalMax > 0 && terminalHeldLocked() > terminalMax && head.closedAt() < now - FORGET_GRACE_SECONDS;
            if (!aged && !over) {
                break;
            }
            String key = head.aggregate().operationKey();
            if (notifications.pendingFor(key)) {
                // its audience has still to take a notification: kept, with its clock restarted; the copy goes in
                // before the record leaves, so readers without the book's lock never miss it
                archive.add(head.aggregate(), head.ownsPair(), head.mutationIds(), head.mutations(), clock.getAsDouble());
                archive.removeHead();
                continue;
            }
            archive.removeHead();
            forgotten++;
            done++;
        }
        return done;
    }

    /**
     * Archives up to {@code max} committed terminal requests that closed at or before {@code cutoff}, earliest
     * first; returns how many.
     */
    synchronized int archive(double cutoff, int max) {
        int moved = 0;
        int looked = 0;
        int bound = closed.size();
        while (moved < max && !closed.isEmpty() && looked++ < bound) {
            Closed head = closed.peekFirst();
            if (head.at() > cutoff) {
                break;
            }
            closed.pollFirst();
            Aggregate current = byKey.get(head.operationKey());
            if (current == null || current.admittedOrder() != head.admittedOrder() || !current.stage().terminal()) {
                continue; // archived already, or the entry is stale
            }
            String pair = current.intent().sender() + '\n' + current.intent().idempotencyKey();
            boolean ownsPair = current.operationKey().equals(byIdempotency.get(pair));
            Map<String, Mutation> own = mutations.get(current.operationKey());
            List<String> ids = new ArrayList<>(own == null ? 0 : own.size() + 2);
            List<Mutation> stored = new ArrayList<>(own == null ? 0 : own.size() + 2);
            if (own != null) {
                own.forEach((id, m) -> { // in any order: a snapshot sorts them
                    ids.add(id);
                    stored.add(m);
                });
            }
            // in this order for the readers without the lock: in the archive before it leaves byKey, and out of
            // byKey before its mutations go (see mutation)
            archive.add(current, ownsPair, ids, stored, head.at());
            byKey.remove(current.operationKey());
            mutations.remove(current.operationKey());
            if (ownsPair) {
                byIdempotency.remove(pair);
            }
            moved++;
        }
        return moved;
    }

    /** Terminal requests forgotten from memory since start (metrics). */
    public synchronized long forgotten() {
        return forgotten;
    }

    /** Terminal requests held in memory, archived or not (metrics). */
    public synchronized int terminalHeld() {
        return terminalHeldLocked();
    }

    /** Terminal requests held in the {@link TerminalArchive} (metrics). */
    public synchronized int terminalArchived() {
        return archive.size();
    }

    /** Bytes of direct memory (outside the heap) the terminal archive's records take (metrics). */
    public long terminalArchiveBytes() {
        return archive.segmentBytes();
    }

    private int terminalHeldLocked() {
        return closed.size() + archive.size();
    }

    /** The stored notifications not yet delivered (journal-derived; their own lock). */
    public PendingNotifications notifications() {
        return notifications;
    }

    /** Whether the journal holds requests of an earlier version, whose notifications are outbox rows. */
    public boolean legacyOutbox() {
        return legacyOutbox;
    }

    /** Records that replay met such a request. */
    public void legacyOutbox(boolean seen) {
        legacyOutbox = legacyOutbox || seen;
    }

    /** The aggregate for {@code operationKey}, or null. */
    public Aggregate get(String operationKey) {
        Aggregate live = byKey.get(operationKey);
        if (live != null) {
            return live;
        }
        // a request leaves byKey only after it entered the archive, so a miss here finds it there
        TerminalArchive.Entry archived = archive.get(operationKey);
        return archived == null ? null : archived.aggregate();
    }

    /** The aggregate admitted for {@code (sender, idempotencyKey)}, or null. */
    public Aggregate byIdempotency(String sender, String idempotencyKey) {
        return pairOwner(sender, idempotencyKey);
    }

    /**
     * The request, live or archived, that the pair names; null for none. Needs no lock of the book's: a pair
     * leaves byIdempotency, and its request byKey, only after the request entered the archive.
     */
    private Aggregate pairOwner(String sender, String idempotencyKey) {
        Aggregate live = livePairOwner(sender, idempotencyKey);
        if (live != null) {
            return live;
        }
        TerminalArchive.Entry archived = archive.byPair(sender, idempotencyKey);
        return archived == null ? null : archived.aggregate();
    }

    /** The live request the pair names; null when none is live (it may be archived). Needs no lock. */
    private Aggregate livePairOwner(String sender, String idempotencyKey) {
        String key = byIdempotency.get(sender + '\n' + idempotencyKey);
        return key == null ? null : byKey.get(key);
    }

    /**
     * Step 5 of §2.5 in one atomic step: an existing row by key or idempotency pair is a retry
     * (same key and digest) or a conflict; otherwise the caps are checked and the row inserted.
     */
    public synchronized Admission admit(Aggregate candidate) {
        Aggregate existing = byKey.get(candidate.operationKey());
        if (existing == null) {
            existing = pairOwner(candidate.intent().sender(), candidate.intent().idempotencyKey());
        }
        if (existing == null) {
            TerminalArchive.Entry archived = archive.get(candidate.operationKey());
            existing = archived == null ? null : archived.aggregate();
        }
        if (existing != null) {
            return existing.operationKey().equals(candidate.operationKey()) && existing.digest().equals(candidate.digest())
                    ? Admission.RETRY : Admission.ID_CONFLICT;
        }
        DeliveryIntent intent = candidate.intent();
        if (openPerIncarnation.getOrDefault(incarnationKey(intent), 0) >= RECIPIENT_CAP
                || openPerSender.getOrDefault(senderKey(intent), 0) >= SENDER_CAP) {
            return Admission.QUEUE_FULL;
        }
        store(null, candidate);
        byIdempotency.put(intent.sender() + '\n' + intent.idempotencyKey(), candidate.operationKey());
        return Admission.ADMITTED;
    }

    /**
     * Replaces the aggregate with {@code next} if its ordinal is still {@code expectedOrdinal}, recording
     * {@code mutationId} with {@code digest} (null for none). A known mutation id is a replay when the
     * digest matches and a conflict otherwise; nothing changes then.
     */
    public synchronized Applied apply(long expectedOrdinal, Aggregate next, String mutationId, String digest) {
        Aggregate current = byKey.get(next.operationKey());
        if (current == null) {
            TerminalArchive.Entry archived = archive.get(next.operationKey());
            if (archived == null) {
                return Applied.UNKNOWN;
            }
            // an archived request is terminal and nothing moves it: a known mutation is answered, the rest conflict
            int at = mutationId == null ? -1 : archived.mutationIds().indexOf(mutationId);
            return at < 0 ? Applied.STATE_CONFLICT
                    : archived.mutations().get(at).digest().equals(digest) ? Applied.REPLAY : Applied.ID_CONFLICT;
        }
        if (mutationId != null) {
            Mutation known = mutationOf(next.operationKey(), mutationId);
            if (known != null) {
                return known.digest().equals(digest) ? Applied.REPLAY : Applied.ID_CONFLICT;
            }
        }
        if (current.ordinal() != expectedOrdinal) {
            return Applied.STATE_CONFLICT;
        }
        store(current, next);
        if (mutationId != null) {
            putMutation(next.operationKey(), mutationId, new Mutation(digest, 0));
        }
        return Applied.APPLIED;
    }

    /** The stored mutation, or null. */
    public Mutation mutation(String operationKey, String mutationId) {
        Mutation live = mutationOf(operationKey, mutationId);
        if (live != null) {
            return live;
        }
        // still live after the mutations were read: they were whole then (archive removes them only after the
        // request left byKey), so the mutation is not stored; gone from byKey, it entered the archive before
        return byKey.containsKey(operationKey) ? null : archive.mutation(operationKey, mutationId);
    }

    /** Records the seq the change to {@code ordinal} committed at (and the seq of its notification). */
    public synchronized void committed(String operationKey, long ordinal, long seq, String mutationId) {
        Aggregate current = byKey.get(operationKey);
        if (current != null && current.ordinal() == ordinal) {
            replaceQuietly(current.withSeq(seq));
        }
        if (mutationId != null) {
            Mutation known = mutationOf(operationKey, mutationId);
            if (known != null) {
                putMutation(operationKey, mutationId, new Mutation(known.digest(), seq));
            }
        }
        double now = clock.getAsDouble();
        if (current != null && current.ordinal() == ordinal && current.stage().terminal()) {
            closed.addLast(new Closed(operationKey, current.admittedOrder(), now));
        }
        archive(now - ARCHIVE_AFTER_SECONDS, ARCHIVE_PER_COMMIT);
    }

    /** Undoes a change whose commit failed, if nothing came after it. */
    public synchronized void rollback(Aggregate before, Aggregate failed, String mutationId) {
        Aggregate current = byKey.get(failed.operationKey());
        if (current == null || current.ordinal() != failed.ordinal()) {
            return;
        }
        if (mutationId != null) {
            Map<String, Mutation> own = mutations.get(failed.operationKey());
            if (own != null && own.remove(mutationId) != null && own.isEmpty()) {
                mutations.remove(failed.operationKey());
            }
        }
        if (before == null) {
            adjust(current, -1);
            byKey.remove(failed.operationKey());
            open.remove(failed.operationKey());
            byIdempotency.remove(failed.intent().sender() + '\n' + failed.intent().idempotencyKey());
        } else {
            store(current, before);
        }
    }

    /** The journal seq of a notification stored as an outbox row by an earlier version, or 0. */
    public synchronized long notificationSeq(String notificationId) {
        return notificationSeqs.getOrDefault(notificationId, 0L);
    }

    /** Open requests whose deadline is at or before {@code now}, in key order, at most {@code limit}. */
    public synchronized List<Aggregate> expired(double now, int limit) {
        List<Aggregate> due = new ArrayList<>();
        for (Aggregate aggregate : open.values()) {
            if (aggregate.intent().deadline() <= now) {
                due.add(aggregate);
            }
        }
        due.sort(BY_KEY);
        return due.size() > limit ? new ArrayList<>(due.subList(0, Math.max(0, limit))) : due;
    }

    /** Open requests for {@code target} under an incarnation other than {@code incarnation}, in key order. */
    public synchronized List<Aggregate> openForOtherIncarnations(String target, String incarnation) {
        List<Aggregate> found = new ArrayList<>();
        for (Aggregate aggregate : open.values()) {
            if (aggregate.intent().target().equals(target) && !aggregate.intent().targetIncarnation().equals(incarnation)) {
                found.add(aggregate);
            }
        }
        found.sort(BY_KEY);
        return found;
    }

    /** Queued requests for {@code (target, incarnation)} in admission order. */
    public synchronized List<Aggregate> queuedFor(String target, String incarnation) {
        List<Aggregate> found = new ArrayList<>();
        for (Aggregate aggregate : open.values()) {
            if (aggregate.stage() == Stage.QUEUED && aggregate.intent().target().equals(target)
                    && aggregate.intent().targetIncarnation().equals(incarnation)) {
                found.add(aggregate);
            }
        }
        found.sort(Comparator.comparingLong(Aggregate::admittedOrder));
        return found;
    }

    /** Open requests per stage (metrics). */
    public synchronized Map<Stage, Integer> openByStage() {
        Map<Stage, Integer> counts = new TreeMap<>();
        for (Stage stage : Stage.values()) {
            if (stage.open()) {
                counts.put(stage, openByStage.getOrDefault(stage.wire(), 0));
            }
        }
        return counts;
    }

    /** Up to {@code limit} open requests, oldest admitted first (the operator's queue view). */
    public synchronized List<Aggregate> oldestOpen(int limit) {
        // a bounded max-heap on admission order: the view stays O(open × log limit) however long the queue
        java.util.PriorityQueue<Aggregate> keep = new java.util.PriorityQueue<>(
                Comparator.comparingLong(Aggregate::admittedOrder).reversed());
        for (Aggregate aggregate : open.values()) {
            keep.add(aggregate);
            if (keep.size() > Math.max(0, limit)) {
                keep.poll();
            }
        }
        List<Aggregate> out = new ArrayList<>(keep);
        out.sort(Comparator.comparingLong(Aggregate::admittedOrder));
        return out;
    }

    /** Requests held: every one admitted, less the terminal ones forgotten under {@link #terminalRetention}. */
    public synchronized int size() {
        return byKey.size() + archive.size();
    }

    // ---- start-up replay: the journal's events rebuild the book without the admission checks ----

    /** Replay of an admission. */
    public synchronized void restore(Aggregate aggregate) {
        store(byKey.get(aggregate.operationKey()), aggregate);
        byIdempotency.put(aggregate.intent().sender() + '\n' + aggregate.intent().idempotencyKey(), aggregate.operationKey());
        restoredClose(aggregate);
    }

    /** Replay of a change: the stored state, its mutation and its notification seq. */
    public synchronized void restore(Aggregate next, String mutationId, String digest) {
        store(byKey.get(next.operationKey()), next);
        if (mutationId != null) {
            putMutation(next.operationKey(), mutationId, new Mutation(digest, next.latestEventSeq()));
        }
        restoredClose(next);
    }

    /** A replayed change is committed: a terminal one waits for archiving like a live one whose commit returned. */
    private void restoredClose(Aggregate a) {
        if (a.stage().terminal()) {
            closed.addLast(new Closed(a.operationKey(), a.admittedOrder(), clock.getAsDouble()));
        }
    }

    /** Replay of an earlier version's change: its notification is an outbox row, sent with this event seq. */
    public synchronized void legacyNotification(String notificationId, long seq) {
        notificationSeqs.put(notificationId, seq);
    }

    /** Takes a request out of sweeps and counts (its rows could not be decoded); it stays known. */
    public synchronized void quarantine(String operationKey) {
        Aggregate current = byKey.get(operationKey);
        if (current != null && open.containsKey(operationKey)) {
            adjust(current, -1);
            open.remove(operationKey);
        }
    }

    private void store(Aggregate before, Aggregate after) {
        if (before != null) {
            adjust(before, -1);
        }
        byKey.put(after.operationKey(), after);
        // one walk of the sorted map per change: replace in place, or remove once the request closed
        if (after.stage().open()) {
            open.put(after.operationKey(), after);
        } else if (before != null) {
            open.remove(before.operationKey());
        }
        adjust(after, +1);
    }

    private Mutation mutationOf(String operationKey, String mutationId) {
        Map<String, Mutation> own = mutations.get(operationKey);
        return own == null ? null : own.get(mutationId);
    }

    private void putMutation(String operationKey, String mutationId, Mutation mutation) {
        mutations.computeIfAbsent(operationKey, k -> new ConcurrentHashMap<>(4)).put(mutationId, mutation);
    }

    private void replaceQuietly(Aggregate after) {
        byKey.put(after.operationKey(), after);
        if (open.containsKey(after.operationKey())) {
            open.put(after.operationKey(), after);
        }
    }

    private void adjust(Aggregate aggregate, int delta) {
        if (!aggregate.stage().open()) {
            return;
        }
        openPerIncarnation.merge(incarnationKey(aggregate.intent()), delta, Integer::sum);
        openPerSender.merge(senderKey(aggregate.intent()), delta, Integer::sum);
        openByStage.merge(aggregate.stage().wire(), delta, Integer::sum);
    }

    private static String incarnationKey(DeliveryIntent intent) {
        return intent.target() + '\n' + intent.targetIncarnation();
    }

    private static String senderKey(DeliveryIntent intent) {
        return intent.target() + '\n' + intent.targetIncarnation() + '\n' + intent.sender();
    }

    // ---- state snapshot (issue 20): every map as it stands, so a restore needs no rule re-run ----
    // One row (a JSON array) per request, in key order: its fields by position, its stored mutations, and
    // two flags for the index entries the request implies (it is in the open set, which only ever holds
    // requests of the book; its idempotency pair maps to it). Only entries the rows do not cover are
    // written apart, so a key is written once, and the restore reads a stream of rows, not a tree.

    private static final int IN_OPEN = 1;
    private static final int IDEMPOTENCY_PAIR = 2;

    /** Writes the whole book as one JSON object to {@code out} (the caller keeps the book still meanwhile). */
    synchronized void writeSnapshot(jakarta.json.stream.JsonGenerator out) {
        // each stored mutation under its request; those of a key that names no request are written whole
        // (operation key, newline, mutation id) in "other_mutations"
        TreeMap<String, Mutation> otherMutations = new TreeMap<>();
        mutations.forEach((key, own) -> {
            if (!byKey.containsKey(key) && archive.get(key) == null) {
                own.forEach((id, m) -> otherMutations.put(key + '\n' + id, m));
            }
        });
        Map<String, String> otherPairs = new TreeMap<>(byIdempotency);
        // live and archived requests in one key order; an archived one brings its own mutations and pair flag
        TreeMap<String, Object> rows = new TreeMap<>(byKey);
        archive.forEach(e -> rows.put(e.aggregate().operationKey(), e));
        out.writeStartObject().writeKey("requests").writeStartArray();
        for (Object row : rows.values()) {
            Aggregate a;
            int flags;
            Map<String, Mutation> own;
            if (row instanceof TerminalArchive.Entry e) {
                a = e.aggregate();
                flags = e.ownsPair() ? IDEMPOTENCY_PAIR : 0;
                own = new TreeMap<>();
                for (int m = 0; m < e.mutationIds().size(); m++) {
                    own.put(e.mutationIds().get(m), e.mutations().get(m));
                }
            } else {
                a = (Aggregate) row;
                DeliveryIntent i = a.intent();
                String pair = i.sender() + '\n' + i.idempotencyKey();
                flags = open.containsKey(a.operationKey()) ? IN_OPEN : 0;
                if (a.operationKey().equals(byIdempotency.get(pair))) {
                    flags |= IDEMPOTENCY_PAIR;
                    otherPairs.remove(pair);
                }
                own = mutations.get(a.operationKey());
            }
            DeliveryIntent i = a.intent();
            out.writeStartArray();
            SnapshotWriter.texts(out, a.operationKey(), a.originHub(), a.receivingHub(), a.digest(), a.selectedMode(),
                    a.quality(), a.offer());
            out.write(a.stage().wire()).write(a.cancelRequested()).write(a.boundaryDelivered())
                    .write(a.explicitlyAcknowledged()).write(a.ordinal()).write(a.latestEventSeq()).write(a.admittedOrder());
            SnapshotWriter.texts(out, i.sender(), i.requestId(), i.idempotencyKey(), i.target(), i.targetIncarnation(),
                    i.mode());
            out.writeStartArray();
            i.allowedFallbacks().forEach(out::write);
            out.writeEnd();
            SnapshotWriter.texts(out, i.taskId(), i.body());
            out.write(i.deadline()).write(flags).writeStartArray();
            if (own != null) {
                new TreeMap<>(own).forEach((id, m) -> mutation(out, id, m));
            }
            out.writeEnd().writeEnd();
        }
        out.writeEnd();
        out.writeKey("other_pairs").writeStartObject();
        otherPairs.forEach(out::write);
        out.writeEnd();
        out.writeKey("other_mutations").writeStartArray();
        otherMutations.forEach((key, m) -> mutation(out, key, m));
        out.writeEnd();
        counts(out, "open_per_incarnation", openPerIncarnation);
        counts(out, "open_per_sender", openPerSender);
        counts(out, "open_by_stage", openByStage);
        counts(out, "notification_seqs", notificationSeqs);
        out.writeKey("notifications").writeStartArray();
        for (PendingNotifications.Entry e : notifications.all()) {
            out.writeStartArray().write(e.seq()).write(e.audience()).write(e.operationKey()).write(e.ordinal())
                    .write(e.stage().wire()).write(e.cancelRequested()).write(e.source().name()).write(e.timestamp())
                    .writeEnd();
        }
        out.writeEnd();
        out.write("legacy_outbox", legacyOutbox).writeEnd();
    }

    /** Loads a {@link #writeSnapshot} into this fresh book; {@link RuntimeException} when it does not read. */
    synchronized void readSnapshot(org.switchboard.journal.snapshot.SnapshotReader in) {
        in.startObject();
        in.key("requests");
        in.startArray();
        List<Aggregate> terminal = new ArrayList<>();
        while (in.more()) {
            in.startArray();
            String operationKey = in.string();
            String originHub = in.string();
            String receivingHub = in.string();
            String digest = in.string();
            String selectedMode = in.string();
            String quality = in.string();
            String offer = in.string();
            Stage stage = Stage.of(in.string());
            boolean cancelRequested = in.bool();
            boolean boundaryDelivered = in.bool();
            boolean acknowledged = in.bool();
            long ordinal = in.longValue();
            long latestEventSeq = in.longValue();
            long admittedOrder = in.longValue();
            String sender = in.string();
            String requestId = in.string();
            String idempotencyKey = in.string();
            String target = in.string();
            String targetIncarnation = in.string();
            String mode = in.string();
            List<String> fallbacks = new ArrayList<>();
            in.eachInArray(r -> fallbacks.add(java.util.Objects.requireNonNull(r.string(), "fallback")));
            String taskId = in.string();
            String body = in.string();
            double deadline = in.doubleValue();
            DeliveryIntent intent = new DeliveryIntent(sender, requestId, idempotencyKey, target, targetIncarnation, mode,
                    List.copyOf(fallbacks), taskId, body, deadline);
            Aggregate a = new Aggregate(operationKey, intent, originHub, receivingHub, digest, selectedMode, quality,
                    java.util.Objects.requireNonNull(stage, "stage"), cancelRequested, boundaryDelivered, acknowledged,
                    ordinal, latestEventSeq, admittedOrder, offer);
            byKey.put(operationKey, a);
            if (a.stage().terminal()) {
                terminal.add(a);
            }
            int flags = in.intValue();
            if ((flags & IN_OPEN) != 0) {
                open.put(operationKey, a);
            }
            if ((flags & IDEMPOTENCY_PAIR) != 0) {
                byIdempotency.put(sender + '\n' + idempotencyKey, operationKey);
            }
            in.startArray();
            while (in.more()) {
                readMutation(in, operationKey);
            }
            if (in.more()) {
                throw new IllegalArgumentException("a request row has extra fields");
            }
        }
        // closed in the order of their last events, each at the restore time (kept at least as long as before)
        terminal.sort(Comparator.comparingLong(Aggregate::latestEventSeq));
        double now = clock.getAsDouble();
        terminal.forEach(a -> closed.addLast(new Closed(a.operationKey(), a.admittedOrder(), now)));
        in.key("other_pairs");
        in.startObject();
        while (in.more()) {
            String pair = in.key();
            byIdempotency.put(pair, java.util.Objects.requireNonNull(in.string(), "idempotency pair"));
        }
        in.key("other_mutations");
        in.startArray();
        while (in.more()) {
            readMutation(in, null);
        }
        readCounts(in, "open_per_incarnation", (k, v) -> openPerIncarnation.put(k, Math.toIntExact(v)));
        readCounts(in, "open_per_sender", (k, v) -> openPerSender.put(k, Math.toIntExact(v)));
        readCounts(in, "open_by_stage", (k, v) -> openByStage.put(k, Math.toIntExact(v)));
        readCounts(in, "notification_seqs", notificationSeqs::put);
        in.key("notifications");
        in.eachInArray(r -> {
            r.startArray();
            notifications.add(new PendingNotifications.Entry(r.longValue(), r.string(), r.string(), r.longValue(),
                    java.util.Objects.requireNonNull(Stage.of(r.string()), "stage"), r.bool(),
                    Stage.Source.valueOf(r.string()), r.doubleValue()));
            if (r.more()) {
                throw new IllegalArgumentException("a notification row has extra fields");
            }
        });
        in.key("legacy_outbox");
        legacyOutbox = in.bool();
        if (in.more()) {
            throw new IllegalArgumentException("unknown field after legacy_outbox");
        }
    }

    private static void mutation(jakarta.json.stream.JsonGenerator out, String id, Mutation m) {
        out.writeStartArray().write(id);
        SnapshotWriter.text(out, m.digest());
        out.write(m.eventSeq()).writeEnd();
    }

    /** One mutation row: under {@code operationKey}, or (null) a whole "key, newline, id" of another request. */
    private void readMutation(org.switchboard.journal.snapshot.SnapshotReader in, String operationKey) {
        in.startArray();
        String id = java.util.Objects.requireNonNull(in.string(), "mutation id");
        String key = operationKey;
        if (key == null) {
            int cut = id.indexOf('\n');
            if (cut < 0) {
                throw new IllegalArgumentException("a mutation of another request names no operation key");
            }
            key = id.substring(0, cut);
            id = id.substring(cut + 1);
        }
        putMutation(key, id, new Mutation(in.string(), in.longValue()));
        if (in.more()) {
            throw new IllegalArgumentException("a mutation row has extra fields");
        }
    }

    private static void counts(jakarta.json.stream.JsonGenerator out, String name, Map<String, ? extends Number> map) {
        out.writeKey(name).writeStartObject();
        new TreeMap<>(map).forEach((k, v) -> out.write(k, v.longValue()));
        out.writeEnd();
    }

    private static void readCounts(org.switchboard.journal.snapshot.SnapshotReader in, String name,
                                   java.util.function.BiConsumer<String, Long> put) {
        in.key(name);
        in.startObject();
        while (in.more()) {
            String key = in.key();
            put.accept(key, in.longValue());
        }
    }
}
