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
 * @param lingerRows        a batch with fewer rows than this waits for more appends before it
 *                          commits (0 = never wait)
 * @param lingerNanos       the longest such wait; the writer waits as long as its previous commit
 *                          took, capped here, so a slower database gets proportionally larger batches
 *                          while a fast one adds almost no latency
 * @param lingerFloorNanos  the shortest such wait whatever the previous commit took (0 = none): at a
 *                          moderate steady rate fast commits otherwise carry a few rows each, and their
 *                          fixed cost then dominates the hub's CPU (issue 18: 3.8 and 1.8 events per
 *                          commit on two peered hubs at 1,000 forwards/s)
 * @param promptLingerFloorNanos the floor instead, when it is shorter, for a batch that holds a prompt
 *                          append: one a client waits on before its next step (a session-bound delivery
 *                          request or stage report, four round trips per cycle), where each wait adds
 *                          to the client's latency; 0 = prompt appends wait as long as any other
 */
public record GroupCommitPolicy(int maxRowsPerBatch, int maxQueuedRows, long idleParkNanos, int lingerRows,
                                long lingerNanos, long lingerFloorNanos, long promptLingerFloorNanos) {

    /**
     * Defaults sized for a few hundred rows per commit on an embedded database. The linger matters
     * on H2 with {@code WRITE_DELAY=0}: every commit writes a new file chunk and rewrites part of the
     * chunk index, a cost that barely depends on the rows it carries, so a stream of one-row commits
     * spent most of the hub's CPU there (measured under SynapseChatBench; see benchmarks.md). The
     * linger is capped at 1 ms: a commit's wall time includes waiting for a core, so on a busy machine
     * a longer cap fed back on itself (a longer wait made a bigger batch, whose commit took longer
     * again) and held half-load latency at several times its usual level for seconds at a time;
     * 0.25 ms made commits so frequent that the hub ran out of CPU.
     */
    public static final GroupCommitPolicy DEFAULT = new GroupCommitPolicy(512, 200_000, 10_000_000L, 64, 1_000_000L);

    /** A policy that commits whatever is queued at once (no linger). */
    public GroupCommitPolicy(int maxRowsPerBatch, int maxQueuedRows, long idleParkNanos) {
        this(maxRowsPerBatch, maxQueuedRows, idleParkNanos, 0, 0);
    }

    /** A policy without a linger floor. */
    public GroupCommitPolicy(int maxRowsPerBatch, int maxQueuedRows, long idleParkNanos, int lingerRows, long lingerNanos) {
        this(maxRowsPerBatch, maxQueuedRows, idleParkNanos, lingerRows, lingerNanos, 0, 0);
    }

    /** This policy with a small batch waiting at least {@code nanos} (0 = no floor). */
    public GroupCommitPolicy withLingerFloor(long nanos) {
        return new GroupCommitPolicy(maxRowsPerBatch, maxQueuedRows, idleParkNanos, lingerRows, lingerNanos, nanos,
                promptLingerFloorNanos);
    }

    /** This policy with a small batch committing as soon as it holds {@code rows} rows (0 = never wait). */
    public GroupCommitPolicy withLingerRows(int rows) {
        return new GroupCommitPolicy(maxRowsPerBatch, maxQueuedRows, idleParkNanos, rows, lingerNanos, lingerFloorNanos,
                promptLingerFloorNanos);
    }

    /** This policy with a batch holding a prompt append waiting at least {@code nanos}, if shorter than the floor. */
    public GroupCommitPolicy withPromptLingerFloor(long nanos) {
        return new GroupCommitPolicy(maxRowsPerBatch, maxQueuedRows, idleParkNanos, lingerRows, lingerNanos, lingerFloorNanos,
                nanos);
    }

    /** Validates the bounds. */
    public GroupCommitPolicy {
        if (maxRowsPerBatch < 1 || maxQueuedRows < maxRowsPerBatch || idleParkNanos < 1 || lingerRows < 0
                || lingerNanos < 0 || lingerFloorNanos < 0 || promptLingerFloorNanos < 0) {
            throw new IllegalArgumentException("invalid group commit policy");
        }
    }

    /** True when a batch of {@code rows} should wait for more appends. */
    boolean shouldLinger(int rows) {
        return (lingerNanos > 0 || lingerFloorNanos > 0) && rows < Math.min(lingerRows, maxRowsPerBatch);
    }

    /** The floor of a batch: the shorter prompt floor when it holds a prompt append and one is set. */
    long floorFor(boolean prompt) {
        return prompt && promptLingerFloorNanos > 0 ? Math.min(lingerFloorNanos, promptLingerFloorNanos) : lingerFloorNanos;
    }

    /**
     * How long a small batch waits, given how long the previous commit took and how many rows are
     * expected to arrive within its floor ({@link #floorFor}).
     */
    long lingerAfter(long lastCommitNanos, double rowsExpectedWithinFloor, boolean prompt) {
        long afterCommit = Math.max(0, Math.min(lingerNanos, lastCommitNanos));
        return rowsExpectedWithinFloor >= 1.0 ? Math.max(floorFor(prompt), afterCommit) : afterCommit;
    }
}
