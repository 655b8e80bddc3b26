package org.switchboard.synapse.mailbox;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;
import org.switchboard.synapse.addressing.Addressing;

/**
 * The in-memory index of journalled directed chats ({@code seq → sender, target}) and the per-name
 * pending backlogs behind {@code mailbox_pending}. A chat addressed only to full names leaves the index
 * once every named recipient's watermark has passed it; chats to bare projects or glob parts (whose
 * recipients cannot be listed) leave only by the size limit, which stays as a backstop for all.
 */
final class DirectedIndex {

    /** One indexed chat; {@code listed} when every part is a full name (or role), {@code remaining} its named recipients still behind it. */
    record Entry(String sender, String target, List<String> parts, boolean listed, AtomicInteger remaining) {
    }

    /** Pending seqs of one name, all above that name's watermark (trimmed when it advances). */
    private static final class Backlog {
        private final NavigableSet<Long> seqs = new TreeSet<>();

        synchronized void add(long seq) {
            seqs.add(seq);
        }

        synchronized boolean remove(long seq) {
            return seqs.remove(seq);
        }

        /** Removes and returns the seqs at or below {@code through}. */
        synchronized long[] trim(long through) {
            NavigableSet<Long> head = seqs.headSet(through, true);
            long[] removed = head.stream().mapToLong(Long::longValue).toArray();
            head.clear();
            return removed;
        }

        synchronized int size() {
            return seqs.size();
        }

        synchronized boolean contains(long seq) {
            return seqs.contains(seq);
        }

        synchronized long[] above(long after) {
            return seqs.tailSet(after, false).stream().mapToLong(Long::longValue).toArray();
        }
    }

    private final int limit;
    private final ToLongFunction<String> watermark;
    private final ConcurrentSkipListMap<Long, Entry> chats = new ConcurrentSkipListMap<>();
    /** The indexed chats that are not {@link Entry#listed}: the only ones a pending count walks. */
    private final ConcurrentSkipListMap<Long, Entry> wide = new ConcurrentSkipListMap<>();
    private final ConcurrentHashMap<String, Backlog> byName = new ConcurrentHashMap<>();
    /** Size of {@link #chats} (the skip list's own size() walks every entry). */
    private final AtomicInteger count = new AtomicInteger();
    /** Highest seq dropped by the size limit (0 = none): an ack of an older seq is checked against the journal. */
    private final AtomicLong sizePrunedThrough = new AtomicLong();

    /** The indexed seqs below {@code cut}, ascending: chats some named recipient has not acked, and wide ones. */
    long[] seqsBelow(long cut) {
        return chats.headMap(cut).keySet().stream().mapToLong(Long::longValue).toArray();
    }

    /** An index of at most {@code limit} chats over the receivers' watermarks. */
    DirectedIndex(int limit, ToLongFunction<String> watermark) {
        this.limit = Math.max(1, limit);
        this.watermark = watermark;
    }

    /** True for a part whose recipients are listed by its text: a full {@code project/name} (or role) without glob characters. */
    static boolean namesOne(String part) {
        return part.indexOf('/') > 0 && !Addressing.hasMeta(part);
    }

    /** Indexes a committed directed chat. */
    void add(long seq, String sender, String target) {
        List<String> parts = Addressing.parts(target);
        boolean listed = !parts.isEmpty();
        for (String part : parts) {
            listed &= namesOne(part);
        }
        // one extra count held until every name is in, so a concurrent trim cannot drop the chat half-indexed
        Entry entry = new Entry(sender, target, parts, listed, new AtomicInteger(1));
        if (chats.put(seq, entry) == null) {
            count.incrementAndGet();
        }
        if (listed) {
            for (String name : Set.copyOf(parts)) {
                if (name.equals(sender)) {
                    continue;
                }
                entry.remaining().incrementAndGet();
                boolean[] added = {false};
                // under the map's lock for this name, ordered with trim(): see advanced()
                byName.compute(name, (k, backlog) -> {
                    if (watermark.applyAsLong(k) >= seq) {
                        return backlog;
                    }
                    Backlog b = backlog == null ? new Backlog() : backlog;
                    b.add(seq);
                    added[0] = true;
                    return b;
                });
                if (!added[0]) {
                    entry.remaining().decrementAndGet();
                }
            }
        } else {
            wide.put(seq, entry);
        }
        if (entry.remaining().decrementAndGet() == 0 && listed) {
            drop(seq, entry);
        }
        if (count.get() > limit) {
            pruneToLimit();
        }
    }

