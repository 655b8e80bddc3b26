package org.switchboard.redsyn.inbox;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.switchboard.redsyn.message.DeliveryState;

/**
 * Which waiting messages a take hands out: in order per session, never one whose session has an
 * earlier message still leased, never an expired one, never one due to be abandoned.
 */
public final class LeaseRules {

    private static final int QUEUED = DeliveryState.QUEUED;
    private static final int TAKEN = DeliveryState.TAKEN;

    /** A waiting or leased message, as the take query sees it (in sequence order). */
    public record Candidate(String id, int state, long leaseUntil, int attempts, long expiresAt,
                            String orderKey, String replyTo) {
    }

    /** What an ack does to a message addressed to the acking agent. */
    public enum AckOutcome {
        /** Acked before (or answered): reported as acked again, nothing changes. */
        ALREADY_DONE,
        /** Taken (or given back after a take): becomes done if its state has not changed meanwhile. */
        CONFIRM,
        /** Never taken, or ended otherwise (abandoned, expired, cancelled): not acked. */
        REFUSE
    }

    /** What to do with a message whose lease ran out. */
    public enum Expiry { REQUEUE, ABANDON }

    private LeaseRules() {
    }

    /** True when nobody holds a valid lease on it. */
    public static boolean available(Candidate c, long now) {
        return c.state() == QUEUED || (c.state() == TAKEN && c.leaseUntil() <= now);
    }

    /**
     * The ids to lease, in order.
     *
     * @param ordered      candidates in sequence order
     * @param replyTo      only replies/progress to this request, or null for anything
     */
    public static List<String> choose(List<Candidate> ordered, long now, int maxAttempts, int maxItems, String replyTo) {
        List<String> chosen = new ArrayList<>();
        Set<String> blocked = new HashSet<>();
        for (Candidate c : ordered) {
            if (chosen.size() >= maxItems) {
                break;
            }
            if (!available(c, now)) {
                blocked.add(c.orderKey()); // an earlier message of this session is still out
                continue;
            }
            if (c.expiresAt() <= now || c.attempts() >= maxAttempts) {
                continue; // the sweeper reports these to the sender
            }
            if (blocked.contains(c.orderKey())) {
                continue;
            }
            if (replyTo != null && !replyTo.equals(c.replyTo())) {
                blocked.add(c.orderKey()); // keep the session's order even when filtering
                continue;
            }
            chosen.add(c.id());
        }
        return chosen;
    }

    /** An ack of a message in {@code state} taken {@code attempts} times. */
    public static AckOutcome onAck(int state, int attempts) {
        if (state == DeliveryState.DONE) {
            return AckOutcome.ALREADY_DONE;
        }
        return state == TAKEN || (state == QUEUED && attempts > 0) ? AckOutcome.CONFIRM : AckOutcome.REFUSE;
    }

    /** A lease ran out: back to the queue, or abandoned after {@code maxAttempts} takes. */
    public static Expiry onLeaseExpired(int attempts, int maxAttempts) {
        return attempts >= maxAttempts ? Expiry.ABANDON : Expiry.REQUEUE;
    }

    /** The lease a take gets: the asked seconds (default when absent), at least 1, at most the maximum. */
    public static int leaseSeconds(Integer asked, int defaultSeconds, int maxSeconds) {
        int lease = asked == null ? defaultSeconds : asked;
        return Math.max(1, Math.min(lease, maxSeconds));
    }

    /** The long-poll wait: 0 to the maximum. */
    public static int waitSeconds(Integer asked, int maxSeconds) {
        return asked == null ? 0 : Math.max(0, Math.min(asked, maxSeconds));
    }
}
