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

    /** Live claims, for {@code /health} and {@code /metrics}. */
    default long activeClaims() {
        return 0;
    }

    /** Current resource offers, for {@code /metrics}. */
    default long resourceOffers() {
        return 0;
    }

    /** Board tasks, for {@code /metrics}. */
    default long boardTasks() {
        return 0;
    }
}
