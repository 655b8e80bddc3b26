package org.switchboard.synapse.receipts;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Unsettled negative receipts of directed chats keyed by message {@code seq} (§7.11), bounded to
 * 1024 entries; inserting past the bound evicts (and returns) the oldest.
 */
public final class PendingReceipts {

    /** Store bound. */
    public static final int CAPACITY = 1024;

    /** One unsettled receipt. */
    public record Pending(long seq, String sender, String target, long messageId, String clientMsgId) {
    }

    private final ConcurrentSkipListMap<Long, Pending> pending = new ConcurrentSkipListMap<>();
    private final int capacity;

    public PendingReceipts() {
        this(CAPACITY);
    }

    PendingReceipts(int capacity) {
        this.capacity = capacity;
    }

    /** Adds an entry; returns the entry evicted to respect the bound, or null. */
    public Pending add(Pending entry) {
        pending.put(entry.seq(), entry);
        if (pending.size() > capacity) {
            Map.Entry<Long, Pending> oldest = pending.pollFirstEntry();
            return oldest == null ? null : oldest.getValue();
        }
        return null;
    }

    public Pending get(long seq) {
        return pending.get(seq);
    }

    /** Removes and returns the entry if still present (settlement happens once). */
    public boolean remove(Pending entry) {
        return pending.remove(entry.seq(), entry);
    }

    public void removeSeq(long seq) {
        pending.remove(seq);
    }

    /** The chats of unsettled receipts below {@code cut}, ascending (the journal's retention keeps them). */
    public long[] seqsBelow(long cut) {
        return pending.headMap(cut).keySet().stream().mapToLong(Long::longValue).toArray();
    }

    public int size() {
        return pending.size();
    }

    /** The unsettled receipts by seq, oldest first (a snapshot writes them). */
    public java.util.Collection<Pending> all() {
        return java.util.List.copyOf(pending.values());
    }
}
