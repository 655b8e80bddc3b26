package org.switchboard.journal;

/**
 * How the journal writer groups appends into transactions.
 *
 * @param maxRowsPerBatch   rows (events plus outbox rows) one transaction may carry; a single
 *                          append larger than this still commits alone, never split
 * @param maxQueuedRows     rows waiting for the writer before new appends are refused, so a stalled
 *                          database turns into fast failures instead of unbounded memory
 * @param idleParkNanos     longest the idle writer sleeps before re-checking its queue (a safety
 *                          net: appenders wake it directly)
 */
public record GroupCommitPolicy(int maxRowsPerBatch, int maxQueuedRows, long idleParkNanos) {

    /** Defaults sized for a few hundred rows per commit on an embedded database. */
    public static final GroupCommitPolicy DEFAULT = new GroupCommitPolicy(512, 200_000, 10_000_000L);

    /** Validates the bounds. */
    public GroupCommitPolicy {
        if (maxRowsPerBatch < 1 || maxQueuedRows < maxRowsPerBatch || idleParkNanos < 1) {
            throw new IllegalArgumentException("invalid group commit policy");
        }
    }
}
