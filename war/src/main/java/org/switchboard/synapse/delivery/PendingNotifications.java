package org.switchboard.synapse.delivery;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The stored notifications of §2.11 (b) that no socket of their audience has accepted yet, per audience
 * in journal order. The journal is their storage: each is rebuilt from the transition or cancel event
 * that produced it (keyed by that event's seq, its {@code event_seq}), and a batched
 * {@code delivery_notifications_delivered} event records which ones went out, so no notification row
 * is written or updated per change. {@link #addBounded} keeps them bounded for audiences that never
 * come back: per audience and in total, the oldest leave first.
 */
public final class PendingNotifications {

    /** One pending notification: what its frame needs besides the request itself. */
    public record Entry(long seq, String audience, String operationKey, long ordinal, Stage stage,
                        boolean cancelRequested, Stage.Source source, double timestamp) {
    }

    private final Map<String, TreeMap<Long, Entry>> byAudience = new HashMap<>();
    // Sorted so the oldest pending notification of all is found without a scan when the total cap bites.
    private final TreeMap<Long, Entry> bySeq = new TreeMap<>();
    // How many are pending per request, so a request is not forgotten while one is (DeliveryBook).
    private final Map<String, Integer> perRequest = new HashMap<>();

    /** Records a committed notification as not yet delivered. */
    public synchronized void add(Entry entry) {
        if (bySeq.put(entry.seq(), entry) == null) {
            perRequest.merge(entry.operationKey(), 1, Integer::sum);
        }
        byAudience.computeIfAbsent(entry.audience(), a -> new TreeMap<>()).put(entry.seq(), entry);
    }

    /** Whether a notification of request {@code operationKey} is pending. */
    public synchronized boolean pendingFor(String operationKey) {
        return perRequest.containsKey(operationKey);
    }

    /**
     * Records a committed notification as not yet delivered, then drops the oldest of its audience while
     * that audience holds more than {@code maxPerAudience}, and the oldest of all while more than
     * {@code maxTotal} are pending. Returns the dropped entries (oldest first; usually none).
     */
    public synchronized List<Entry> addBounded(Entry entry, int maxPerAudience, int maxTotal) {
        add(entry);
        List<Entry> dropped = List.of();
        TreeMap<Long, Entry> mine = byAudience.get(entry.audience());
        while (mine.size() > Math.max(1, maxPerAudience)) {
            dropped = dropInto(dropped, mine.firstEntry().getValue());
        }
        while (bySeq.size() > Math.max(1, maxTotal)) {
            dropped = dropInto(dropped, bySeq.firstEntry().getValue());
        }
        return dropped;
    }

    private List<Entry> dropInto(List<Entry> dropped, Entry oldest) {
        List<Entry> out = dropped.isEmpty() ? new ArrayList<>() : dropped;
        remove(oldest.seq());
        out.add(oldest);
        return out;
    }

    /** Forgets the notification of event {@code seq}; true when it was pending (so its mark is written once). */
    public synchronized boolean remove(long seq) {
        Entry entry = bySeq.remove(seq);
        if (entry == null) {
            return false;
        }
        perRequest.computeIfPresent(entry.operationKey(), (k, n) -> n > 1 ? n - 1 : null);
        TreeMap<Long, Entry> mine = byAudience.get(entry.audience());
        mine.remove(seq);
        if (mine.isEmpty()) {
            byAudience.remove(entry.audience());
        }
        return true;
    }

    /** Whether the notification of event {@code seq} is pending. */
    public synchronized boolean contains(long seq) {
        return bySeq.containsKey(seq);
    }

    /** Up to {@code limit} pending notifications of {@code audience} with seq above {@code afterSeq}, oldest first. */
    public synchronized List<Entry> page(String audience, long afterSeq, int limit) {
        TreeMap<Long, Entry> mine = byAudience.get(audience);
        List<Entry> out = new ArrayList<>();
        if (mine != null) {
            for (Entry e : mine.tailMap(afterSeq, false).values()) {
                out.add(e);
                if (out.size() >= limit) {
                    break;
                }
            }
        }
        return out;
    }

    /** The {@code limit} audiences holding the most pending notifications (ties by name), most first. */
    public synchronized List<DeliveryQueueView.AudienceBacklog> largestAudiences(int limit) {
        List<DeliveryQueueView.AudienceBacklog> all = new ArrayList<>(byAudience.size());
        byAudience.forEach((audience, mine) ->
                all.add(new DeliveryQueueView.AudienceBacklog(audience, mine.size(), mine.firstEntry().getValue().timestamp())));
        all.sort(java.util.Comparator.comparingInt(DeliveryQueueView.AudienceBacklog::pending).reversed()
                .thenComparing(DeliveryQueueView.AudienceBacklog::audience));
        return all.size() > limit ? new ArrayList<>(all.subList(0, Math.max(0, limit))) : all;
    }

    /** Number of pending notifications (metrics). */
    public synchronized int size() {
        return bySeq.size();
    }

    /** Every pending notification, oldest first (a snapshot writes them; {@link #add} reads them back). */
    public synchronized List<Entry> all() {
        return List.copyOf(bySeq.values());
    }
}
