package org.switchboard.synapse.session;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bound of one socket's outbound queue ({@code hub.outbound-max-bytes}): frames queued or in
 * flight, counted in characters of frame text (the bytes of the ASCII JSON the hub writes; what a
 * queued frame holds on the heap). A frame is admitted while the total stays within the bound, and
 * always when nothing is queued, so one frame larger than the bound still reaches a reader that keeps up.
 */
final class OutboundBound {

    private final long max;
    private final AtomicLong queued = new AtomicLong();

    OutboundBound(long max) {
        this.max = Math.max(1, max);
    }

    /** Counts a frame of {@code size} in and returns true, or returns false (nothing counted) when it does not fit. */
    boolean admit(long size) {
        while (true) {
            long current = queued.get();
            if (current > 0 && current + size > max) {
                return false;
            }
            if (queued.compareAndSet(current, current + size)) {
                return true;
            }
        }
    }

    /** A frame of {@code size} was written or dropped. */
    void release(long size) {
        queued.addAndGet(-size);
    }

    /** Characters queued or in flight. */
    long queued() {
        return queued.get();
    }
}
