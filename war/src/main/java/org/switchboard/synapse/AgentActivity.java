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
