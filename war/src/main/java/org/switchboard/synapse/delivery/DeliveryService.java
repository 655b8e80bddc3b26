package org.switchboard.synapse.delivery;

import org.switchboard.synapse.wire.BoundedText;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.OutboxRow;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.SynapseContext;

/**
 * Session-bound delivery (synapse-advanced §2) as an application service: recipient sessions,
 * admission, stage reports, cancel requests, status reads, the expiry sweep, supersede and
 * notification replay. Every change is applied to the {@link DeliveryBook} and appended to the
 * journal (the change's events in one group-committed transaction) while holding one lock, and no
 * frame that shows a change leaves before that change has committed. The journal is also the
 * notification outbox of §2.9: an offer is rebuilt from the admission's events and a stored
 * notification from its change's event, so an admission writes its two events and nothing else, and
 * the notifications a socket accepted are recorded many to one {@code delivery_notifications_delivered}
 * event (see {@link PendingNotifications}). Outbox rows written by earlier versions are still replayed.
 */
public final class DeliveryService {

    /** WebSocket close code after a refused delivery registration (§1.5). */
    public static final int CLOSE_REGISTRATION_REFUSED = 4020;
    /** Reason text of that close. */
    public static final String REASON_REGISTRATION_REFUSED = "delivery registration refused";
    /** Earlier versions' outbox rows of this feature are keyed {@code delivery@<audience>}: no bindable name contains {@code @}. */
    static final String OUTBOX_PREFIX = "delivery@";
    static final int PAGE = 128;
    /** How long sent notifications wait to be marked delivered together (one journal event per window). */
    static final long MARK_DELAY_MS = 50;
    /** Most notification seqs one {@code delivery_notifications_delivered} event lists. */
    static final int MARKS_PER_EVENT = 1000;
    private static final Logger LOG = Logger.getLogger(DeliveryService.class.getName());
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final SynapseContext ctx;
    private final DeliveryFrames frames;
    private final DeliveryBook book = new DeliveryBook();
    private final Map<String, DeliverySession> sessions = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<?>> pendingCommits = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> refusals = new ConcurrentHashMap<>();
    private final LongAdder sweeps = new LongAdder();
    private final LongAdder notificationsDropped = new LongAdder();
    private final ConcurrentLinkedQueue<Long> deliveredSeqs = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> legacyDeliveredIds = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean markScheduled = new AtomicBoolean();
    /**
     * Orders a request's book change with its journal append, so its events are journalled in the order the book
     * took them. Striped by operation key, so changes to different requests never wait for each other: with one
     * lock for all, a holder preempted on 2 busy cores queued every request thread behind it (1,717 waits of 10 ms
     * or more in a profiled minute of delivery cycles). A retry has its original's key, so it finds the original's
     * commit tracked.
     */
    private final Object[] commitLocks = newCommitLocks();
    /** Stripes of {@link #commitLocks}; a power of two. */
    private static final int COMMIT_LOCK_STRIPES = 64;
    private final java.util.concurrent.atomic.AtomicLong admissionOrder = new java.util.concurrent.atomic.AtomicLong(1L << 62);
    private volatile int quarantined;
    /** Runs the delivered-marks flush on the blocking pool, MARK_DELAY_MS after the first unmarked send. */
    private final java.util.concurrent.Executor markDelay;

    /** The feature over the hub's context (journal, registry, frames). */
    public DeliveryService(SynapseContext ctx) {
        this.ctx = ctx;
        this.frames = new DeliveryFrames(ctx.frames());
        this.markDelay = CompletableFuture.delayedExecutor(MARK_DELAY_MS, java.util.concurrent.TimeUnit.MILLISECONDS, ctx.blocking());
        book.terminalRetention(ctx.settings().deliveryTerminalRetentionSeconds(), ctx.settings().deliveryTerminalMax());
    }

    /** True when this hub can honour delivery: it has a journal (whose hub id is stored or configured). */
    public boolean durable() {
        return ctx.hasJournal();
    }

    private String hubId() {
        return ctx.frames().hubId();
    }

    // ---- start-up ----

    /** Replays one journal event into the book (start-up). */
    public void replay(JournalEvent event) {
        String bad = DeliveryJournal.replay(event, book, hubId());
        if (bad != null) {
            quarantined++;
            LOG.warning(() -> "delivery: journal row " + event.seq() + " could not be decoded; its request is quarantined");
            if (!bad.isEmpty()) {
                book.quarantine(bad);
            }
        }
    }

    // ---- registration (§2.2, §2.17) ----

