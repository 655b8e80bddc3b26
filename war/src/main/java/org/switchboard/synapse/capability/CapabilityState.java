package org.switchboard.synapse.capability;

import org.switchboard.synapse.idempotency.MutationFlow;

/** What the capability verbs need from the hub's coordination state (implemented by {@code coordination.CoordinationState}). */
public interface CapabilityState {

    /** The capability registry. */
    CapabilityRegistry capabilities();

    /** The keyed-mutation flow (and its idempotency ledger). */
    MutationFlow flow();
}
