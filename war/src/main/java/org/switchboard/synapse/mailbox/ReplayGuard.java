package org.switchboard.synapse.mailbox;

import java.util.concurrent.ConcurrentHashMap;

/**
 * One socket's mailbox replay racing the live fan-out: each journalled chat is written to the socket
 * once, by whichever of the two claims its seq first. A chat the replay read before its live write ran
 * is still refused to the live write after the replay finished, for {@link #KEEP_SECONDS}.
 */
final class ReplayGuard {

    /** How long the replay's own claims outlive it: far longer than a chat waits between commit and fan-out. */
    static final double KEEP_SECONDS = 60;

    /** seq → written by the replay (true) or live (false). */
    private final ConcurrentHashMap<Long, Boolean> written = new ConcurrentHashMap<>();
    private volatile double finishedAt = Double.NaN;

    /** Whether the replay may write {@code seq} (nothing wrote it live yet). */
    boolean claimForReplay(long seq) {
        return written.putIfAbsent(seq, Boolean.TRUE) == null;
    }

    /** Whether the live copy of {@code seq} may be written (the replay did not write it). */
    boolean claimLive(long seq) {
        if (finished()) {
            return !Boolean.TRUE.equals(written.get(seq)); // nothing left to race with: record no more
        }
        return !Boolean.TRUE.equals(written.putIfAbsent(seq, Boolean.FALSE));
    }

    /** The replay is over: only its own claims are kept, for live writes still on their way. */
    void finish(double now) {
        finishedAt = now;
        written.values().removeIf(byReplay -> !byReplay);
    }

    boolean finished() {
        return !Double.isNaN(finishedAt);
    }

    /** Whether no live write can still need this guard. */
    boolean expired(double now) {
        return finished() && now - finishedAt > KEEP_SECONDS;
    }

    /** Seqs currently remembered (for tests). */
    int size() {
        return written.size();
    }
}