    /**
     * Delivery-session binding for a frame that carried the delivery fields ({@code fields} non-null)
     * or was a socket's first frame. Returns false when the connection was refused (and is closing).
     */
    public boolean register(Connection connection, String type, boolean first, JsonObject fields) {
        String name = connection.name();
        if (fields != null) {
            SessionRegistration.Outcome outcome = SessionRegistration.check(fields, first, "heartbeat".equals(type), durable());
            if (outcome.refusal() != null) {
                count(outcome.refusal());
                connection.markClosing();
                connection.send(frames.registrationRefused(name, outcome.refusal()))
                        .whenComplete((ok, error) -> connection.close(CLOSE_REGISTRATION_REFUSED, REASON_REGISTRATION_REFUSED));
                return false;
            }
            connection.protocolVersion(outcome.version());
            DeliverySession session = new DeliverySession(name, connection, outcome.incarnation(), outcome.capabilities());
            sessions.put(name, session);
            supersede(name, outcome.incarnation());
            connection.send(frames.session(name, outcome.incarnation(), outcome.capabilities()));
        }
        if (first && durable() && connection.protocolVersion() >= RequestValidation.CONTRACT_VERSION) {
            connection.inOrder(() -> replayNotifications(connection));
        }
        return true;
    }

    /** The socket closed: its session (if it is still the name's) disappears. */
    public void closed(Connection connection) {
        if (connection.name() != null) {
            sessions.computeIfPresent(connection.name(), (name, s) -> s.connection() == connection ? null : s);
        }
    }

    /** The live session of {@code name}, or null. */
    public DeliverySession session(String name) {
        DeliverySession session = sessions.get(name);
        return session != null && session.connection().peer().isOpen() && !session.connection().closing() ? session : null;
    }

    /** {@code who_snapshot.delivery_sessions} (§2.4). */
    public JsonObject sessionsSnapshot() {
        JsonObjectBuilder out = Jsons.PROVIDER.createObjectBuilder();
        new java.util.TreeMap<>(sessions).forEach((name, s) -> {
            if (session(name) != null) {
                out.add(name, Jsons.PROVIDER.createObjectBuilder().add("incarnation", s.incarnation())
                        .add("capabilities", DeliveryFrames.capabilities(s.capabilities())).add("hub_id", hubId()));
            }
        });
        return out.build();
    }

    private void supersede(String name, String incarnation) {
        for (Aggregate old : book.openForOtherIncarnations(name, incarnation)) {
            hubMove(old, Stage.SUPERSEDED, "hub-session-superseded", "recipient_session_replaced");
        }
    }

    private CompletableFuture<Void> replayNotifications(Connection connection) {
        String name = connection.name();
        CompletableFuture<Void> legacy = !book.legacyOutbox() ? DONE
                : CompletableFuture.supplyAsync(() -> ctx.journal().pendingOutbox(OUTBOX_PREFIX + name), ctx.blocking())
                        .thenAccept(rows -> replayLegacy(connection, rows));
        return legacy.thenCompose(ignored -> {
            DeliverySession session = session(name);
            long after = 0;
            List<PendingNotifications.Entry> page;
            while (!(page = book.notifications().page(name, after, PAGE)).isEmpty()) {
                for (PendingNotifications.Entry entry : page) {
                    after = entry.seq();
                    if (ctx.registry().socketOf(name) != connection) {
                        return DONE;
                    }
                    Aggregate a = book.get(entry.operationKey());
                    if (a == null || skipped(a, name, session, entry.seq())) {
                        continue;
                    }
                    sendNotification(connection, entry.seq(), frames.notification(a.intent(), entry));
                }
            }
            if (session == null || session.connection() != connection) {
                return DONE;
            }
            return sweep().thenRun(() -> {
                double now = ctx.frames().now();
                for (Aggregate queued : book.queuedFor(name, session.incarnation())) {
                    if (queued.intent().deadline() > now) {
                        sendOffer(session, queued);
                    }
                }
            });
        });
    }

    /** Sends an earlier version's undelivered notification rows (its offers are re-sent from the book). */
    private void replayLegacy(Connection connection, List<OutboxRow> rows) {
        String name = connection.name();
        DeliverySession session = session(name);
        for (OutboxRow row : rows) {
            if (ctx.registry().socketOf(name) != connection) {
                return;
            }
            JsonObject frame = row.frame();
            Aggregate a = frame.get("operation_key") instanceof JsonString s ? book.get(s.getString()) : null;
            if ("delivery_offer".equals(row.phase()) || a == null || skipped(a, name, session, 0)) {
                continue;
            }
            String id = row.notificationId();
            connection.send(DeliveryFrames.withSeq(frame.toString(), book.notificationSeq(id))).thenAccept(ok -> {
                if (Boolean.TRUE.equals(ok)) {
                    legacyDeliveredIds.add(id);
                    scheduleMarks();
                }
            });
        }
    }

