package org.switchboard.journal;

import java.util.List;

/**
 * The journal's retention rule ({@code hub.journal.retention-*}): which old events a retention pass
 * ({@link RetentionPass}) may delete. Age and row count each name a candidate cut (events below it may
 * go; the further one wins), and the cut never passes a {@link Floor}: the lowest seq something still
 * reads from the journal (a mailbox's unacked directed chats, a pending receipt, the newest chat).
 * {@link #snapshotFloor} is the floor a pass deleting state-bearing kinds would need; the hub's pass
 * deletes only chat, which a replay does not need to rebuild state.
 */
public final class JournalRetention {

    /** Configuration key (environment {@code HUB_JOURNAL_RETENTION_MAX_AGE_SECONDS}): chat older than this may be deleted; 0 = no age limit. */
    public static final String MAX_AGE_KEY = "hub.journal.retention-max-age-seconds";
    /** Configuration key ({@code HUB_JOURNAL_RETENTION_MAX_ROWS}): chat more than this many seqs below the newest may be deleted; 0 = no row limit. */
    public static final String MAX_ROWS_KEY = "hub.journal.retention-max-rows";
    /** Configuration key ({@code HUB_JOURNAL_RETENTION_INTERVAL_SECONDS}, default 60): seconds between retention passes. */
    public static final String INTERVAL_KEY = "hub.journal.retention-interval-seconds";

    /** The operator's limits; 0 switches a limit off. */
    public record Settings(long maxAgeSeconds, long maxRows) {
        /** True when neither limit is set. */
        public boolean off() {
            return maxAgeSeconds <= 0 && maxRows <= 0;
        }
    }

    /** The journal's extent: first and last seq held, and the first seq appended at or after the age limit's moment. */
    public record Extent(long firstSeq, long lastSeq, long firstSeqNotTooOld) {
    }

    /** The lowest seq {@code holder} still needs from the journal ({@link Long#MAX_VALUE} = nothing). */
    public record Floor(String holder, long seq) {
    }

    /** A pass's decision: delete events with {@code seq < deleteBelow} (none when it is at or below the first seq). */
    public record Cut(long deleteBelow, String limitedBy) {
        /** True when the pass deletes something from {@code extent}. */
        public boolean deletes(Extent extent) {
            return deleteBelow > extent.firstSeq();
        }
    }

    private JournalRetention() {
    }

    /** The replay's floor: events after the newest readable snapshot's seq (0 = no snapshot: every event). */
    public static Floor snapshotFloor(long snapshotSeq) {
        return new Floor("snapshot", Math.max(0, snapshotSeq) + 1);
    }

    /**
     * Where a pass may cut: the candidate of the age and row limits, lowered to the lowest floor. The
     * newest event is never deleted (it carries the seq high-water a restart continues from).
     */
    public static Cut cut(Settings settings, Extent extent, List<Floor> floors) {
        if (settings.off() || extent.lastSeq() <= 0) {
            return new Cut(extent.firstSeq(), "off");
        }
        long candidate = extent.firstSeq();
        String reason = "limits";
        if (settings.maxAgeSeconds() > 0) {
            candidate = Math.max(candidate, extent.firstSeqNotTooOld());
            reason = "age";
        }
        if (settings.maxRows() > 0) {
            long byRows = extent.lastSeq() - settings.maxRows() + 1;
            if (byRows > candidate) {
                candidate = byRows;
                reason = "rows";
            }
        }
        if (candidate > extent.lastSeq()) {
            candidate = extent.lastSeq();
            reason = "newest event";
        }
        for (Floor floor : floors) {
            if (floor.seq() < candidate) {
                candidate = floor.seq();
                reason = floor.holder();
            }
        }
        return new Cut(Math.max(candidate, extent.firstSeq()), reason);
    }
}
