package org.switchboard.synapse.messageauth;

import java.util.Map;

/** Where accepted nonces outlive the process (the {@code synapse_message_auth_nonce} table), so a restart reopens none. */
public interface NonceStore {

    /** The live entries (id → expiry, epoch seconds) at start-up. */
    Map<String, Double> live(double now);

    /**
     * Records an accepted nonce, durable before the frame's effect is acknowledged (at once, or, for
     * {@link JournalNonceStore}, in the frame's journal commit); false when the id is already stored
     * (a replay that raced the cache) or cannot be written.
     */
    boolean record(String id, double expiresAt);

    /** Deletes the entries that expired before {@code now} (those a cheap range delete finds; see {@link #pruneAll}). */
    void prune(double now);

    /** Deletes every entry that expired before {@code now}, however it was stored (start-up). */
    default void pruneAll(double now) {
        prune(now);
    }

    /** A store that keeps nothing (unit tests, hubs without a database). */
    NonceStore NONE = new NonceStore() {
        @Override
        public Map<String, Double> live(double now) {
            return Map.of();
        }

        @Override
        public boolean record(String id, double expiresAt) {
            return true;
        }

        @Override
        public void prune(double now) {
        }
    };
}
