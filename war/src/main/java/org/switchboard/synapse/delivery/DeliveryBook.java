package org.switchboard.synapse.delivery;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The in-memory index of every delivery request (rebuilt from the journal on start): aggregates by
 * {@code operation_key} and by {@code (sender, idempotency_key)}, the mutation ledger, the open
 * requests in key order, and the open counts the admission caps read. Every change is a
 * compare-and-set on {@code ordinal} under one lock, so check and change are atomic.
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

    private final Map<String, Aggregate> byKey = new HashMap<>();
    private final Map<String, String> byIdempotency = new HashMap<>();
    private final Map<String, Mutation> mutations = new HashMap<>();
    private final TreeMap<String, Aggregate> open = new TreeMap<>();
    private final Map<String, Integer> openPerIncarnation = new HashMap<>();
    private final Map<String, Integer> openPerSender = new HashMap<>();
    private final Map<String, Long> notificationSeqs = new HashMap<>();
    private final Map<String, Integer> openByStage = new HashMap<>();
    private final PendingNotifications notifications = new PendingNotifications();
    private volatile boolean legacyOutbox;

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
    public synchronized Aggregate get(String operationKey) {
        return byKey.get(operationKey);
    }

    /** The aggregate admitted for {@code (sender, idempotencyKey)}, or null. */
    public synchronized Aggregate byIdempotency(String sender, String idempotencyKey) {
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
            String key = byIdempotency.get(candidate.intent().sender() + '\n' + candidate.intent().idempotencyKey());
            existing = key == null ? null : byKey.get(key);
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
            return Applied.UNKNOWN;
        }
        if (mutationId != null) {
            Mutation known = mutations.get(next.operationKey() + '\n' + mutationId);
            if (known != null) {
                return known.digest().equals(digest) ? Applied.REPLAY : Applied.ID_CONFLICT;
            }
        }
        if (current.ordinal() != expectedOrdinal) {
            return Applied.STATE_CONFLICT;
        }
        store(current, next);
        if (mutationId != null) {
            mutations.put(next.operationKey() + '\n' + mutationId, new Mutation(digest, 0));
        }
        return Applied.APPLIED;
    }

    /** The stored mutation, or null. */
    public synchronized Mutation mutation(String operationKey, String mutationId) {
        return mutations.get(operationKey + '\n' + mutationId);
    }

    /** Records the seq the change to {@code ordinal} committed at (and the seq of its notification). */
    public synchronized void committed(String operationKey, long ordinal, long seq, String mutationId) {
        Aggregate current = byKey.get(operationKey);
        if (current != null && current.ordinal() == ordinal) {
            replaceQuietly(current.withSeq(seq));
        }
        if (mutationId != null) {
            Mutation known = mutations.get(operationKey + '\n' + mutationId);
            if (known != null) {
                mutations.put(operationKey + '\n' + mutationId, new Mutation(known.digest(), seq));
            }
        }
    }

    /** Undoes a change whose commit failed, if nothing came after it. */
    public synchronized void rollback(Aggregate before, Aggregate failed, String mutationId) {
        Aggregate current = byKey.get(failed.operationKey());
        if (current == null || current.ordinal() != failed.ordinal()) {
            return;
        }
        if (mutationId != null) {
            mutations.remove(failed.operationKey() + '\n' + mutationId);
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
                if (due.size() >= limit) {
                    break;
                }
            }
        }
        return due;
    }

    /** Open requests for {@code target} under an incarnation other than {@code incarnation}, in key order. */
    public synchronized List<Aggregate> openForOtherIncarnations(String target, String incarnation) {
        List<Aggregate> found = new ArrayList<>();
        for (Aggregate aggregate : open.values()) {
            if (aggregate.intent().target().equals(target) && !aggregate.intent().targetIncarnation().equals(incarnation)) {
                found.add(aggregate);
            }
        }
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

    /** Number of requests ever admitted (still held: rows are never compacted). */
    public synchronized int size() {
        return byKey.size();
    }

    // ---- start-up replay: the journal's events rebuild the book without the admission checks ----

    /** Replay of an admission. */
    public synchronized void restore(Aggregate aggregate) {
        store(byKey.get(aggregate.operationKey()), aggregate);
        byIdempotency.put(aggregate.intent().sender() + '\n' + aggregate.intent().idempotencyKey(), aggregate.operationKey());
    }

    /** Replay of a change: the stored state, its mutation and its notification seq. */
    public synchronized void restore(Aggregate next, String mutationId, String digest) {
        store(byKey.get(next.operationKey()), next);
        if (mutationId != null) {
            mutations.put(next.operationKey() + '\n' + mutationId, new Mutation(digest, next.latestEventSeq()));
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

    /** The whole book as one JSON object (the caller keeps the book still while it is written). */
    synchronized jakarta.json.JsonObject snapshot() {
        var json = org.switchboard.json.Jsons.PROVIDER;
        jakarta.json.JsonArrayBuilder aggregates = json.createArrayBuilder();
        new TreeMap<>(byKey).values().forEach(a -> aggregates.add(aggregate(a)));
        jakarta.json.JsonObjectBuilder muts = json.createObjectBuilder();
        new TreeMap<>(mutations).forEach((k, m) -> muts.add(k, json.createArrayBuilder().add(m.digest() == null
                ? jakarta.json.JsonValue.NULL : json.createValue(m.digest())).add(m.eventSeq())));
        jakarta.json.JsonArrayBuilder pending = json.createArrayBuilder();
        for (PendingNotifications.Entry e : notifications.all()) {
            pending.add(json.createArrayBuilder().add(e.seq()).add(e.audience()).add(e.operationKey()).add(e.ordinal())
                    .add(e.stage().wire()).add(e.cancelRequested()).add(e.source().name()).add(e.timestamp()));
        }
        return json.createObjectBuilder().add("aggregates", aggregates)
                .add("by_idempotency", strings(byIdempotency)).add("mutations", muts)
                .add("open", json.createArrayBuilder(List.copyOf(open.keySet())))
                .add("open_per_incarnation", numbers(openPerIncarnation)).add("open_per_sender", numbers(openPerSender))
                .add("open_by_stage", numbers(openByStage)).add("notification_seqs", numbers(notificationSeqs))
                .add("notifications", pending).add("legacy_outbox", legacyOutbox).build();
    }

    /** Loads a {@link #snapshot()} into this fresh book; {@link RuntimeException} when it does not read. */
    synchronized void restoreSnapshot(jakarta.json.JsonObject s) {
        for (jakarta.json.JsonValue v : s.getJsonArray("aggregates")) {
            Aggregate a = aggregate(v.asJsonObject());
            byKey.put(a.operationKey(), a);
        }
        s.getJsonObject("by_idempotency").forEach((k, v) -> byIdempotency.put(k, ((jakarta.json.JsonString) v).getString()));
        s.getJsonObject("mutations").forEach((k, v) -> {
            jakarta.json.JsonArray m = v.asJsonArray();
            mutations.put(k, new Mutation(m.isNull(0) ? null : m.getString(0), m.getJsonNumber(1).longValueExact()));
        });
        for (jakarta.json.JsonValue v : s.getJsonArray("open")) {
            String key = ((jakarta.json.JsonString) v).getString();
            open.put(key, java.util.Objects.requireNonNull(byKey.get(key), "open request without aggregate"));
        }
        s.getJsonObject("open_per_incarnation").forEach((k, v) -> openPerIncarnation.put(k, ((jakarta.json.JsonNumber) v).intValueExact()));
        s.getJsonObject("open_per_sender").forEach((k, v) -> openPerSender.put(k, ((jakarta.json.JsonNumber) v).intValueExact()));
        s.getJsonObject("open_by_stage").forEach((k, v) -> openByStage.put(k, ((jakarta.json.JsonNumber) v).intValueExact()));
        s.getJsonObject("notification_seqs").forEach((k, v) -> notificationSeqs.put(k, ((jakarta.json.JsonNumber) v).longValueExact()));
        for (jakarta.json.JsonValue v : s.getJsonArray("notifications")) {
            jakarta.json.JsonArray e = v.asJsonArray();
            notifications.add(new PendingNotifications.Entry(e.getJsonNumber(0).longValueExact(), e.getString(1),
                    e.getString(2), e.getJsonNumber(3).longValueExact(), Stage.of(e.getString(4)), e.getBoolean(5),
                    Stage.Source.valueOf(e.getString(6)), e.getJsonNumber(7).doubleValue()));
        }
        legacyOutbox = s.getBoolean("legacy_outbox");
    }

    private static jakarta.json.JsonObjectBuilder strings(Map<String, String> map) {
        jakarta.json.JsonObjectBuilder out = org.switchboard.json.Jsons.PROVIDER.createObjectBuilder();
        new TreeMap<>(map).forEach(out::add);
        return out;
    }

    private static jakarta.json.JsonObjectBuilder numbers(Map<String, ? extends Number> map) {
        jakarta.json.JsonObjectBuilder out = org.switchboard.json.Jsons.PROVIDER.createObjectBuilder();
        new TreeMap<>(map).forEach((k, v) -> out.add(k, v.longValue()));
        return out;
    }

    private static jakarta.json.JsonObject aggregate(Aggregate a) {
        var json = org.switchboard.json.Jsons.PROVIDER;
        DeliveryIntent i = a.intent();
        jakarta.json.JsonObjectBuilder intent = json.createObjectBuilder();
        nullable(intent, "sender", i.sender());
        nullable(intent, "request_id", i.requestId());
        nullable(intent, "idempotency_key", i.idempotencyKey());
        nullable(intent, "target", i.target());
        nullable(intent, "target_incarnation", i.targetIncarnation());
        nullable(intent, "mode", i.mode());
        intent.add("allowed_fallbacks", json.createArrayBuilder(i.allowedFallbacks()));
        nullable(intent, "task_id", i.taskId());
        nullable(intent, "body", i.body());
        intent.add("deadline", i.deadline());
        jakarta.json.JsonObjectBuilder out = json.createObjectBuilder().add("intent", intent);
        nullable(out, "operation_key", a.operationKey());
        nullable(out, "origin_hub", a.originHub());
        nullable(out, "receiving_hub", a.receivingHub());
        nullable(out, "digest", a.digest());
        nullable(out, "selected_mode", a.selectedMode());
        nullable(out, "quality", a.quality());
        nullable(out, "offer", a.offer());
        return out.add("stage", a.stage().wire()).add("cancel_requested", a.cancelRequested())
                .add("boundary_delivered", a.boundaryDelivered()).add("explicitly_acknowledged", a.explicitlyAcknowledged())
                .add("ordinal", a.ordinal()).add("latest_event_seq", a.latestEventSeq())
                .add("admitted_order", a.admittedOrder()).build();
    }

    private static Aggregate aggregate(jakarta.json.JsonObject o) {
        jakarta.json.JsonObject i = o.getJsonObject("intent");
        List<String> fallbacks = new ArrayList<>();
        i.getJsonArray("allowed_fallbacks").forEach(v -> fallbacks.add(((jakarta.json.JsonString) v).getString()));
        DeliveryIntent intent = new DeliveryIntent(text(i, "sender"), text(i, "request_id"), text(i, "idempotency_key"),
                text(i, "target"), text(i, "target_incarnation"), text(i, "mode"), List.copyOf(fallbacks),
                text(i, "task_id"), text(i, "body"), i.getJsonNumber("deadline").doubleValue());
        return new Aggregate(text(o, "operation_key"), intent, text(o, "origin_hub"), text(o, "receiving_hub"),
                text(o, "digest"), text(o, "selected_mode"), text(o, "quality"), Stage.of(o.getString("stage")),
                o.getBoolean("cancel_requested"), o.getBoolean("boundary_delivered"), o.getBoolean("explicitly_acknowledged"),
                o.getJsonNumber("ordinal").longValueExact(), o.getJsonNumber("latest_event_seq").longValueExact(),
                o.getJsonNumber("admitted_order").longValueExact(), text(o, "offer"));
    }

    private static void nullable(jakarta.json.JsonObjectBuilder out, String name, String value) {
        if (value != null) {
            out.add(name, value);
        }
    }

    private static String text(jakarta.json.JsonObject o, String name) {
        return o.get(name) instanceof jakarta.json.JsonString s ? s.getString() : null;
    }
}
