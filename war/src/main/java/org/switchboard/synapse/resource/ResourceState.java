package org.switchboard.synapse.resource;

import org.switchboard.synapse.idempotency.MutationFlow;

/** What the resource verbs need from the hub's coordination state (implemented by {@code coordination.CoordinationState}). */
public interface ResourceState {

    /** The resource offers. */
    ResourceOffers resources();

    /** The keyed-mutation flow (and its idempotency ledger). */
    MutationFlow flow();
}
