package org.switchboard.journal;

import java.util.List;
import java.util.Set;
import java.util.function.DoubleSupplier;
import java.util.function.LongFunction;

/**
 * One run of the journal's retention ({@code hub.journal.retention-*}, issue 20): finds the journal's
 * extent, asks {@link JournalRetention} where to cut, and deletes the events of the retained kinds
 * below the cut except the ones still needed. Only chat is deleted: every other kind carries state a
 * full replay rebuilds (claims, board, deliveries, idempotency records, receipts, watermarks, the forward
 * outbox), and the spec keeps delivery rows for good. Kept below the cut: the seqs the caller names
 * (directed chats a mailbox still owes, the chats of unsettled receipts) and the newest chat, whose
 * {@code msg_id} a replay continues from. One old unacked chat therefore keeps only itself, not
 * everything after it.
 */
public final class RetentionPass {

    /** What one run did: the cut it chose and the events it deleted. */
    public record Result(JournalRetention.Cut cut, long deleted) {
    }

    private final JournalRetention.Settings settings;
    private final Set<String> kinds;
    private final LongFunction<long[]> keptBelow;
    private final DoubleSupplier clock;
    /** Seq below which this process has already deleted the retained kinds, except kept ones. */
    private long deletedBelow;
    /** Where the next run starts: the lowest seq the last run kept below its cut (it may be free now), else its cut. */
    private long resumeFrom;
    private long deletedTotal;

    /**
     * A pass deleting {@code kinds} under {@code settings}; {@code keptBelow} names, for a cut, the seqs
     * below it that must stay (ascending); {@code clock} gives epoch seconds (the age limit compares it
     * with each event's append time).
     */
    public RetentionPass(JournalRetention.Settings settings, Set<String> kinds, LongFunction<long[]> keptBelow,
                         DoubleSupplier clock) {
        this.settings = settings;
        this.kinds = Set.copyOf(kinds);
        this.keptBelow = keptBelow;
        this.clock = clock;
    }

    /** Runs once against {@code journal}; returns null when there is nothing to look at (limits off, empty journal). */
    public synchronized Result run(Journal journal) {
        if (settings.off()) {
            return null;
        }
        List<JournalEvent> first = journal.read(Math.max(0, resumeFrom - 1), 1, Set.of());
        long lastSeq = journal.lastSeq();
        if (first.isEmpty() || lastSeq <= 0) {
            return null;
        }
        long firstSeq = first.get(0).seq();
        long notTooOld = settings.maxAgeSeconds() > 0
                ? firstAppendedAtOrAfter(journal, clock.getAsDouble() - settings.maxAgeSeconds(), firstSeq, lastSeq)
                : firstSeq;
        JournalRetention.Extent extent = new JournalRetention.Extent(firstSeq, lastSeq, notTooOld);
        JournalRetention.Cut cut = JournalRetention.cut(settings, extent, List.of());
        long deleted = 0;
        if (cut.deletes(extent)) {
            long newest = journal.lastSeqOf(kinds);
            long[] named = keptBelow.apply(cut.deleteBelow());
            long[] keep = java.util.Arrays.copyOf(named, named.length + 1);
            keep[named.length] = newest > 0 ? newest : Long.MAX_VALUE;
            java.util.Arrays.sort(keep);
            deleted = journal.deleteBelow(firstSeq, cut.deleteBelow(), kinds, keep);
            deletedBelow = Math.max(deletedBelow, cut.deleteBelow());
            resumeFrom = keep[0] < cut.deleteBelow() ? Math.max(firstSeq, keep[0]) : cut.deleteBelow();
            deletedTotal += deleted;
        }
        return new Result(cut, deleted);
    }

    /** Events of the retained kinds deleted by this pass since the process started. */
    public synchronized long deletedTotal() {
        return deletedTotal;
    }

    /** The seq below which the retained kinds are gone (0 before the first deletion). */
    public synchronized long deletedBelow() {
        return deletedBelow;
    }

    /**
     * The lowest seq appended at or after {@code moment} (epoch s), or {@code lastSeq + 1} when none is:
     * append times rise with seq, so a binary search over seqs finds it in ~log2(rows) one-row reads.
     */
    static long firstAppendedAtOrAfter(Journal journal, double moment, long firstSeq, long lastSeq) {
        long low = firstSeq;
        long high = lastSeq + 1; // invariant: every event below low is older than moment; the answer is <= high
        while (low < high) {
            long mid = low + (high - low) / 2;
            List<JournalEvent> next = journal.read(mid - 1, 1, Set.of()); // the first event at or after mid
            if (next.isEmpty() || next.get(0).appendedAt() >= moment) {
                high = mid; // nothing from mid on is too old (no event lies between mid and the one found)
            } else {
                low = next.get(0).seq() + 1;
            }
        }
        return low;
    }
}
