package org.switchboard.synapse.board;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.snapshot.SnapshotText;
import org.switchboard.synapse.idempotency.HubReply;
import org.switchboard.synapse.idempotency.Mutation;
import org.switchboard.synapse.idempotency.MutationCommit;

/**
 * The shared blackboard (synapse-core §10): {@code ledger_task} declare/re-declare with
 * dependency-cycle refusal, project scope and {@code expected_version} compare-and-set,
 * {@code ledger_task_update}, {@code ledger_progress} with retention bounds, causal-parent
 * validation, {@code board_snapshot}, and replay from {@code ledger_task}/{@code ledger_progress}
 * events.
 *
 * <p><b>Threading contract.</b> Thread-safe. Each mutation holds the board's write lock across
 * decide, {@link MutationCommit} (the journal append) and apply, so versions are strictly
 * monotonic per task, a compare-and-set can never be lost, and a failed append changes nothing
 * (the verdict then carries the §10.6 sentence and the cause). Reads take the read lock.
 */
public final class Blackboard {

    /** Malformed {@code expected_version}. */
    public static final String EXPECTED_VERSION_MALFORMED = "Malformed frame: 'expected_version' must be an integer.";
    /** Unexpected fault while validating {@code causal_parent}. */
    public static final String CAUSAL_PARENT_FAULT = "Causal parent validation failed; task was not changed.";
    /** Journal failure on a progress note. */
    public static final String NOTE_NOT_JOURNALLED = "Progress note was not journalled; mutation rolled back.";

    /**
     * Operator limits.
     *
     * @param maxNotes          retained notes in total (5000)
     * @param maxNotesPerAuthor retained notes per author (1000)
     * @param maxNotesPerTask   retained notes per task (1000)
     * @param taskCap           tasks shown in a snapshot, 0 = no cap
     */
    public record Limits(int maxNotes, int maxNotesPerAuthor, int maxNotesPerTask, int taskCap) {
        /** The spec defaults (no snapshot cap). */
        public static Limits defaults() {
            return new Limits(5000, 1000, 1000, 0);
        }
    }

    private final Limits limits;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final TreeMap<String, LedgerTask> tasks = new TreeMap<>();
    private final ProgressLog progress;

    /** A board with the given limits. */
    public Blackboard(Limits limits) {
        this.limits = limits;
        this.progress = new ProgressLog(limits.maxNotes(), limits.maxNotesPerAuthor(), limits.maxNotesPerTask());
    }

    /** A board with default limits. */
    public Blackboard() {
        this(Limits.defaults());
    }

    // ------------------------------------------------------------------ ledger_task

    /** Declares or re-declares a task (§10.2); success broadcasts {@code ledger_task_posted}. */
    public BoardVerdict declare(LedgerTaskRequest request, String sender, double now, MutationCommit commit) {
        lock.writeLock().lock();
        try {
            String taskId = request.taskId();
            if (request.problem() != null) {
                return refused(request.problem());
            }
            String title = request.title();
            if (taskId.isEmpty()) {
                return refused("Task ID is required.");
            }
            if (title.isEmpty()) {
                return refused("Task '" + taskId + "' requires a title.");
            }
            List<String> deps = request.dependsOn();
            if (wouldCycle(taskId, deps)) {
                return refused("Task '" + taskId + "' dependencies would form a cycle.");
            }
            LedgerTask current = tasks.get(taskId);
            String cas = casProblem(request.expectedVersion(), taskId, current);
            if (cas != null) {
                return refused(cas);
            }
            String project = request.project();
            if (current != null && !project.isEmpty() && !current.project().isEmpty() && !project.equals(current.project())) {
                return refused("Task '" + taskId + "' belongs to project '" + current.project() + "'.");
            }
            LedgerTask next = current == null
                    ? new LedgerTask(taskId, title, request.description(), deps, "open",
                            request.suggestedOwner(), project, 1, sender, now, now)
                    : new LedgerTask(taskId, title, request.description(), deps, current.status(),
                            request.suggestedOwner(), project.isEmpty() ? current.project() : project,
                            current.version() + 1, current.createdBy(), current.createdAt(), now);
            return commitTask(next, request.causalParent(), "ledger_task_posted", "Task '" + taskId + "' declared by " + sender + ".", commit);
        } finally {
            lock.writeLock().unlock();
        }
    }

    // ------------------------------------------------------------------ ledger_task_update