    /**
     * A recipient's notification is not sent to another incarnation, and once its request is terminal it
     * is retired (§2.9: kept in the journal, never sent; the same rule retires it again after a restart).
     */
    private boolean skipped(Aggregate a, String name, DeliverySession session, long seq) {
        boolean toRecipient = name.equals(a.intent().target()) && !name.equals(a.intent().sender());
        if (!toRecipient) {
            return false;
        }
        if (a.stage().terminal()) {
            if (seq > 0) {
                book.notifications().remove(seq);
            }
            return true;
        }
        return session == null || !session.incarnation().equals(a.intent().targetIncarnation());
    }

    // ---- verbs ----

    /** {@code delivery_request} (§2.5). */
    public void request(Connection connection, String sender, JsonObject frame) {
        request(connection, sender, frame, hubId());
    }

    /**
     * {@code delivery_request} whose requester lives on {@code originHub}: a peer hub's forward (§4.5
     * stores {@code origin_hub = origin}; this hub is the receiving hub), or this hub for a local one.
     */
    public void request(Connection connection, String sender, JsonObject frame, String originHub) {
        RequestValidation.Outcome outcome = RequestValidation.validate(frame, sender, connection.protocolVersion(),
                durable(), ctx.frames().now());
        if (outcome.refusal() != null) {
            refuse(connection, sender, outcome.refusal());
            return;
        }
        DeliveryIntent intent = outcome.intent();
        String origin = originHub;
        String key = DeliveryDigests.operationKey(origin, sender, intent.requestId());
        String digest = DeliveryDigests.requestDigest(intent, origin);
        Aggregate existing = book.byIdempotency(sender, intent.idempotencyKey());
        if (existing != null) {
            retryOrConflict(connection, sender, existing, key, digest, intent.requestId());
            return;
        }
        DeliverySession session = session(intent.target());
        if (session == null) {
            refuse(connection, sender, new Refusal(ReasonCodes.UNAVAILABLE_RECIPIENT, "recipient has no live delivery session", intent.requestId()));
            return;
        }
        if (!session.incarnation().equals(intent.targetIncarnation())) {
            refuse(connection, sender, new Refusal(ReasonCodes.STALE_INCARNATION, "recipient session changed", intent.requestId()));
            return;
        }
        ModeSelection.Selected selected = ModeSelection.select(intent.mode(), intent.allowedFallbacks(), session.capabilities());
        if (selected == null) {
            refuse(connection, sender, new Refusal(ReasonCodes.UNSUPPORTED_MODE, "recipient advertised none of these modes", intent.requestId()));
            return;
        }
        if (ModeSelection.taskControl(selected.mode()) && !TaskControl.granted(ctx, sender, intent.target(), intent.taskId())) {
            refuse(connection, sender, new Refusal(ReasonCodes.UNAUTHORISED_REQUESTER, "task control not granted", intent.requestId()));
            return;
        }
        Aggregate candidate = new Aggregate(key, intent, origin, hubId(), digest, selected.mode(), selected.quality(),
                Stage.QUEUED, false, false, false, 1, 0, admissionOrder.incrementAndGet(), null);
        double offeredAt = ctx.frames().now();
        candidate = candidate.withOffer(DeliveryFrames.offer(candidate, hubId(), offeredAt));
        // Encoded before taking the request's commit lock, so the lock covers only the book check and the enqueue.
        List<JournalEvent.Draft> events = List.of(DeliveryJournal.accepted(candidate), DeliveryJournal.queued(candidate, offeredAt));
        CompletableFuture<long[]> commit;
        synchronized (commitLock(key)) {
            DeliveryBook.Admission admission = book.admit(candidate);
            switch (admission) {
                case RETRY, ID_CONFLICT -> {
                    Aggregate raced = book.byIdempotency(sender, intent.idempotencyKey());
                    if (raced == null) {
                        raced = book.get(key);
                    }
                    retryOrConflict(connection, sender, raced, key, digest, intent.requestId());
                    return;
                }
                case QUEUE_FULL -> {
                    refuse(connection, sender, new Refusal(ReasonCodes.RECIPIENT_QUEUE_FULL, "recipient queue full", intent.requestId()));
                    return;
                }
                default -> {
                }
            }
            commit = ctx.journal().appendPrompt(events, List.of());
            track(key, commit);
        }
        Aggregate admitted = candidate;
        commit.whenComplete((seqs, failure) -> {
            if (failure != null) {
                book.rollback(null, admitted, null);
                journalFailed(connection, sender, failure);
                return;
            }
            book.committed(key, 1, seqs[1], null);
            Aggregate queued = admitted.withSeq(seqs[1]);
            DeliverySession live = session(intent.target());
            boolean reachable = live != null && live.incarnation().equals(intent.targetIncarnation());
            if (reachable) {
                sendOffer(live, queued);
            }
            // The reply shows the admission (§2.5 step 7: stage queued), not the book read afterwards: the
            // recipient may already have answered the offer on another thread (seen in DeliveryBench).
            connection.send(frames.status(sender, queued, reachable));
        });
    }

