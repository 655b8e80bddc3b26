package org.switchboard.synapse.ratelimit;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A token bucket holding up to {@code burst} tokens and refilled at a fixed rate, kept as a single
 * "theoretical arrival time" (the GCRA form of a token bucket) so that taking a token is one CAS:
 * no lock and no allocation. Times are {@link System#nanoTime()}-style readings.
 */
final class TokenBucket {

    private final long intervalNanos;
    private final long toleranceNanos;
    /** When the bucket will be full again; at or before "now" means it is full. */
    private final AtomicLong fullAt;

    /** A full bucket; {@code intervalNanos} refills one token, {@code burst} tokens fit. */
    TokenBucket(long intervalNanos, int burst, long now) {
        this.intervalNanos = intervalNanos;
        this.toleranceNanos = intervalNanos * (burst - 1L);
        this.fullAt = new AtomicLong(now);
    }

    /** Takes one token if one is available at {@code now}. */
    boolean tryTake(long now) {
        while (true) {
            long current = fullAt.get();
            long base = current - now < 0 ? now : current;
            if (base - now > toleranceNanos) {
                return false;
            }
            if (fullAt.compareAndSet(current, base + intervalNanos)) {
                return true;
            }
        }
    }

    /** True when no token has been missing since {@code now} (forgetting the bucket loses nothing). */
    boolean isFull(long now) {
        return fullAt.get() - now <= 0;
    }
}
