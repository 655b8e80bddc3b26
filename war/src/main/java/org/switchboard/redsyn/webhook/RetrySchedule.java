package org.switchboard.redsyn.webhook;

import java.time.Duration;

/**
 * When a failed webhook delivery is tried again: 10 s, 20 s, 40 s ... doubling up to one hour, ten
 * retries (eleven attempts in all), every interval multiplied by a test-only scale.
 */
public final class RetrySchedule {

    /** Retries after the first attempt, as the document says. */
    public static final int RETRIES = 10;
    /** The first attempt plus {@link #RETRIES}. */
    public static final int MAX_ATTEMPTS = RETRIES + 1;

    private static final long FIRST_MILLIS = 10_000;
    private static final long CAP_MILLIS = 3_600_000;

    private final double scale;

    /** A schedule whose intervals are multiplied by {@code scale} (1.0 in production). */
    public RetrySchedule(double scale) {
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("retry scale must be a positive number, not " + scale);
        }
        this.scale = scale;
    }

    /** What happens after attempt number {@code attempt} (1-based) failed: the delay before the next, or null to give up. */
    public Duration afterFailure(int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempts count from 1");
        }
        if (attempt >= MAX_ATTEMPTS) {
            return null;
        }
        long unscaled = attempt > 20 ? CAP_MILLIS : Math.min(CAP_MILLIS, FIRST_MILLIS << (attempt - 1));
        return Duration.ofMillis(Math.max(1, Math.round(unscaled * scale)));
    }

    /** True when a response status takes the message. */
    public static boolean accepted(int status) {
        return status >= 200 && status < 300;
    }
}