    /** Updates status / suggested owner / project of a task (§10.3); success broadcasts {@code ledger_task_updated}. */
    public BoardVerdict update(LedgerTaskUpdateRequest request, String sender, double now, MutationCommit commit) {
        lock.writeLock().lock();
        try {
            if (request.problem() != null) {
                return refused(request.problem());
            }
            String taskId = request.taskId();
            if (taskId.isEmpty()) {
                return refused("Task ID is required.");
            }
            LedgerTask current = tasks.get(taskId);
            if (current == null) {
                return refused("Task '" + taskId + "' is not on the board.");
            }
            String status = request.status();
            if (!status.isEmpty() && !LedgerTask.STATUSES.contains(status)) {
                return refused("Unknown ledger status '" + status + "'.");
            }
            String cas = casProblem(request.expectedVersion(), taskId, current);
            if (cas != null) {
                return refused(cas);
            }
            String owner = request.suggestedOwner() != null ? request.suggestedOwner() : current.suggestedOwner();
            String project = request.project() != null ? request.project() : current.project();
            LedgerTask next = new LedgerTask(taskId, current.title(), current.description(), current.dependsOn(),
                    status.isEmpty() ? current.status() : status, owner, project, current.version() + 1,
                    current.createdBy(), current.createdAt(), now);
            return commitTask(next, request.causalParent(), "ledger_task_updated", "Task '" + taskId + "' updated by " + sender + ".", commit);
        } finally {
            lock.writeLock().unlock();
        }
    }

    private BoardVerdict commitTask(LedgerTask next, JsonObject causalParent, String replyType, String sentence,
                                    MutationCommit commit) {
        JsonObjectBuilder payload = PROVIDER.createObjectBuilder(next.projection());
        if (causalParent != null) {
            payload.add("causal_parent", causalParent); // beside the task fields, never inside task projections
        }
        Mutation mutation = new Mutation(
                List.of(new JournalEvent.Draft("ledger_task", payload.build())),
                List.of(HubReply.toAll(replyType, sentence, PROVIDER.createObjectBuilder().add("task", next.projection()).build())));
        try {
            commit.commit(mutation);
        } catch (Exception e) {
            String s = "Task '" + next.taskId() + "' was not journalled; mutation rolled back.";
            return new BoardVerdict(false, s, null, null, privateError(s), e);
        }
        tasks.put(next.taskId(), next);
        return new BoardVerdict(true, sentence, next, null, mutation, null);
    }

    private static String casProblem(JsonNumber n, String taskId, LedgerTask current) {
        if (n == null) {
            return null;
        }
        long have = current == null ? 0 : current.version();
        if (n.bigDecimalValue().compareTo(java.math.BigDecimal.valueOf(have)) != 0) {
            return "Task '" + taskId + "' version conflict: expected v" + n + ", board has v" + have + ".";
        }
        return null;
    }

