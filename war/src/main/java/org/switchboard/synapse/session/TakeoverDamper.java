package org.switchboard.synapse.session;

import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Takeover damping (§4.4 step 3): a 2 s cooldown between takeovers of one name, and a 60 s
 * quarantine once a takeover would be the 5th within 30 s.
 */
public final class TakeoverDamper {

    /** Verdict for one takeover attempt. */
    public enum Verdict { ACCEPT, COOLDOWN, QUARANTINE }

    static final double COOLDOWN_SECONDS = 2;
    static final double WINDOW_SECONDS = 30;
    static final int OSCILLATION_LIMIT = 5;
    static final double QUARANTINE_SECONDS = 60;

    private final ConcurrentHashMap<String, History> histories = new ConcurrentHashMap<>();

    private static final class History {
        final ArrayDeque<Double> accepted = new ArrayDeque<>();
        double quarantinedUntil = Double.NEGATIVE_INFINITY;
    }

    /** Decides and, when accepted, records a takeover of {@code name} at {@code now}. */
    public Verdict attempt(String name, double now) {
        History history = histories.computeIfAbsent(name, n -> new History());
        synchronized (history) {
            if (now < history.quarantinedUntil) {
                return Verdict.QUARANTINE;
            }
            while (!history.accepted.isEmpty() && now - history.accepted.peekFirst() > WINDOW_SECONDS) {
                history.accepted.removeFirst();
            }
            Double last = history.accepted.peekLast();
            if (last != null && now - last < COOLDOWN_SECONDS) {
                return Verdict.COOLDOWN;
            }
            if (history.accepted.size() + 1 >= OSCILLATION_LIMIT) {
                history.quarantinedUntil = now + QUARANTINE_SECONDS;
                history.accepted.clear();
                return Verdict.QUARANTINE;
            }
            history.accepted.addLast(now);
            return Verdict.ACCEPT;
        }
    }
}
