package org.switchboard.journal;

import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which senders may have undelivered receipt-outbox rows, so that a registration whose sender has none
 * (nearly all of them) skips the database read its outbox flush would make (issue 20: in a connection
 * storm that read was a sixth of the hub's CPU). Seeded from the stored rows when the journal opens,
 * marked when a commit stores a waiting row, and cleared when a read made after the last such commit
 * found none; a read that raced a newer commit leaves the mark, so a row is never skipped for good.
 */
public final class OutboxAudiences {

    private final ConcurrentHashMap<String, Long> marks = new ConcurrentHashMap<>();
    private final AtomicLong versions = new AtomicLong();

    /** Marks senders that have waiting rows in storage (at open, before any commit). */
    public void seed(Collection<String> senders) {
        senders.forEach(sender -> marks.put(sender, versions.incrementAndGet()));
    }

    /** A commit stored these rows: their waiting senders may have rows now. */
    public void committed(Collection<SequencedBatch.Outbox> rows) {
        for (SequencedBatch.Outbox row : rows) {
            if (row.deliveredAt() == null) {
                marks.put(row.sender(), versions.incrementAndGet());
            }
        }
    }

    /** The mark to pass to {@link #foundNone} after reading {@code sender}'s rows; 0: nothing to read. */
    public long mark(String sender) {
        Long version = marks.get(sender);
        return version == null ? 0 : version;
    }

    /** A read begun at {@code mark} found no waiting rows: clear the sender unless a commit marked it since. */
    public void foundNone(String sender, long mark) {
        marks.remove(sender, mark);
    }

    /** Senders marked now (for tests and diagnostics). */
    public int marked() {
        return marks.size();
    }
}
