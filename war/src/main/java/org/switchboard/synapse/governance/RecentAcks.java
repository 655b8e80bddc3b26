package org.switchboard.synapse.governance;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The acknowledgements a {@code guard_denial} retry may replay, by key, keeping only the most recently
 * recorded ones: a token holder sending a fresh {@code idem_key} with every report would otherwise grow
 * the map (and, through the start-up replay of every journalled row, the heap after each restart) without
 * bound. A retry older than the kept ones is recorded again, as one without a key would be.
 */
final class RecentAcks<V> {

    private final Map<String, V> kept;

    /** At most {@code capacity} keys; the oldest recorded is dropped first. */
    RecentAcks(int capacity) {
        this.kept = new LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > capacity;
            }
        };
    }

    synchronized V get(String key) {
        return kept.get(key);
    }

    synchronized void put(String key, V value) {
        kept.put(key, value);
    }

    synchronized int size() {
        return kept.size();
    }

    /** The kept keys and values, oldest recorded first (a snapshot writes them back in this order). */
    synchronized java.util.List<Map.Entry<String, V>> entries() {
        return java.util.List.copyOf(kept.entrySet().stream().map(e -> Map.entry(e.getKey(), e.getValue())).toList());
    }
}
