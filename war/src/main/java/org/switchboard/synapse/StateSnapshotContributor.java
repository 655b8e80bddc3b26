package org.switchboard.synapse;

import jakarta.json.JsonObjectBuilder;

/**
 * Seam for features that own parts of {@code state_snapshot.snapshot} and {@code /health} (claims,
 * resources, board). Exposed as CDI beans; without any, {@code active_claims} and {@code resources}
 * are empty arrays.
 */
public interface StateSnapshotContributor {

    /** Adds or replaces keys of the snapshot for {@code requester} (e.g. {@code active_claims}). */
    void contribute(String requester, JsonObjectBuilder snapshot);

    /**
     * Answers a read-only {@code state_request.release_confirmation} probe (advanced §10.3) for
     * {@code sender}, or null when this contributor does not own releases.
     */
    default jakarta.json.JsonObject releaseConfirmation(jakarta.json.JsonValue probe, String sender) {
        return null;
    }

    /** Live claims, for {@code /health} and {@code /metrics}. */
    default long activeClaims() {
        return 0;
    }

    /** Current resource offers, for {@code /metrics}. */
    default long resourceOffers() {
        return 0;
    }

    /** A feature counter for {@code /metrics} by its metric name (e.g. {@code synapse_claims_granted_total}); 0 if not owned. */
    default long counter(String metric) {
        return 0;
    }

    /** Board tasks, for {@code /metrics}. */
    default long boardTasks() {
        return 0;
    }
}
