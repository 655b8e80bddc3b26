package org.switchboard.synapse.chat;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Durable ingress quotas (§7.12): a sliding window per quota principal over accepted chat,
 * limiting events and UTF-8 bytes; the tracked principal set is bounded and fails closed.
 */
public final class IngressQuotas {

    private final int maxEvents;
    private final long maxBytes;
    private final double window;
    private final int maxPrincipals;
    private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

    private static final class Bucket {
        final ArrayDeque<double[]> events = new ArrayDeque<>();
        long bytes;

        void prune(double now, double window) {
            while (!events.isEmpty() && now - events.peekFirst()[0] > window) {
                bytes -= (long) events.removeFirst()[1];
            }
        }
    }

    /** Quotas with the given limits (window in seconds). */
    public IngressQuotas(int maxEvents, long maxBytes, double window, int maxPrincipals) {
        this.maxEvents = maxEvents;
        this.maxBytes = maxBytes;
        this.window = window;
        this.maxPrincipals = maxPrincipals;
    }

    /** Charges one chat; returns null when admitted, else the refusal reason. */
    public String charge(String principal, long frameBytes, double now) {
        if (frameBytes > maxBytes) {
            return "oversized";
        }
        Bucket bucket = buckets.get(principal);
        if (bucket == null) {
            if (buckets.size() >= maxPrincipals && !evictIdle(now)) {
                return "principal-capacity";
            }
            bucket = buckets.computeIfAbsent(principal, p -> new Bucket());
        }
        synchronized (bucket) {
            bucket.prune(now, window);
            if (bucket.events.size() >= maxEvents) {
                return "events";
            }
            if (bucket.bytes + frameBytes > maxBytes) {
                return "bytes";
            }
            bucket.events.addLast(new double[] {now, frameBytes});
            bucket.bytes += frameBytes;
        }
        return null;
    }

    private boolean evictIdle(double now) {
        for (Map.Entry<String, Bucket> e : buckets.entrySet()) {
            Bucket bucket = e.getValue();
            synchronized (bucket) {
                bucket.prune(now, window);
                if (bucket.events.isEmpty()) {
                    buckets.remove(e.getKey(), bucket);
                    return true;
                }
            }
        }
        return false;
    }
}
