package org.switchboard.journal;

/**
 * How long the embedded H2 file keeps a chunk no page uses any more before its space may be written
 * over ({@code RETENTION_TIME}). H2's 45 s assumes the operating system flushes the file within that
 * time on its own. The journal forces the file to disk every {@code hub.journal.sync-interval-ms}, so a
 * chunk that died more than a few sync intervals ago is covered by a synced newer state, and keeping it
 * longer only keeps its entry in H2's chunk table: at hundreds of commits a second, 45 s of dead chunks
 * were most of the table whose size H2's chunk statistics and compaction scan (issue 20, the local-chat
 * tail). Without the forced sync the hub keeps H2's own 45 s.
 */
public final class H2FileRetention {

    /** H2's default for a file store: what the hub uses when it does not force the file to disk itself. */
    public static final int H2_DEFAULT_MILLIS = 45_000;
    /** Never shorter than this, however often the file is synced (a sync can itself take a while under load). */
    public static final int FLOOR_MILLIS = 5_000;

    private H2FileRetention() {
    }

    /**
     * The retention for a hub that forces the file to disk every {@code syncIntervalMillis} (0 or less:
     * never): at least four sync intervals and {@link #FLOOR_MILLIS}, H2's default when that would exceed it
     * or when there is no forced sync.
     */
    public static int millis(long syncIntervalMillis) {
        if (syncIntervalMillis <= 0 || syncIntervalMillis > H2_DEFAULT_MILLIS / 4) {
            return H2_DEFAULT_MILLIS;
        }
        return (int) Math.max(FLOOR_MILLIS, 4 * syncIntervalMillis);
    }
}
