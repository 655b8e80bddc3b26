package org.switchboard.synapse.board;

import org.switchboard.synapse.idempotency.MutationFlow;

/** What the board verbs need from the hub's coordination state (implemented by {@code coordination.CoordinationState}). */
public interface BoardState {

    /** The blackboard. */
    Blackboard board();

    /** The keyed-mutation flow (and its idempotency ledger). */
    MutationFlow flow();
}