    private void retryOrConflict(Connection connection, String sender, Aggregate existing, String key, String digest, String requestId) {
        if (existing == null || !existing.operationKey().equals(key) || !existing.digest().equals(digest)) {
            refuse(connection, sender, new Refusal(ReasonCodes.ID_CONFLICT, "request identity reused with different content", requestId));
            return;
        }
        afterCommit(key).thenRun(() -> {
            Aggregate now = book.get(key);
            if (now.stage() == Stage.QUEUED) {
                DeliverySession live = session(now.intent().target());
                if (live != null && live.incarnation().equals(now.intent().targetIncarnation())) {
                    sendOffer(live, now);
                }
            }
            sendStatus(connection, sender, key);
        });
    }

    /**
     * The request a stage report, cancel or status read names, after the common gate; null once the
     * requester has been sent the refusal (gate failure, or {@code unknown_request}).
     */
    private Aggregate existingRequest(Connection connection, String sender, JsonObject frame) {
        Refusal gate = gate(connection, frame);
        if (gate != null) {
            refuse(connection, sender, gate);
            return null;
        }
        Aggregate a = book.get(frame.getString("operation_key"));
        if (a == null) {
            refuse(connection, sender, Refusal.of(ReasonCodes.UNKNOWN_REQUEST, "no such delivery request"));
        }
        return a;
    }

    /** {@code delivery_boundary}, {@code delivery_ack}, {@code delivery_outcome} (§2.12). */
    public void stageReport(Connection connection, String sender, String type, JsonObject frame) {
        Aggregate a = existingRequest(connection, sender, frame);
        if (a == null) {
            return;
        }
        String key = frame.getString("operation_key");
        String echo = a.intent().requestId();
        if (!sender.equals(a.intent().target())) {
            refuse(connection, sender, Refusal.of(ReasonCodes.UNAUTHORISED_REQUESTER, "only the recipient reports stages"));
            return;
        }
        DeliverySession session = session(sender);
        if (session == null || !session.incarnation().equals(a.intent().targetIncarnation())) {
            refuse(connection, sender, new Refusal(ReasonCodes.STALE_INCARNATION, "recipient session changed", echo));
            return;
        }
        if (a.stage().open() && a.intent().deadline() <= ctx.frames().now()) {
            sweep();
            refuse(connection, sender, new Refusal(ReasonCodes.DEADLINE_EXPIRED, "deadline passed", echo));
            return;
        }
        StageReport.Outcome checked = StageReport.check(type, frame, a.intent().requestId(), a.intent().taskId());
        if (checked.refusal() != null) {
            refuse(connection, sender, checked.refusal().echoing(echo));
            return;
        }
        StageReport.Checked report = checked.report();
        String digest = DeliveryDigests.mutationDigest(key, report.mutationId(), report.stage().wire(), report.evidence());
        DeliveryBook.Mutation known = book.mutation(key, report.mutationId());
        if (known != null) {
            if (known.digest().equals(digest)) {
                afterCommit(key).thenRun(() -> sendStatus(connection, sender, key));
            } else {
                refuse(connection, sender, new Refusal(ReasonCodes.ID_CONFLICT, "mutation_id reused with different content", echo));
            }
            return;
        }
        if (!a.stage().allows(report.stage(), Stage.Source.RECIPIENT)) {
            refuse(connection, sender, new Refusal(ReasonCodes.INVALID_TRANSITION, "stage change not allowed", echo));
            return;
        }
        Aggregate next = a.moved(report.stage());
        move(connection, sender, a, next, report.mutationId(), digest, sender, Stage.Source.RECIPIENT, report.evidence(),
                DeliveryJournal.TRANSITION, next.intent().sender(), echo);
    }