    /**
     * {@code name}'s watermark has moved (already stored): its backlog up to there is trimmed, and a chat
     * every named recipient has now passed leaves the index.
     */
    void advanced(String name) {
        long[][] removed = {null};
        byName.computeIfPresent(name, (k, backlog) -> {
            removed[0] = backlog.trim(watermark.applyAsLong(k));
            return backlog.size() == 0 ? null : backlog;
        });
        if (removed[0] == null) {
            return;
        }
        for (long seq : removed[0]) {
            Entry entry = chats.get(seq);
            if (entry != null && entry.remaining().decrementAndGet() == 0) {
                drop(seq, entry);
            }
        }
    }

    private void drop(long seq, Entry entry) {
        if (chats.remove(seq, entry)) {
            count.decrementAndGet();
        }
    }

    /** Drops the oldest entries down to the limit. */
    private void pruneToLimit() {
        while (count.get() > limit) {
            Map.Entry<Long, Entry> oldest = chats.pollFirstEntry();
            if (oldest == null) {
                return;
            }
            count.decrementAndGet();
            long seq = oldest.getKey();
            sizePrunedThrough.accumulateAndGet(seq, Math::max);
            Entry entry = oldest.getValue();
            if (!entry.listed()) {
                wide.remove(seq);
                continue;
            }
            for (String name : entry.parts()) {
                byName.computeIfPresent(name, (k, backlog) -> {
                    backlog.remove(seq);
                    return backlog.size() == 0 ? null : backlog;
                });
            }
        }
    }

    /** The indexed chat at {@code seq}, or null. */
    Entry get(long seq) {
        return chats.get(seq);
    }

    /** Highest seq the size limit dropped (0 = none). */
    long sizePrunedThrough() {
        return sizePrunedThrough.get();
    }

    /** Chats indexed now. */
    int size() {
        return count.get();
    }

    /** Names with a non-empty backlog (memory check). */
    int names() {
        return byName.size();
    }

    /**
     * Directed chats for {@code identity} above its watermark: its own backlog's size, plus those of its
     * roles' backlogs and of the non-listed chats that match (each counted once, none it sent).
     */
    long pendingFor(String identity, Collection<String> roles) {
        long after = watermark.applyAsLong(identity);
        Backlog own = byName.get(identity);
        long pending = own == null ? 0 : own.size();
        Set<Long> counted = null;
        for (String role : roles) {
            Backlog backlog = role.equals(identity) ? null : byName.get(role);
            if (backlog == null) {
                continue;
            }
            for (long seq : backlog.above(after)) {
                Entry entry = chats.get(seq);
                if (entry == null || identity.equals(entry.sender()) || (own != null && own.contains(seq))) {
                    continue;
                }
                if (counted == null) {
                    counted = new HashSet<>();
                }
                if (counted.add(seq)) {
                    pending++;
                }
            }
        }
        for (Map.Entry<Long, Entry> e : wide.tailMap(after, false).entrySet()) {
            Entry entry = e.getValue();
            if (!identity.equals(entry.sender()) && Addressing.matchesAny(entry.parts(), identity, roles)) {
                pending++;
            }
        }
        return pending;
    }

    /** The indexed chats by seq, oldest first (a snapshot writes them; weakly consistent with concurrent change). */
    Map<Long, Entry> entries() {
        return chats;
    }

    /**
     * Re-indexes a chat a snapshot wrote, over watermarks already restored: the backlogs come out as the
     * replay left them, since a backlog holds exactly its name's listed chats above its watermark.
     */
    void restore(long seq, String sender, String target) {
        add(seq, sender, target);
    }

    /** Restores the size limit's high-water from a snapshot. */
    void restorePruned(long seq) {
        sizePrunedThrough.accumulateAndGet(seq, Math::max);
    }
}
