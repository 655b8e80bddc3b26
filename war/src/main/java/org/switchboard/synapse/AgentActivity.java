package org.switchboard.synapse;

/** Liveness bookkeeping for one name (§4.8): last frame of any kind and last non-heartbeat reaction. */
public final class AgentActivity {

    private volatile double lastSeen;
    private volatile double lastReaction = Double.NaN;

    /** Epoch seconds of the last frame from this name. */
    public double lastSeen() {
        return lastSeen;
    }

    /** Epoch seconds of the last reaction, NaN if none. */
    public double lastReaction() {
        return lastReaction;
    }

    /**
     * Seconds from the last reaction to {@code now} (never negative), or null when there is none. Reads
     * the reaction once: a check followed by a second read could see a concurrent reset between them
     * and compute NaN, which no JSON number can carry.
     */
    public Double reactionAge(double now) {
        double reacted = lastReaction;
        return Double.isNaN(reacted) ? null : Math.max(0, now - reacted);
    }

    void seen(double now) {
        lastSeen = now;
    }

    void reacted(double now) {
        lastReaction = now;
    }

    void forgetReaction() {
        lastReaction = Double.NaN;
    }
}
