package org.switchboard.synapse.claims;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.snapshot.SnapshotText;
import org.switchboard.synapse.board.ProgressNote;
import org.switchboard.synapse.idempotency.CommitFailedException;
import org.switchboard.synapse.idempotency.HubReply;
import org.switchboard.synapse.idempotency.Mutation;
import org.switchboard.synapse.idempotency.MutationCommit;

/**
 * The hub's claims and leases (synapse-core §9, synapse-advanced §8–10): claim decisions with
 * scope conflicts and quotas, renewal, release with receipts, {@code task_update},
 * {@code handoff}, {@code checkpoint}, {@code wait_request} with cycle refusal, lazy and swept
 * expiry, and replay from journal events.
 *
 * <p><b>Threading contract.</b> Every method is safe to call from any thread. Mutations take one
 * write lock for the whole decide–journal–apply step: the decision is computed on current state,
 * the caller's {@link MutationCommit} makes its events durable while the lock is held, and only
 * then is state changed. So two overlapping claims can never both be granted, a failed append
 * leaves state untouched, and the journal order equals the apply order. Readers take the read
 * lock and see only committed state. The lock is per book (claims are rare and need one
 * consistent conflict check; the architecture allows serialising them); the commit callback runs
 * under it, so it must not call back into this book. Lock order: book, then the board's note sink.
 *
 * <p>Time is always passed in ({@code now}, epoch seconds) so rules are deterministic in tests.
 */
public final class ClaimBook {

    /** Task id required. */
    public static final String TASK_ID_REQUIRED = "TASK_ID_REQUIRED";
    /** Malformed {@code path_identity}. */
    public static final String PATH_IDENTITY_INVALID = "PATH_IDENTITY_INVALID";
    /** Another owner holds a live lease on the task. */
    public static final String LEASE_LIVE = "LEASE_LIVE";
    /** The scope overlaps another owner's live claim. */
    public static final String SCOPE_CONFLICT = "SCOPE_CONFLICT";
    /** The quota principal already holds the maximum of live claims. */
    public static final String QUOTA_EXCEEDED = "QUOTA_EXCEEDED";
    /** Any other refusal. */
    public static final String CLAIM_DENIED = "CLAIM_DENIED";
    /** Every {@code reason_code} a denial can carry. */
    public static final List<String> REASON_CODES = List.of(TASK_ID_REQUIRED, PATH_IDENTITY_INVALID, LEASE_LIVE,
            SCOPE_CONFLICT, QUOTA_EXCEEDED, CLAIM_DENIED);
    /** Refusal sentence of an empty task id. */
    public static final String TASK_ID_REQUIRED_SENTENCE = "Task ID is required.";

    /**
     * Operator limits.
     *
     * @param claimsPerPrincipal live claims per quota principal (128)
     * @param maxPaths           declared paths before widening (512)
     * @param handoffTtl         the default lease (3600 s): a claim without a usable {@code ttl_seconds}
     *                           and a handoff recipient get it
     * @param minTtl             shortest lease a claim may ask for (30 s)
     * @param maxTtl             longest lease a claim may ask for (30 days)
     */
    public record Limits(int claimsPerPrincipal, int maxPaths, double handoffTtl, double minTtl, double maxTtl) {
        /** Validates the bounds. */
        public Limits {
            if (claimsPerPrincipal < 1 || maxPaths < 1 || !(minTtl > 0) || !(maxTtl >= minTtl)
                    || !(handoffTtl >= minTtl) || !(handoffTtl <= maxTtl)) {
                throw new IllegalArgumentException("invalid claim limits: quota " + claimsPerPrincipal + ", paths "
                        + maxPaths + ", leases " + minTtl + " <= " + handoffTtl + " <= " + maxTtl);
            }
        }

        /** Limits with the spec's lease bounds (30 s to 30 days, default 3600 s). */
        public Limits(int claimsPerPrincipal, int maxPaths, double handoffTtl) {
            this(claimsPerPrincipal, maxPaths, handoffTtl, ClaimRequest.MIN_TTL, ClaimRequest.MAX_TTL);
        }

        /** The spec defaults. */
        public static Limits defaults() {
            return new Limits(128, ScopePaths.DEFAULT_MAX_PATHS, ClaimRequest.DEFAULT_TTL);
        }
    }

    private record Expiry(double at, String taskId, long epoch) {
    }

