package org.switchboard.synapse.federation.outbound;

/** The retry schedule of an unanswered forward (synapse-advanced §4.6): 1, 2, 4 … 256, then 300 s. */
public final class ForwardBackoff {

    /** Longest wait between two attempts, in seconds. */
    public static final long CAP_SECONDS = 300;

    private ForwardBackoff() {
    }

    /** Seconds to wait after the {@code attempts}-th failed attempt ({@code attempts} ≥ 1): min(300, 2^(attempts−1)). */
    public static long delaySeconds(int attempts) {
        return delaySeconds(attempts, CAP_SECONDS);
    }

    /** As {@link #delaySeconds(int)} with a lower cap (at least 1 s): an operator's shorter outage recovery. */
    public static long delaySeconds(int attempts, long capSeconds) {
        long cap = Math.max(1, Math.min(CAP_SECONDS, capSeconds));
        return Math.min(cap, uncapped(attempts));
    }

    private static long uncapped(int attempts) {
        if (attempts <= 1) {
            return 1;
        }
        if (attempts - 1 >= 9) { // 2^9 = 512 > 300; also keeps the shift in range
            return CAP_SECONDS;
        }
        return Math.min(CAP_SECONDS, 1L << (attempts - 1));
    }
}
