package org.switchboard.synapse.board;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Retained progress notes in posting order with the three retention bounds of synapse-core
 * §10.1 (total, per author, per task; oldest dropped first). Not thread-safe: {@link Blackboard}
 * guards it.
 */
final class ProgressLog {

    private final int maxTotal;
    private final int maxPerAuthor;
    private final int maxPerTask;
    private final LinkedHashMap<Long, ProgressNote> notes = new LinkedHashMap<>();
    // per-key queues of note ids, oldest first; ids of already dropped notes are skipped lazily
    private final Map<String, ArrayDeque<Long>> byAuthor = new HashMap<>();
    private final Map<String, ArrayDeque<Long>> byTask = new HashMap<>();
    private final Map<String, Integer> authorCount = new HashMap<>();
    private final Map<String, Integer> taskCount = new HashMap<>();
    private long nextId;

    ProgressLog(int maxTotal, int maxPerAuthor, int maxPerTask) {
        this.maxTotal = maxTotal;
        this.maxPerAuthor = maxPerAuthor;
        this.maxPerTask = maxPerTask;
    }

    void add(ProgressNote note) {
        long id = nextId++;
        notes.put(id, note);
        byAuthor.computeIfAbsent(note.author(), k -> new ArrayDeque<>()).addLast(id);
        byTask.computeIfAbsent(note.taskId(), k -> new ArrayDeque<>()).addLast(id);
        authorCount.merge(note.author(), 1, Integer::sum);
        taskCount.merge(note.taskId(), 1, Integer::sum);
        while (authorCount.getOrDefault(note.author(), 0) > maxPerAuthor) {
            drop(oldestLive(byAuthor.get(note.author())));
        }
        while (taskCount.getOrDefault(note.taskId(), 0) > maxPerTask) {
            drop(oldestLive(byTask.get(note.taskId())));
        }
        while (notes.size() > maxTotal) {
            drop(notes.keySet().iterator().next());
        }
    }

    private long oldestLive(ArrayDeque<Long> queue) {
        while (!notes.containsKey(queue.peekFirst())) {
            queue.pollFirst();
        }
        return queue.peekFirst();
    }

    private void drop(long id) {
        ProgressNote n = notes.remove(id);
        if (n == null) {
            return;
        }
        decrement(authorCount, byAuthor, n.author());
        decrement(taskCount, byTask, n.taskId());
    }

    private void decrement(Map<String, Integer> counts, Map<String, ArrayDeque<Long>> queues, String key) {
        int left = counts.merge(key, -1, Integer::sum);
        if (left <= 0) {
            counts.remove(key);
            queues.remove(key);
            return;
        }
        ArrayDeque<Long> queue = queues.get(key);
        while (!queue.isEmpty() && !notes.containsKey(queue.peekFirst())) {
            queue.pollFirst(); // keeps queues from collecting ids of dropped notes
        }
    }

    List<ProgressNote> all() {
        return new ArrayList<>(notes.values());
    }

    int size() {
        return notes.size();
    }
}
