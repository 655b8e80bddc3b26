package org.switchboard.synapse;

/**
 * The two optional frame rate limits of §5 (steps 3 and 17): frames per second and burst, per
 * remote host and per bound sender name. A rate of 0 switches that limit off; a burst of 0 means
 * one second's worth of frames (at least 1).
 */
public record RateLimits(double perSenderPerSecond, int perSenderBurst, double perHostPerSecond, int perHostBurst) {

    /** Both limits off (the default). */
    public static final RateLimits OFF = new RateLimits(0, 0, 0, 0);

    /** True when the per-sender limit is on. */
    public boolean perSenderOn() {
        return perSenderPerSecond > 0;
    }

    /** True when the per-host limit is on. */
    public boolean perHostOn() {
        return perHostPerSecond > 0;
    }

    /** The burst actually used for a limit: the configured one, or one second's worth when 0. */
    public static int effectiveBurst(double perSecond, int burst) {
        return burst > 0 ? burst : (int) Math.max(1, Math.ceil(perSecond));
    }
}