    /** {@code delivery_cancel} (§2.14): a request recorded for the recipient, not a terminal decision. */
    public void cancel(Connection connection, String sender, JsonObject frame) {
        Aggregate a = existingRequest(connection, sender, frame);
        if (a == null) {
            return;
        }
        String key = frame.getString("operation_key");
        String echo = a.intent().requestId();
        if (!sender.equals(a.intent().sender())) {
            refuse(connection, sender, Refusal.of(ReasonCodes.UNAUTHORISED_REQUESTER, "only the sender may cancel"));
            return;
        }
        if (!StageReport.validMutationId(frame.get("mutation_id"))) {
            refuse(connection, sender, new Refusal(ReasonCodes.INVALID_SHAPE, "mutation_id must be a printable string of at most 128 bytes", echo));
            return;
        }
        String mutationId = frame.getString("mutation_id");
        String digest = DeliveryDigests.mutationDigest(key, mutationId, "cancel_requested", jakarta.json.JsonValue.EMPTY_JSON_OBJECT);
        DeliveryBook.Mutation known = book.mutation(key, mutationId);
        if (known != null) {
            if (known.digest().equals(digest)) {
                afterCommit(key).thenRun(() -> sendStatus(connection, sender, key));
            } else {
                refuse(connection, sender, new Refusal(ReasonCodes.ID_CONFLICT, "mutation_id reused with different content", echo));
            }
            return;
        }
        if (a.stage().terminal()) {
            refuse(connection, sender, new Refusal(ReasonCodes.INVALID_TRANSITION, "request already finished", echo));
            return;
        }
        if (a.cancelRequested()) {
            afterCommit(key).thenRun(() -> sendStatus(connection, sender, key));
            return;
        }
        move(connection, sender, a, a.withCancelRequest(), mutationId, digest, sender, Stage.Source.SENDER,
                jakarta.json.JsonValue.EMPTY_JSON_OBJECT, DeliveryJournal.CANCEL_REQUESTED, a.intent().target(), echo);
    }

    /** The target seat of the request {@code operationKey} names, or null (a forwarded follow-up's namespace check, §4.5). */
    public String targetOf(String operationKey) {
        Aggregate a = operationKey == null ? null : book.get(operationKey);
        return a == null ? null : a.intent().target();
    }

    /** {@code delivery_status_request} (§2.13). */
    public void statusRequest(Connection connection, String sender, JsonObject frame) {
        Aggregate a = existingRequest(connection, sender, frame);
        if (a == null) {
            return;
        }
        String key = frame.getString("operation_key");
        if (!sender.equals(a.intent().sender()) && !sender.equals(a.intent().target())) {
            refuse(connection, sender, Refusal.of(ReasonCodes.UNAUTHORISED_REQUESTER, "not a participant of this request"));
            return;
        }
        CompletableFuture<Void> swept = a.stage().open() && a.intent().deadline() <= ctx.frames().now() ? sweep() : DONE;
        swept.thenCompose(ignored -> afterCommit(key)).thenRun(() -> sendStatus(connection, sender, key));
    }

    /** A v3 verb on a connection below v3, or a frame with the wrong contract version: refused before anything else. */
    private Refusal gate(Connection connection, JsonObject frame) {
        if (connection.protocolVersion() < RequestValidation.CONTRACT_VERSION
                || !RequestValidation.isContractVersion(frame.get("protocol_version"))) {
            return Refusal.of(ReasonCodes.UNSUPPORTED_PROTOCOL, "delivery needs protocol version 3");
        }
        if (!durable()) {
            return Refusal.of(ReasonCodes.UNSUPPORTED_PROFILE, "this hub has no durable delivery journal");
        }
        if (!BoundedText.hex64(frame.get("operation_key"))) {
            return Refusal.of(ReasonCodes.INVALID_SHAPE, "operation_key must be 64 lowercase hex characters");
        }
        return null;
    }

    /** Refuses a delivery verb from a connection whose negotiated version is below 3 (§1.1). */
    public void refuseOldProtocol(Connection connection, String sender, JsonObject frame) {
        refuse(connection, sender, new Refusal(ReasonCodes.UNSUPPORTED_PROTOCOL, "delivery needs protocol version 3",
                RequestValidation.echoableRequestId(frame)));
    }

    // ---- expiry (§2.15) ----