    private final Limits limits;
    private final Consumer<ProgressNote> noteSink;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, TaskClaim> claims = new HashMap<>();
    private final Map<String, String> retainedCheckpoints = new HashMap<>();
    private final Map<String, Integer> liveByPrincipal = new HashMap<>();
    private final Map<String, Set<String>> waits = new HashMap<>();
    private final ScopeIndex index = new ScopeIndex();
    private final TreeSet<Expiry> expiries = new TreeSet<>(Comparator.comparingDouble(Expiry::at)
            .thenComparing(Expiry::taskId).thenComparingLong(Expiry::epoch));
    private long lastEpoch;

    /**
     * @param limits   operator limits
     * @param noteSink receives progress notes committed with a release or handoff (the board's
     *                 {@code acceptCommitted}); called under this book's lock
     */
    public ClaimBook(Limits limits, Consumer<ProgressNote> noteSink) {
        this.limits = limits;
        this.noteSink = noteSink == null ? n -> { } : noteSink;
    }

    /** A book with default limits and no board. */
    public ClaimBook() {
        this(Limits.defaults(), null);
    }

    // ------------------------------------------------------------------ claim

    /** Parses a claim frame with this book's declared-path cap. */
    public ClaimRequest request(JsonObject frame) {
        return ClaimRequest.from(frame, limits.maxPaths(), limits.handoffTtl(), limits.minTtl(), limits.maxTtl());
    }

