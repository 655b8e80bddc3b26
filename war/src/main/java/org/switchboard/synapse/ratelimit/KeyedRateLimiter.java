package org.switchboard.synapse.ratelimit;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.switchboard.synapse.RateLimits;

/**
 * One {@link TokenBucket} per key (a remote host, a sender name) in a bounded map. Lookups take no
 * lock beyond the map's own per-bin locking. When the map reaches its key limit, buckets that are
 * full again are dropped (a fresh bucket is identical); if every bucket is still in use, arbitrary
 * ones are dropped down to three quarters of the limit, so a flood of keys can never grow memory
 * without bound (a dropped key merely starts again with a full burst).
 */
public final class KeyedRateLimiter {

    /** Keys kept by default: far above the hub's socket ceiling, so eviction only ever drops idle keys. */
    public static final int DEFAULT_MAX_KEYS = 4096;

    private final long intervalNanos;
    private final int burst;
    private final int maxKeys;
    private final LongSupplier nanoClock;
    private final ConcurrentHashMap<String, TokenBucket> buckets = new ConcurrentHashMap<>();
    private final AtomicBoolean sweeping = new AtomicBoolean();

    /** {@code perSecond} tokens per second per key (must be > 0), {@code burst} at most (0 = one second's worth). */
    public KeyedRateLimiter(double perSecond, int burst, int maxKeys, LongSupplier nanoClock) {
        if (!(perSecond > 0) || maxKeys < 1) {
            throw new IllegalArgumentException("rate and key limit must be positive");
        }
        this.intervalNanos = Math.max(1L, (long) (1_000_000_000d / perSecond));
        this.burst = RateLimits.effectiveBurst(perSecond, burst);
        this.maxKeys = maxKeys;
        this.nanoClock = nanoClock;
    }

    /** Charges one frame to {@code key}; false when its bucket is empty. */
    public boolean tryAcquire(String key) {
        long now = nanoClock.getAsLong();
        TokenBucket bucket = buckets.get(key);
        if (bucket == null) {
            if (buckets.size() >= maxKeys) {
                evict(now);
            }
            bucket = buckets.computeIfAbsent(key, k -> new TokenBucket(intervalNanos, burst, now));
        }
        return bucket.tryTake(now);
    }

    /** Drops the state of {@code key} (its next frame starts with a full burst). */
    public void forget(String key) {
        buckets.remove(key);
    }

    /** Keys currently tracked. */
    public int size() {
        return buckets.size();
    }

    private void evict(long now) {
        if (!sweeping.compareAndSet(false, true)) {
            return; // another thread is sweeping; the map overshoots by at most one key per concurrent caller
        }
        try {
            buckets.values().removeIf(bucket -> bucket.isFull(now));
            Iterator<String> keys = buckets.keySet().iterator();
            while (buckets.size() > maxKeys * 3 / 4 && keys.hasNext()) {
                keys.next();
                keys.remove();
            }
        } finally {
            sweeping.set(false);
        }
    }
}
