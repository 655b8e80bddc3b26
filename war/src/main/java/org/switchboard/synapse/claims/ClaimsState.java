package org.switchboard.synapse.claims;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.switchboard.synapse.idempotency.MutationFlow;

/** What the claim verbs need from the hub's coordination state (implemented by {@code coordination.CoordinationState}). */
public interface ClaimsState {

    /** The claim book. */
    ClaimBook book();

    /** The keyed-mutation flow (and its idempotency ledger). */
    MutationFlow flow();

    /** Holder of the latest ordered claim append; the handler sets it under the claim book's lock. */
    AtomicReference<CompletableFuture<long[]>> lastClaimAppend();

    /** An ordered claim append failed after the book applied it: rebuild the book from the journal. */
    void claimAppendLost(Throwable cause);
}
