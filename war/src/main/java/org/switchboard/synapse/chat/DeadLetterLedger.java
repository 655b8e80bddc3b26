package org.switchboard.synapse.chat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The dead-letter ledger of §7.10: per literal directed target that reached no consume-live
 * recipient, a count with the last hub stamp and sender; 200 targets, 7 days.
 */
public final class DeadLetterLedger {

    /** Target bound. */
    public static final int CAPACITY = 200;
    /** Age bound (seconds since the last hit). */
    public static final double MAX_AGE = 7 * 24 * 3600;

    /** One ledger entry. */
    public record Entry(String target, long count, double lastTs, String lastSender) {
    }

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    /** Records one dead letter; returns the new count for the target. */
    public long record(String target, String sender, double now) {
        Entry entry = entries.compute(target, (t, old) -> old == null || now - old.lastTs() > MAX_AGE
                ? new Entry(t, 1, now, sender) : new Entry(t, old.count() + 1, now, sender));
        if (entries.size() > CAPACITY) {
            evict(now);
        }
        return entry.count();
    }

    /** Clears the entry keyed by exactly {@code name} (the name bound or reacted). */
    public void clear(String name) {
        if (!entries.isEmpty()) {
            entries.remove(name);
        }
    }

    /** Entries sorted by count desc, then target. */
    public List<Entry> snapshot(double now) {
        List<Entry> list = new ArrayList<>();
        for (Entry e : entries.values()) {
            if (now - e.lastTs() <= MAX_AGE) {
                list.add(e);
            }
        }
        list.sort(Comparator.comparingLong(Entry::count).reversed().thenComparing(Entry::target));
        return list;
    }

    public int targets() {
        return entries.size();
    }

    public long total() {
        long sum = 0;
        for (Entry e : entries.values()) {
            sum += e.count();
        }
        return sum;
    }

    private void evict(double now) {
        entries.values().removeIf(e -> now - e.lastTs() > MAX_AGE);
        while (entries.size() > CAPACITY) {
            Entry oldest = null;
            for (Map.Entry<String, Entry> e : entries.entrySet()) {
                if (oldest == null || e.getValue().lastTs() < oldest.lastTs()) {
                    oldest = e.getValue();
                }
            }
            if (oldest == null) {
                return;
            }
            entries.remove(oldest.target(), oldest);
        }
    }
}
