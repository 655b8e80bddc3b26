package org.switchboard.redsyn.directory;

/** Online means seen (a take, or a webhook acceptance) within the offline-after window. */
public final class Presence {

    private Presence() {
    }

    /** True when {@code lastSeenMillis} is within {@code offlineAfterSeconds} of {@code nowMillis}. */
    public static boolean online(long lastSeenMillis, long nowMillis, int offlineAfterSeconds) {
        return lastSeenMillis > 0 && nowMillis - lastSeenMillis < offlineAfterSeconds * 1000L;
    }
}