    /** Advances every open request whose deadline passed to {@code expired}; completes once those commits did. */
    public CompletableFuture<Void> sweep() {
        if (!durable()) {
            return DONE;
        }
        sweeps.increment();
        List<CompletableFuture<?>> commits = new ArrayList<>();
        double now = ctx.frames().now();
        book.forgetClosed(now);
        while (true) {
            List<Aggregate> due = book.expired(now, PAGE);
            if (due.isEmpty()) {
                break;
            }
            int moved = 0;
            for (Aggregate a : due) {
                CompletableFuture<?> commit = hubMove(a, Stage.EXPIRED, "hub-deadline-expired", "deadline_elapsed");
                if (commit != null) {
                    commits.add(commit);
                    moved++;
                }
            }
            if (moved == 0) {
                break;
            }
        }
        return CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new)).handle((ok, failure) -> null);
    }

    /** A hub-caused change (expiry or supersede) with a fixed mutation id; null when it lost a race. */
    private CompletableFuture<?> hubMove(Aggregate a, Stage stage, String mutationId, String reasonCode) {
        JsonObject evidence = Jsons.PROVIDER.createObjectBuilder().add("reason_code", reasonCode).build();
        String digest = DeliveryDigests.mutationDigest(a.operationKey(), mutationId, stage.wire(), evidence);
        return move(null, null, a, a.moved(stage), mutationId, digest, hubId(), Stage.Source.HUB, evidence,
                DeliveryJournal.TRANSITION, a.intent().sender(), a.intent().requestId());
    }

    /**
     * Applies {@code before → after} with its event and the audience's notification in one append;
     * after commit, replies to the actor (if any) and pushes the notification. Null when not applied.
     */
    private CompletableFuture<?> move(Connection connection, String actorName, Aggregate before, Aggregate after,
                                      String mutationId, String digest, String actor, Stage.Source source,
                                      JsonObject evidence, String kind, String audience, String echo) {
        double at = ctx.frames().now();
        String notification = frames.notification(after, audience, source, at);
        List<JournalEvent.Draft> events = List.of(
                DeliveryJournal.change(kind, before, after, mutationId, digest, actor, source, evidence, audience, at));
        CompletableFuture<long[]> commit;
        synchronized (commitLock(after.operationKey())) {
            DeliveryBook.Applied applied = book.apply(before.ordinal(), after, mutationId, digest);
            if (applied != DeliveryBook.Applied.APPLIED) {
                if (connection != null) {
                    switch (applied) {
                        case REPLAY -> afterCommit(after.operationKey()).thenRun(() -> sendStatus(connection, actorName, after.operationKey()));
                        case ID_CONFLICT -> refuse(connection, actorName, new Refusal(ReasonCodes.ID_CONFLICT, "mutation_id reused with different content", echo));
                        default -> refuse(connection, actorName, new Refusal(ReasonCodes.STATE_CONFLICT, "request changed concurrently", echo));
                    }
                }
                return null;
            }
            commit = ctx.journal().appendPrompt(events, List.of());
            track(after.operationKey(), commit);
        }
        return commit.whenComplete((seqs, failure) -> {
            if (failure != null) {
                book.rollback(before, after, mutationId);
                if (connection != null) {
                    journalFailed(connection, actorName, failure);
                }
                return;
            }
            book.committed(after.operationKey(), after.ordinal(), seqs[0], mutationId);
            store(new PendingNotifications.Entry(seqs[0], audience, after.operationKey(), after.ordinal(),
                    after.stage(), after.cancelRequested(), source, at));
            if (connection != null) {
                sendStatus(connection, actorName, after.operationKey());
            }
            pushNotification(audience, after, seqs[0], notification);
        });
    }

    /**
     * Keeps a committed notification until a socket of its audience takes it, within the configured
     * bounds: an audience that never comes back must not hold memory for ever. A dropped notification is
     * marked like a delivered one, so it stays dropped after a restart; its request's state is still
     * readable with {@code delivery_status_request}.
     */
    private void store(PendingNotifications.Entry entry) {
        List<PendingNotifications.Entry> dropped = book.notifications().addBounded(entry,
                ctx.settings().deliveryNotificationsMaxPerAudience(), ctx.settings().deliveryNotificationsMax());
        if (!dropped.isEmpty()) {
            notificationsDropped.add(dropped.size());
            LOG.fine(() -> "delivery: " + dropped.size() + " undelivered notifications dropped (bound reached)");
            dropped.forEach(d -> deliveredSeqs.add(d.seq()));
            scheduleMarks();
        }
    }

    private void pushNotification(String audience, Aggregate after, long seq, String notification) {
        Connection socket = ctx.registry().socketOf(audience);
        if (socket == null) {
            return;
        }
        if (audience.equals(after.intent().target()) && !audience.equals(after.intent().sender())) {
            DeliverySession session = session(audience);
            if (session == null || !session.incarnation().equals(after.intent().targetIncarnation())) {
                return;
            }
        }
        sendNotification(socket, seq, notification);
    }

    /** Sends a stored notification; once the socket accepted it, its seq joins the next delivered mark. */
    private void sendNotification(Connection socket, long seq, String stored) {
        socket.send(DeliveryFrames.withSeq(stored, seq)).thenAccept(ok -> {
            if (Boolean.TRUE.equals(ok) && book.notifications().remove(seq)) {
                deliveredSeqs.add(seq);
                scheduleMarks();
            }
        });
    }

    /**
     * Offers are not marked: registration re-sends every queued offer of the incarnation anyway (§2.17
     * step 2). Only an earlier version's offer row is marked, so it stops counting as pending.
     */
    private void sendOffer(DeliverySession session, Aggregate a) {
        CompletableFuture<Boolean> sent = session.connection().send(a.offer());
        if (book.legacyOutbox()) {
            sent.thenAccept(ok -> {
                if (Boolean.TRUE.equals(ok)) {
                    legacyDeliveredIds.add(Aggregate.notificationId(a.operationKey(), 1));
                    scheduleMarks();
                }
            });
        }
    }

    // ---- replies ----

    private void sendStatus(Connection connection, String viewer, String key) {
        Aggregate a = book.get(key);
        if (a == null) {
            // forgotten meanwhile (hub.delivery-terminal-*): as for any request the book no longer holds
            refuse(connection, viewer, Refusal.of(ReasonCodes.UNKNOWN_REQUEST, "no such request"));
            return;
        }
        DeliverySession live = session(a.intent().target());
        boolean reachable = live != null && live.incarnation().equals(a.intent().targetIncarnation());
        connection.send(frames.status(viewer, a, reachable));
    }

    private void refuse(Connection connection, String target, Refusal refusal) {
        count(refusal.reasonCode());
        connection.send(frames.refused(target, refusal));
    }

    private void journalFailed(Connection connection, String target, Throwable failure) {
        LOG.log(Level.WARNING, "delivery: journal append failed; change not applied: " + failure.getClass().getSimpleName());
        connection.send(ctx.frames().errorText(target, "Delivery change could not be made durable; retry later."));
    }

    private static Object[] newCommitLocks() {
        Object[] locks = new Object[COMMIT_LOCK_STRIPES];
        java.util.Arrays.setAll(locks, i -> new Object());
        return locks;
    }

    private Object commitLock(String operationKey) {
        return commitLocks[operationKey.hashCode() & (COMMIT_LOCK_STRIPES - 1)];
    }

    private void track(String key, CompletableFuture<long[]> commit) {
        pendingCommits.put(key, commit);
        commit.whenComplete((seqs, failure) -> pendingCommits.remove(key, commit));
    }

    /** Completes once the last change made to {@code key} so far has committed (or failed). */
    private CompletableFuture<Void> afterCommit(String key) {
        CompletableFuture<?> pending = pendingCommits.get(key);
        return pending == null ? DONE : pending.handle((ok, failure) -> null);
    }

    private void scheduleMarks() {
        if (markScheduled.compareAndSet(false, true)) {
            try {
                // Waiting MARK_DELAY_MS gathers every send of that window into one journal event, appended
                // with whatever else the next group commit holds. A crash inside the window only means a
                // re-send after restart (delivery is at least once, §2.17).
                markDelay.execute(this::flushDelivered);
            } catch (RuntimeException rejected) {
                markScheduled.set(false);
            }
        }
    }

    /** Records the accepted notifications: one append per {@link #MARKS_PER_EVENT}, earlier versions' rows by UPDATE. */
    private void flushDelivered() {
        markScheduled.set(false);
        List<Long> seqs = new ArrayList<>();
        Long seq;
        while ((seq = deliveredSeqs.poll()) != null) {
            seqs.add(seq);
            if (seqs.size() >= MARKS_PER_EVENT) {
                appendMarks(seqs);
                seqs = new ArrayList<>();
            }
        }
        appendMarks(seqs);
        List<String> ids = new ArrayList<>();
        String id;
        while ((id = legacyDeliveredIds.poll()) != null) {
            ids.add(id);
        }
        if (!ids.isEmpty()) {
            try {
                ctx.journal().markDelivered(ids);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "delivery: " + ids.size() + " stored notifications not marked delivered (they may be re-sent)", e);
            }
        }
    }

    private void appendMarks(List<Long> seqs) {
        if (seqs.isEmpty()) {
            return;
        }
        ctx.journal().append(List.of(DeliveryJournal.delivered(seqs)), List.of()).whenComplete((ok, failure) -> {
            if (failure != null) {
                LOG.warning(() -> "delivery: " + seqs.size() + " notifications not marked delivered (they may be re-sent after a restart): "
                        + failure.getClass().getSimpleName());
            }
        });
    }

    private void count(String reasonCode) {
        refusals.computeIfAbsent(reasonCode, code -> new LongAdder()).increment();
    }

    // ---- metrics ----

    /** Open requests per stage. */
    public Map<Stage, Integer> openByStage() {
        return book.openByStage();
    }

    /** Offers pending: requests still queued. */
    public int offersPending() {
        return book.openByStage().getOrDefault(Stage.QUEUED, 0);
    }

    /** Sweeps run since start. */
    public long sweeps() {
        return sweeps.sum();
    }

    /** Terminal requests held in memory. */
    public int terminalHeld() {
        return book.terminalHeld();
    }

    /** Terminal requests held packed in the book's terminal archive (the rest of them are still objects). */
    public int terminalArchived() {
        return book.terminalArchived();
    }

    /** Bytes of direct memory, outside the heap, the terminal archive's records take. */
    public long terminalArchiveBytes() {
        return book.terminalArchiveBytes();
    }

    /** Terminal requests forgotten from memory since start ({@code hub.delivery-terminal-*}). */
    public long terminalForgotten() {
        return book.forgotten();
    }

    /** Refusals by reason code since start. */
    public Map<String, Long> refusals() {
        Map<String, Long> out = new java.util.TreeMap<>();
        refusals.forEach((code, n) -> out.put(code, n.sum()));
        return out;
    }

    /** Stored notifications no socket of their audience has accepted yet. */
    public int notificationsPending() {
        return book.notifications().size();
    }

    /** Undelivered notifications dropped since start because their audience or the hub reached its bound. */
    public long notificationsDropped() {
        return notificationsDropped.sum();
    }

    /** Requests whose journal rows could not be decoded at start-up. */
    public int quarantined() {
        return quarantined;
    }

    // ---- operator views (JMX, console): read-only ----

    /** Up to {@code limit} open requests (queued, boundary_delivered, acknowledged), oldest admitted first. */
    public List<DeliveryQueueView.Request> openRequests(int limit) {
        return book.oldestOpen(limit).stream().map(DeliveryQueueView.Request::of).toList();
    }

    /** One request of this hub by {@code operation_key}, whatever its stage; null when unknown. */
    public DeliveryQueueView.Request request(String operationKey) {
        Aggregate a = operationKey == null ? null : book.get(operationKey);
        return a == null ? null : DeliveryQueueView.Request.of(a);
    }

    /** The {@code limit} audiences with the most undelivered notifications, most first. */
    public List<DeliveryQueueView.AudienceBacklog> notificationBacklog(int limit) {
        return book.notifications().largestAudiences(limit);
    }

    /** The book (tests). */
    DeliveryBook book() {
        return book;
    }

    /** True when {@code operationKey} names a request of this hub (cross-hub forwarding refuses a peer's key that does, §4.7). */
    public boolean holds(String operationKey) {
        return book.get(operationKey) != null;
    }

    /**
     * The replayed state as a snapshot part (issue 20): the whole request book (requests, mutation ledger,
     * open counts, undelivered notifications) as rows, and the count of quarantined rows.
     */
    public org.switchboard.journal.snapshot.SnapshotPart snapshotPart() {
        return org.switchboard.journal.snapshot.SnapshotPart.of("delivery",
                () -> org.switchboard.journal.snapshot.SnapshotWriter.write(out -> {
                    out.writeStartObject().write("quarantined", quarantined).writeKey("book");
                    book.writeSnapshot(out);
                    out.writeEnd();
                }), text -> org.switchboard.journal.snapshot.SnapshotReader.read("delivery", text, in -> {
                    in.startObject();
                    in.key("quarantined");
                    int count = in.intValue();
                    in.key("book");
                    book.readSnapshot(in);
                    if (in.more()) {
                        throw new IllegalArgumentException("unknown field after book");
                    }
                    quarantined = count;
                    return null;
                }));
    }
}
