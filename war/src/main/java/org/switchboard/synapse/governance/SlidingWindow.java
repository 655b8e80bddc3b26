package org.switchboard.synapse.governance;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * A per-key sliding-window counter of events and their bytes: how many a key may still add within
 * the last {@code windowSeconds}. Used for the enrolment rate (§7.2) and the guard-evidence window
 * (§7.5). Thread-safe; idle keys are dropped when their window empties.
 */
public final class SlidingWindow {

    private record Hit(double at, long bytes) {
    }

    private final int maxEvents;
    private final long maxBytes;
    private final double windowSeconds;
    private final int maxKeys;
    private final Map<String, Deque<Hit>> hits = new HashMap<>();

    /** At most {@code maxEvents} events and {@code maxBytes} bytes per key per window, {@code maxKeys} keys tracked. */
    public SlidingWindow(int maxEvents, long maxBytes, double windowSeconds, int maxKeys) {
        this.maxEvents = maxEvents;
        this.maxBytes = maxBytes;
        this.windowSeconds = windowSeconds;
        this.maxKeys = maxKeys;
    }

    /** Why {@code key} may not add an event of {@code bytes} now: {@code events}, {@code bytes}, {@code oversized}, {@code principal-capacity}; null when it may. */
    public synchronized String refusal(String key, long bytes, double now) {
        if (bytes > maxBytes) {
            return "oversized";
        }
        Deque<Hit> window = live(key, now);
        if (window == null) {
            if (hits.size() >= maxKeys) {
                hits.entrySet().removeIf(e -> {
                    prune(e.getValue(), now);
                    return e.getValue().isEmpty();
                });
                if (hits.size() >= maxKeys) {
                    return "principal-capacity";
                }
            }
            return null;
        }
        if (window.size() >= maxEvents) {
            return "events";
        }
        long used = 0;
        for (Hit hit : window) {
            used += hit.bytes();
        }
        return used + bytes > maxBytes ? "bytes" : null;
    }

    /** Counts one event of {@code bytes} for {@code key} at {@code now}. */
    public synchronized void record(String key, long bytes, double now) {
        hits.computeIfAbsent(key, k -> new ArrayDeque<>()).addLast(new Hit(now, bytes));
    }

    private Deque<Hit> live(String key, double now) {
        Deque<Hit> window = hits.get(key);
        if (window == null) {
            return null;
        }
        prune(window, now);
        if (window.isEmpty()) {
            hits.remove(key);
            return null;
        }
        return window;
    }

    private void prune(Deque<Hit> window, double now) {
        while (!window.isEmpty() && window.peekFirst().at() <= now - windowSeconds) {
            window.pollFirst();
        }
    }
}