    /** Whether giving {@code taskId} these dependencies lets a dependency chain lead back to it. */
    private boolean wouldCycle(String taskId, List<String> deps) {
        Deque<String> todo = new ArrayDeque<>(deps);
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            String d = todo.pop();
            if (d.equals(taskId)) {
                return true;
            }
            if (seen.add(d)) {
                LedgerTask t = tasks.get(d);
                if (t != null) {
                    todo.addAll(t.dependsOn());
                }
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ ledger_progress

    /** Appends a progress note (§10.4); success broadcasts {@code ledger_progress_posted}. */
    public BoardVerdict progress(LedgerProgressRequest request, String sender, double now, MutationCommit commit) {
        lock.writeLock().lock();
        try {
            String kind = request.kind();
            if (!ProgressNote.KINDS.contains(kind)) {
                return refused("Unknown progress kind '" + kind + "'.");
            }
            ProgressNote note = new ProgressNote(request.taskId(), sender, kind, request.text(), now);
            Mutation mutation = new Mutation(
                    List.of(new JournalEvent.Draft("ledger_progress", note.projection())),
                    List.of(HubReply.toAll("ledger_progress_posted", "Progress from " + sender,
                            PROVIDER.createObjectBuilder().add("note", note.projection()).build())));
            try {
                commit.commit(mutation);
            } catch (Exception e) {
                return new BoardVerdict(false, NOTE_NOT_JOURNALLED, null, null, privateError(NOTE_NOT_JOURNALLED), e);
            }
            progress.add(note);
            return new BoardVerdict(true, "Progress from " + sender, null, note, mutation, null);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Adds a note another rule already journalled (release receipts, handoffs); retention applies. */
    public void acceptCommitted(ProgressNote note) {
        lock.writeLock().lock();
        try {
            progress.add(note);
        } finally {
            lock.writeLock().unlock();
        }
    }

    // ------------------------------------------------------------------ replay

    /** Replays {@code ledger_task} (upsert) and {@code ledger_progress} (append with retention); ignores other kinds. */
    public void apply(JournalEvent event) {
        lock.writeLock().lock();
        try {
            if ("ledger_task".equals(event.kind())) {
                LedgerTask t = LedgerTask.fromProjection(event.payload());
                if (t != null) {
                    tasks.put(t.taskId(), t);
                }
            } else if ("ledger_progress".equals(event.kind())) {
                ProgressNote n = ProgressNote.fromProjection(event.payload());
                if (n != null) {
                    progress.add(n);
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    // ------------------------------------------------------------------ reads

    /** The {@code board} object of {@code board_snapshot} (§10.5). */
    public JsonObject snapshot() {
        lock.readLock().lock();
        try {
            List<LedgerTask> shown = new ArrayList<>(tasks.values());
            boolean capped = limits.taskCap() > 0;
            boolean truncated = capped && shown.size() > limits.taskCap();
            if (truncated) {
                shown.sort(Comparator.comparing(LedgerTask::terminal)
                        .thenComparing(Comparator.comparingDouble(LedgerTask::updatedAt).reversed()));
                shown = new ArrayList<>(shown.subList(0, limits.taskCap()));
                shown.sort(Comparator.comparing(LedgerTask::taskId));
            }
            JsonArrayBuilder t = PROVIDER.createArrayBuilder();
            shown.forEach(task -> t.add(task.projection()));
            JsonArrayBuilder ready = PROVIDER.createArrayBuilder();
            readyIds().forEach(ready::add);
            JsonArrayBuilder notes = PROVIDER.createArrayBuilder();
            progress.all().forEach(n -> notes.add(n.projection()));
            JsonObjectBuilder b = PROVIDER.createObjectBuilder().add("tasks", t).add("ready", ready).add("progress", notes);
            if (capped) {
                b.add("total_tasks", tasks.size()).add("truncated", truncated).add("task_cap", limits.taskCap());
            }
            return b.build();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Number of tasks on the board (for {@code /metrics}). */
    public int taskCount() {
        lock.readLock().lock();
        try {
            return tasks.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Ids of ready tasks (open, every dependency on the board and terminal), sorted. */
    public List<String> readyIds() {
        lock.readLock().lock();
        try {
            List<String> out = new ArrayList<>();
            for (LedgerTask task : tasks.values()) {
                if (task.status().equals("open") && task.dependsOn().stream()
                        .allMatch(d -> tasks.containsKey(d) && tasks.get(d).terminal())) {
                    out.add(task.taskId());
                }
            }
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The task with this id, or null. */
    public LedgerTask task(String taskId) {
        lock.readLock().lock();
        try {
            return tasks.get(taskId);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Retained notes in posting order. */
    public List<ProgressNote> notes() {
        lock.readLock().lock();
        try {
            return progress.all();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Non-terminal task ids per non-empty suggested owner, sorted (dark-seat input, §14). */
    public SortedMap<String, List<String>> openTasksBySuggestedOwner() {
        lock.readLock().lock();
        try {
            SortedMap<String, List<String>> out = new TreeMap<>();
            for (LedgerTask task : tasks.values()) {
                if (!task.terminal() && !task.suggestedOwner().isEmpty()) {
                    out.computeIfAbsent(task.suggestedOwner(), k -> new ArrayList<>()).add(task.taskId());
                }
            }
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    // ------------------------------------------------------------------ helpers

    private static BoardVerdict refused(String sentence) {
        return new BoardVerdict(false, sentence, null, null, privateError(sentence), null);
    }

    private static Mutation privateError(String sentence) {
        return Mutation.refusal(List.of(), List.of(HubReply.toRequester("error", sentence, JsonValue.EMPTY_JSON_OBJECT)));
    }

    /**
     * The replayed state as a snapshot part (issue 20): the tasks and the retained progress notes in
     * posting order (re-adding the retained notes in order keeps them all: they already fit the bounds).
     */
    public org.switchboard.journal.snapshot.SnapshotPart snapshotPart() {
        return org.switchboard.journal.snapshot.SnapshotPart.of("board", () -> {
            lock.readLock().lock();
            try {
                JsonArrayBuilder all = PROVIDER.createArrayBuilder();
                tasks.values().forEach(t -> all.add(t.projection()));
                JsonArrayBuilder notes = PROVIDER.createArrayBuilder();
                progress.all().forEach(n -> notes.add(n.projection()));
                return PROVIDER.createObjectBuilder().add("tasks", all).add("progress", notes).build().toString();
            } finally {
                lock.readLock().unlock();
            }
        }, text -> {
            JsonObject part = SnapshotText.object(text);
            SnapshotText.locked(lock.writeLock(), () -> {
                try {
                    SnapshotText.eachObject(part, "tasks", LedgerTask::fromProjection,
                            "board snapshot part: a task without id", t -> tasks.put(t.taskId(), t));
                    SnapshotText.eachObject(part, "progress", ProgressNote::fromProjection,
                            "board snapshot part: an unreadable progress note", progress::add);
                } catch (ClassCastException | NullPointerException e) {
                    throw new IllegalArgumentException("board snapshot part: " + e, e);
                }
            });
        });
    }
}