    /**
     * Decides a claim (§9.2 steps 1–8) and, through {@code commit}, journals the {@code claim}
     * snapshot or the {@code claim_denial} evidence before anything is published.
     *
     * @param request        the parsed frame
     * @param sender         bound name of the claimant
     * @param quotaPrincipal credential digest ({@code open-host:<host>} on open hubs)
     * @param now            hub clock, epoch seconds
     * @param commit         journal append (synchronous)
     * @throws CommitFailedException if the append failed (state unchanged, nothing to send)
     */
    public ClaimDecision claim(ClaimRequest request, String sender, String quotaPrincipal, double now,
                               MutationCommit commit) {
        lock.writeLock().lock();
        try {
            if (request.taskId().isEmpty()) {
                return deny(request, sender, TASK_ID_REQUIRED, TASK_ID_REQUIRED_SENTENCE, commit);
            }
            PathIdentity.Validation identity = PathIdentity.validate(request.pathIdentity(), request.paths());
            if (!identity.valid()) {
                return deny(request, sender, PATH_IDENTITY_INVALID,
                        "Task '" + request.taskId() + "' path identity is invalid.", commit);
            }
            expireLocked(now);
            String taskId = request.taskId();
            TaskClaim existing = claims.get(taskId);
            if (existing != null && !existing.owner().equals(sender)) {
                return deny(request, sender, LEASE_LIVE,
                        "Task '" + taskId + "' is already claimed by " + existing.owner() + ".", commit);
            }
            ClaimScope scope = new ClaimScope(request.worktree(), request.paths(), identity.identity());
            TaskClaim other = firstConflict(scope, taskId, Set.of(sender));
            if (other != null) {
                return deny(request, sender, SCOPE_CONFLICT, "Task '" + taskId + "' file scope conflicts with '"
                        + other.taskId() + "' held by " + other.owner() + ".", commit);
            }
            boolean chargedAlready = existing != null && existing.quotaPrincipal().equals(quotaPrincipal);
            if (!chargedAlready && liveByPrincipal.getOrDefault(quotaPrincipal, 0) >= limits.claimsPerPrincipal()) {
                return deny(request, sender, QUOTA_EXCEEDED, "Task '" + taskId + "' denied: claim quota of "
                        + limits.claimsPerPrincipal() + " live claims reached.", commit);
            }
            String checkpoint = existing != null ? existing.checkpoint() : retainedCheckpoints.getOrDefault(taskId, "");
            TaskClaim granted = new TaskClaim(taskId, sender, request.note(), now, now + request.ttlSeconds(),
                    ClaimStatus.CLAIMED, "", scope, lastEpoch + 1, 0, checkpoint, request.git(), quotaPrincipal);
            Mutation mutation = new Mutation(
                    List.of(new JournalEvent.Draft("claim", granted.snapshot())),
                    List.of(HubReply.toAll("claim_granted", "Task '" + taskId + "' claimed by " + sender + ".",
                            granted.grantFields())));
            commitOrThrow(commit, mutation);
            put(granted);
            retainedCheckpoints.remove(taskId);
            dropWait(sender, taskId);
            return new ClaimDecision.Granted(granted, existing != null, mutation);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * A claim refused for a reason outside §9.2 (e.g. a gate in front of the book): reason
     * {@code CLAIM_DENIED}, with the same durable evidence as every other denial.
     */
    public ClaimDecision.Denied denyOther(ClaimRequest request, String sender, String sentence, MutationCommit commit) {
        lock.writeLock().lock();
        try {
            return deny(request, sender, CLAIM_DENIED, sentence, commit);
        } finally {
            lock.writeLock().unlock();
        }
    }

    private ClaimDecision.Denied deny(ClaimRequest request, String sender, String reasonCode, String sentence,
                                      MutationCommit commit) {
        JsonObject evidence = ClaimDenialEvidence.of(sender, request.rawTaskId(), request.worktree(), request.paths(),
                reasonCode);
        Mutation mutation = Mutation.refusal(
                List.of(new JournalEvent.Draft(ClaimDenialEvidence.EVENT_KIND, evidence)),
                List.of(HubReply.toRequester("claim_denied", sentence, PROVIDER.createObjectBuilder()
                        .add("task_id", request.taskId()).add("reason_code", reasonCode).build())));
        commitOrThrow(commit, mutation);
        return new ClaimDecision.Denied(request.taskId(), reasonCode, sentence, evidence, mutation);
    }

    /** The live claim of another owner (not in {@code exempt}, not {@code taskId}) that conflicts; lowest task id wins. */
    private TaskClaim firstConflict(ClaimScope scope, String taskId, Set<String> exempt) {
        TaskClaim found = null;
        for (String candidateId : index.candidates(scope)) {
            if (candidateId.equals(taskId)) {
                continue;
            }
            TaskClaim c = claims.get(candidateId);
            if (c == null || exempt.contains(c.owner()) || !scope.conflictsWith(c.scope())) {
                continue;
            }
            if (found == null || c.taskId().compareTo(found.taskId()) < 0) {
                found = c;
            }
        }
        return found;
    }

    // ------------------------------------------------------------------ owner and epoch precondition

    private static final String NOT_CLAIMED = "is not currently claimed.";

    /**
     * The precondition release, task_update, handoff and checkpoint share (§9.7-§9.10), in this order:
     * a task id, the verb's own {@code beforeClaim} check, the task is claimed ({@code notClaimed} ends
     * the sentence otherwise), the sender owns it, the verb's own {@code beforeEpoch} check, the epoch
     * guard. Null when it holds, else the refusal sentence; a null hook is no check.
     */
    private static String ownerPrecondition(String taskId, TaskClaim claim, String sender, EpochGuard epoch,
                                            String notClaimed, Supplier<String> beforeClaim, Supplier<String> beforeEpoch) {
        if (taskId.isEmpty()) {
            return TASK_ID_REQUIRED_SENTENCE;
        }
        String own = beforeClaim == null ? null : beforeClaim.get();
        if (own != null) {
            return own;
        }
        if (claim == null) {
            return "Task '" + taskId + "' " + notClaimed;
        }
        if (!claim.owner().equals(sender)) {
            return ownedBy(claim, sender);
        }
        own = beforeEpoch == null ? null : beforeEpoch.get();
        if (own != null) {
            return own;
        }
        return epoch.matches(claim.epoch()) ? null : staleEpoch(claim);
    }

    // ------------------------------------------------------------------ release

    /**
     * Releases a lease (§9.7): checks, receipt, keyed verdict fields, optional {@code assessment}
     * note; journals {@code release} (+ {@code ledger_progress}) then applies.
     */
    public ClaimVerdict release(ReleaseRequest request, String sender, double now, MutationCommit commit) {
        lock.writeLock().lock();
        try {
            expireLocked(now);
            String taskId = request.taskId();
            TaskClaim claim = claims.get(taskId);
            String refusal = ownerPrecondition(taskId, claim, sender, request.epoch(), NOT_CLAIMED, null, null);
            if (refusal != null) {
                JsonObjectBuilder f = PROVIDER.createObjectBuilder().add("task_id", taskId);
                keyedFields(request, f);
                return refused(taskId, refusal, HubReply.toRequester("release_denied", refusal, f.build()));
            }
            JsonObjectBuilder f = PROVIDER.createObjectBuilder().add("task_id", taskId).add("owner", sender);
            keyedFields(request, f);
            f.add("receipt", request.receipt().toJson(taskId, sender));
            String sentence = "Task '" + taskId + "' released by " + sender + ".";
            List<JournalEvent.Draft> events = new ArrayList<>();
            List<HubReply> replies = new ArrayList<>();
            events.add(new JournalEvent.Draft("release", PROVIDER.createObjectBuilder().add("task_id", taskId).build()));
            replies.add(HubReply.toAll("release_granted", sentence, f.build()));
            ProgressNote note = null;
            if (request.receipt().warrantsNote()) {
                note = new ProgressNote(taskId, sender, "assessment", request.receipt().noteText(), now);
                events.add(new JournalEvent.Draft("ledger_progress", note.projection()));
                replies.add(HubReply.toAll("ledger_progress_posted", "Release receipt from " + sender,
                        PROVIDER.createObjectBuilder().add("note", note.projection()).build()));
            }
            Mutation mutation = new Mutation(events, replies);
            commitOrThrow(commit, mutation);
            removeClaim(taskId);
            retainedCheckpoints.remove(taskId);
            if (note != null) {
                noteSink.accept(note);
            }
            return new ClaimVerdict(true, taskId, sentence, null, note, mutation);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Releases a live lease on the hub operator's order, whoever holds it: journals {@code release}
     * (so replay frees it too) followed by {@code audit} in one batch, then frees the task and
     * broadcasts {@code release_granted} with {@code released_by_operator}. Returns the released claim,
     * or null (nothing journalled) when the task has no live lease.
     */
    public TaskClaim operatorRelease(String taskId, JournalEvent.Draft audit, double now, MutationCommit commit) {
        lock.writeLock().lock();
        try {
            expireLocked(now);
            TaskClaim claim = taskId == null ? null : claims.get(taskId);
            if (claim == null || !claim.liveAt(now)) {
                return null;
            }
            String sentence = "Task '" + taskId + "' released by the hub operator (was owned by " + claim.owner() + ").";
            JsonObject fields = PROVIDER.createObjectBuilder().add("task_id", taskId).add("owner", claim.owner())
                    .add("epoch", claim.epoch()).add("released_by_operator", true).build();
            Mutation mutation = new Mutation(List.of(new JournalEvent.Draft("release",
                    PROVIDER.createObjectBuilder().add("task_id", taskId).build()), audit),
                    List.of(HubReply.toAll("release_granted", sentence, fields)));
            commitOrThrow(commit, mutation);
            removeClaim(taskId);
            retainedCheckpoints.remove(taskId);
            return claim;
        } finally {
            lock.writeLock().unlock();
        }
    }

    private static void keyedFields(ReleaseRequest request, JsonObjectBuilder f) {
        if (request.keyed()) {
            f.add("release_operation_id", request.idemKey()).add("request_digest", request.requestDigest());
        }
    }

    // ------------------------------------------------------------------ task_update

    /**
     * Updates status/note/data_ref of an owned lease (§9.8). Refusals are private {@code error}
     * frames; success broadcasts {@code task_updated} and journals the full snapshot.
     */
    public ClaimVerdict taskUpdate(TaskUpdateRequest request, String sender, double now, MutationCommit commit) {
        lock.writeLock().lock();
        try {
            expireLocked(now);
            String taskId = request.taskId();
            TaskClaim claim = claims.get(taskId);
            String status = request.status();
            Long expected = request.expectedVersion();
            String refusal = ownerPrecondition(taskId, claim, sender, request.epoch(), "not found.",
                    () -> request.expectedVersionMalformed() ? "Malformed frame: 'expected_version' must be an integer." : null,
                    null);
            if (refusal != null) {
                // the shared precondition refused
            } else if (expected != null && expected != claim.version()) {
                refusal = "Task '" + taskId + "' version conflict (current " + claim.version() + ").";
            } else if (!status.isEmpty() && !ClaimStatus.known(status)) {
                refusal = "Unknown task status '" + status + "'.";
            } else if (!status.isEmpty() && !ClaimStatus.transitionAllowed(claim.status(), status)) {
                refusal = "Task '" + taskId + "' cannot move from '" + claim.status() + "' to '" + status + "'.";
            }
            if (refusal != null) {
                return refused(taskId, refusal, HubReply.toRequester("error", refusal, JsonValue.EMPTY_JSON_OBJECT));
            }
            String note = request.note();
            String dataRef = request.dataRef();
            TaskClaim updated = claim.withStatus(status.isEmpty() ? claim.status() : status,
                    note == null ? claim.note() : note.strip(), dataRef == null ? claim.dataRef() : dataRef);
            String sentence = "Task '" + taskId + "' updated by " + sender + ".";
            Mutation mutation = new Mutation(
                    List.of(new JournalEvent.Draft("task_update", updated.snapshot())),
                    List.of(HubReply.toAll("task_updated", sentence, PROVIDER.createObjectBuilder()
                            .add("task_id", taskId).add("owner", sender).add("status", updated.status())
                            .add("data_ref", updated.dataRef()).add("version", updated.version()).build())));
            commitOrThrow(commit, mutation);
            put(updated);
            return new ClaimVerdict(true, taskId, sentence, updated, null, mutation);
        } finally {
            lock.writeLock().unlock();
        }
    }

    // ------------------------------------------------------------------ handoff

    /**
     * Moves an owned lease to an online recipient atomically (§9.9): fresh epoch and default
     * lease, same status/data_ref/scope/identity/checkpoint/git, quota still charged to the
     * giver's principal. Replies: {@code handoff_granted} first (the keyed response), then
     * {@code ledger_progress_posted}.
     *
     * @param online             whether a name is currently bound
     * @param recipientPrincipal the recipient's quota principal (checked against the cap)
     */
    public ClaimVerdict handoff(HandoffRequest request, String sender, Predicate<String> online, String recipientPrincipal,
                                double now, MutationCommit commit) {
        lock.writeLock().lock();
        try {
            expireLocked(now);
            String taskId = request.taskId();
            String to = request.to();
            TaskClaim claim = claims.get(taskId);
            String refusal;
            // §9.9 checks the target's presence first; a missing target (no to_agent, no target) is
            // simply not online, so it gets the spec's sentence with an empty name.
            if (to.isEmpty() || !online.test(to)) {
                refusal = "Handoff target '" + to + "' is not online.";
            } else if ((refusal = ownerPrecondition(taskId, claim, sender, request.epoch(), NOT_CLAIMED, null,
                    () -> to.equals(sender) ? "Task '" + taskId + "' cannot be handed off to its own owner." : null)) != null) {
                // the shared precondition refused
            } else if (liveByPrincipal.getOrDefault(recipientPrincipal, 0) >= limits.claimsPerPrincipal()) {
                refusal = "Handoff target '" + to + "' has reached the claim quota of "
                        + limits.claimsPerPrincipal() + " live claims.";
            } else {
                TaskClaim other = firstConflict(claim.scope(), taskId, Set.of(to));
                if (other != null) {
                    refusal = "Task '" + taskId + "' file scope conflicts with '" + other.taskId() + "' held by "
                            + other.owner() + ".";
                }
            }
            if (refusal != null) {
                return refused(taskId, refusal, HubReply.toRequester("handoff_denied", refusal,
                        PROVIDER.createObjectBuilder().add("task_id", taskId).build()));
            }
            String note = request.note();
            TaskClaim moved = new TaskClaim(taskId, to, note.isEmpty() ? claim.note() : note, now,
                    now + limits.handoffTtl(), claim.status(), claim.dataRef(), claim.scope(), lastEpoch + 1, 0,
                    claim.checkpoint(), claim.git(), claim.quotaPrincipal());
            ProgressNote progress = new ProgressNote(taskId, sender, "note",
                    "handed off to " + to + (note.isEmpty() ? "" : ": " + note), now);
            JsonObjectBuilder f = PROVIDER.createObjectBuilder()
                    .add("task_id", taskId).add("owner", to).add("previous_owner", sender)
                    .add("note", moved.note()).add("status", moved.status()).add("worktree", moved.scope().worktree())
                    .add("paths", moved.projection().get("paths")).add("epoch", moved.epoch())
                    .add("version", moved.version()).add("lease_expires_at", moved.leaseExpiresAt())
                    .add("checkpoint", moved.checkpoint());
            if (moved.scope().pathIdentity() != null) {
                f.add("path_identity", moved.scope().pathIdentity().raw());
            }
            String sentence = "Task '" + taskId + "' handed from " + sender + " to " + to + ".";
            Mutation mutation = new Mutation(
                    List.of(new JournalEvent.Draft("handoff", moved.snapshot()),
                            new JournalEvent.Draft("ledger_progress", progress.projection())),
                    List.of(HubReply.toAll("handoff_granted", sentence, f.build()),
                            HubReply.toAll("ledger_progress_posted", "Progress from " + sender,
                                    PROVIDER.createObjectBuilder().add("note", progress.projection()).build())));
            commitOrThrow(commit, mutation);
            put(moved);
            dropWait(to, taskId);
            noteSink.accept(progress);
            return new ClaimVerdict(true, taskId, sentence, moved, progress, mutation);
        } finally {
            lock.writeLock().unlock();
        }
    }

    // ------------------------------------------------------------------ checkpoint

    /** Stores an opaque resume token on an owned lease (§9.10); private {@code checkpoint_saved}. */
    public ClaimVerdict checkpoint(CheckpointRequest request, String sender, double now, MutationCommit commit) {
        lock.writeLock().lock();
        try {
            expireLocked(now);
            String taskId = request.taskId();
            String token = request.token();
            TaskClaim claim = claims.get(taskId);
            String refusal = ownerPrecondition(taskId, claim, sender, request.epoch(), NOT_CLAIMED, null, null);
            if (refusal != null) {
                return refused(taskId, refusal, HubReply.toRequester("checkpoint_denied", refusal,
                        PROVIDER.createObjectBuilder().add("task_id", taskId).build()));
            }
            TaskClaim updated = claim.withCheckpoint(token);
            String sentence = "Checkpoint saved for task '" + taskId + "'.";
            Mutation mutation = new Mutation(
                    List.of(new JournalEvent.Draft("checkpoint", updated.snapshot())),
                    List.of(HubReply.toRequester("checkpoint_saved", sentence, PROVIDER.createObjectBuilder()
                            .add("task_id", taskId).add("version", updated.version()).build())));
            commitOrThrow(commit, mutation);
            put(updated);
            return new ClaimVerdict(true, taskId, sentence, updated, null, mutation);
        } finally {
            lock.writeLock().unlock();
        }
    }

    // ------------------------------------------------------------------ wait_request

    /**
     * Records an advisory wait edge sender→task unless it would deadlock (§9.11). Not journalled;
     * the reply is private ({@code wait_granted} with {@code holder}, or {@code wait_denied}).
     */
    public ClaimVerdict waitFor(WaitRequest request, String sender, double now) {
        lock.writeLock().lock();
        try {
            expireLocked(now);
            String taskId = request.taskId();
            TaskClaim claim = claims.get(taskId);
            String refusal = null;
            JsonObjectBuilder f = PROVIDER.createObjectBuilder().add("task_id", taskId);
            if (taskId.isEmpty()) {
                refusal = TASK_ID_REQUIRED_SENTENCE;
            } else if (claim == null) {
                refusal = "Task '" + taskId + "' is not claimed; nothing to wait for.";
            } else if (claim.owner().equals(sender)) {
                refusal = "You already hold '" + taskId + "'.";
            } else if (reaches(claim.owner(), sender)) {
                f.add("holder", claim.owner());
                refusal = "Waiting for '" + taskId + "' held by " + claim.owner() + " would deadlock.";
            }
            if (refusal != null) {
                return refused(taskId, refusal, HubReply.toRequester("wait_denied", refusal, f.build()));
            }
            waits.computeIfAbsent(sender, k -> new HashSet<>()).add(taskId);
            String sentence = "Waiting for '" + taskId + "' held by " + claim.owner() + ".";
            return new ClaimVerdict(true, taskId, sentence, claim, null, new Mutation(List.of(), List.of(
                    HubReply.toRequester("wait_granted", sentence, f.add("holder", claim.owner()).build()))));
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Whether following wait edges from {@code start} (waiter → task → live holder) reaches {@code target}. */
    private boolean reaches(String start, String target) {
        Deque<String> todo = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        todo.push(start);
        while (!todo.isEmpty()) {
            String who = todo.pop();
            if (who.equals(target)) {
                return true;
            }
            if (!seen.add(who)) {
                continue;
            }
            for (String task : waits.getOrDefault(who, Set.of())) {
                TaskClaim held = claims.get(task);
                if (held != null) {
                    todo.push(held.owner());
                }
            }
        }
        return false;
    }

    /** Names that currently wait on some task (the sweep drops those no longer connected). */
    public List<String> waiters() {
        lock.readLock().lock();
        try {
            return new ArrayList<>(waits.keySet());
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Forgets the wait edges of a name that disconnected. */
    public void disconnected(String name) {
        lock.writeLock().lock();
        try {
            waits.remove(name);
        } finally {
            lock.writeLock().unlock();
        }
    }

    // ------------------------------------------------------------------ expiry

    /**
     * Removes every lease due at {@code now} (lease_expires_at ≤ now), keeps non-empty
     * checkpoints for the next claimant, prunes wait edges; returns the expired claims (nothing
     * is journalled or broadcast). Call it from the periodic sweep and before snapshots.
     */
    public List<TaskClaim> expire(double now) {
        lock.writeLock().lock();
        try {
            return expireLocked(now);
        } finally {
            lock.writeLock().unlock();
        }
    }

    private List<TaskClaim> expireLocked(double now) {
        List<TaskClaim> expired = List.of();
        while (!expiries.isEmpty() && expiries.first().at() <= now) {
            Expiry due = expiries.pollFirst();
            TaskClaim c = claims.get(due.taskId());
            if (c == null || c.epoch() != due.epoch() || c.liveAt(now)) {
                continue; // defensive: entries are removed with their claim
            }
            if (expired.isEmpty()) {
                expired = new ArrayList<>();
            }
            expired.add(c);
            removeClaim(c.taskId());
            if (!c.checkpoint().isEmpty()) {
                retainedCheckpoints.put(c.taskId(), c.checkpoint());
            }
        }
        return expired;
    }

    // ------------------------------------------------------------------ replay

    /**
     * Applies one journal event during start-up replay (§16.3): claim-family snapshots upsert,
     * {@code release} deletes the claim and its retained checkpoint; {@code claim_denial} and
     * every other kind are ignored. Call {@link #expire} with the current time afterwards.
     */
    public void apply(JournalEvent event) {
        lock.writeLock().lock();
        try {
            switch (event.kind()) {
                case "claim", "task_update", "checkpoint", "handoff" -> {
                    TaskClaim c = TaskClaim.fromSnapshot(event.payload());
                    if (c != null) {
                        TaskClaim before = claims.get(c.taskId());
                        if (before == null && event.kind().equals("claim")) {
                            retainedCheckpoints.remove(c.taskId());
                        }
                        put(c);
                        lastEpoch = Math.max(lastEpoch, c.epoch());
                    }
                }
                case "release" -> {
                    String taskId = FrameFields.trimmed(event.payload(), "task_id");
                    removeClaim(taskId);
                    retainedCheckpoints.remove(taskId);
                }
                default -> {
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Replaces the whole state with what {@code source} replays (journal events in seq order), then
     * expires due leases. Used after an ordered journal append was lost: the journal is the truth,
     * so the book is rebuilt from it while no decision can run. The epoch counter never goes back.
     */
    public void rebuild(Consumer<Consumer<JournalEvent>> source, double now) {
        lock.writeLock().lock();
        try {
            claims.clear();
            retainedCheckpoints.clear();
            liveByPrincipal.clear();
            waits.clear();
            expiries.clear();
            index.clear();
            source.accept(this::apply);
            expireLocked(now);
        } finally {
            lock.writeLock().unlock();
        }
    }

    // ------------------------------------------------------------------ reads

    /** Live claims at {@code now}, sorted by task id (a pure view: nothing is removed). */
    public List<TaskClaim> liveClaims(double now) {
        lock.readLock().lock();
        try {
            List<TaskClaim> out = new ArrayList<>();
            for (TaskClaim c : claims.values()) {
                if (c.liveAt(now)) {
                    out.add(c);
                }
            }
            out.sort(Comparator.comparing(TaskClaim::taskId));
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The live claim on a task, or null. */
    public TaskClaim claimOf(String taskId, double now) {
        lock.readLock().lock();
        try {
            TaskClaim c = claims.get(taskId);
            return c != null && c.liveAt(now) ? c : null;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Task ids of live claims per owner, both sorted (dark-seat input, §14). */
    public SortedMap<String, List<String>> liveTasksByOwner(double now) {
        SortedMap<String, List<String>> out = new TreeMap<>();
        for (TaskClaim c : liveClaims(now)) {
            out.computeIfAbsent(c.owner(), k -> new ArrayList<>()).add(c.taskId());
        }
        return out;
    }

    /** Live claims charged to a quota principal. */
    public int chargedTo(String quotaPrincipal) {
        lock.readLock().lock();
        try {
            return liveByPrincipal.getOrDefault(quotaPrincipal, 0);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The checkpoint kept from an expired lease, or "". */
    public String retainedCheckpoint(String taskId) {
        lock.readLock().lock();
        try {
            return retainedCheckpoints.getOrDefault(taskId, "");
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Tasks a name is waiting for, sorted. */
    public List<String> waitsOf(String waiter) {
        lock.readLock().lock();
        try {
            return List.copyOf(new TreeSet<>(waits.getOrDefault(waiter, Set.of())));
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Highest epoch granted so far. */
    public long lastEpoch() {
        lock.readLock().lock();
        try {
            return lastEpoch;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The live claims as a JSON array of projections (for {@code state_snapshot}). */
    public jakarta.json.JsonArray projections(double now) {
        JsonArrayBuilder a = PROVIDER.createArrayBuilder();
        liveClaims(now).forEach(c -> a.add(c.projection()));
        return a.build();
    }

    // ------------------------------------------------------------------ internals

    private void put(TaskClaim c) {
        TaskClaim old = claims.put(c.taskId(), c);
        if (old != null) {
            index.remove(old.taskId(), old.scope());
            liveByPrincipal.merge(old.quotaPrincipal(), -1, (a, b) -> a + b == 0 ? null : a + b);
            expiries.remove(new Expiry(old.leaseExpiresAt(), old.taskId(), old.epoch()));
        }
        index.add(c.taskId(), c.scope());
        liveByPrincipal.merge(c.quotaPrincipal(), 1, Integer::sum);
        expiries.add(new Expiry(c.leaseExpiresAt(), c.taskId(), c.epoch()));
        if (old != null && !old.owner().equals(c.owner())) {
            dropWait(c.owner(), c.taskId()); // the new holder no longer waits for its own task
        }
        if (c.epoch() > lastEpoch) {
            lastEpoch = c.epoch();
        }
    }

    private void removeClaim(String taskId) {
        TaskClaim old = claims.remove(taskId);
        if (old != null) {
            index.remove(old.taskId(), old.scope());
            expiries.remove(new Expiry(old.leaseExpiresAt(), old.taskId(), old.epoch()));
            liveByPrincipal.merge(old.quotaPrincipal(), -1, (a, b) -> a + b == 0 ? null : a + b);
            forgetWaitsOn(taskId);
        }
    }

    /** The task lost its holder (release or expiry): nobody waits for it any more. */
    private void forgetWaitsOn(String taskId) {
        waits.values().removeIf(tasks -> tasks.remove(taskId) && tasks.isEmpty());
    }

    private void dropWait(String waiter, String taskId) {
        Set<String> tasks = waits.get(waiter);
        if (tasks != null && tasks.remove(taskId) && tasks.isEmpty()) {
            waits.remove(waiter);
        }
    }

    private static String ownedBy(TaskClaim claim, String sender) {
        return "Task '" + claim.taskId() + "' is owned by " + claim.owner() + ", not " + sender + ".";
    }

    private static String staleEpoch(TaskClaim claim) {
        return "Task '" + claim.taskId() + "' epoch is stale (current " + claim.epoch() + ").";
    }

    private static ClaimVerdict refused(String taskId, String sentence, HubReply reply) {
        return new ClaimVerdict(false, taskId, sentence, null, null, Mutation.refusal(List.of(), List.of(reply)));
    }

    private static void commitOrThrow(MutationCommit commit, Mutation mutation) {
        try {
            commit.commit(mutation);
        } catch (CommitFailedException e) {
            throw e;
        } catch (Exception e) {
            throw new CommitFailedException(e);
        }
    }

    /**
     * The replayed state as a snapshot part (issue 20): the claims (as their journal snapshots), the
     * epoch high-water and retained checkpoints; the scope index, quotas and expiry order are rebuilt
     * from the claims on restore, as replay builds them.
     */
    public org.switchboard.journal.snapshot.SnapshotPart snapshotPart() {
        return org.switchboard.journal.snapshot.SnapshotPart.of("claims", () -> {
            lock.readLock().lock();
            try {
                JsonArrayBuilder all = PROVIDER.createArrayBuilder();
                new TreeMap<>(claims).values().forEach(c -> all.add(c.snapshot()));
                JsonObjectBuilder retained = PROVIDER.createObjectBuilder();
                new TreeMap<>(retainedCheckpoints).forEach(retained::add);
                return PROVIDER.createObjectBuilder().add("last_epoch", lastEpoch).add("claims", all)
                        .add("retained_checkpoints", retained).build().toString();
            } finally {
                lock.readLock().unlock();
            }
        }, text -> {
            JsonObject part = SnapshotText.object(text);
            SnapshotText.locked(lock.writeLock(), () -> {
                try {
                    SnapshotText.eachObject(part, "claims", TaskClaim::fromSnapshot,
                            "claims snapshot part: a claim without task id or owner", c -> put(c));
                    lastEpoch = Math.max(lastEpoch, part.getJsonNumber("last_epoch").longValueExact());
                    part.getJsonObject("retained_checkpoints").forEach((task, checkpoint) ->
                            retainedCheckpoints.put(task, ((jakarta.json.JsonString) checkpoint).getString()));
                } catch (ClassCastException | NullPointerException | ArithmeticException e) {
                    throw new IllegalArgumentException("claims snapshot part: " + e, e);
                }
            });
        });
    }
}
