package org.switchboard.synapse.acl;

import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.switchboard.synapse.claims.ClaimBook;
import org.switchboard.synapse.claims.ClaimStatus;
import org.switchboard.synapse.claims.TaskClaim;

/**
 * {@link LiveClaims} over the hub's claim book: a claim counts while its lease is live and its task
 * is still held ({@code claimed}, {@code working} or {@code input_required}; not {@code done} or
 * {@code failed}).
 */
public final class HeldClaims implements LiveClaims {

    private final Supplier<ClaimBook> book;
    private final DoubleSupplier clock;

    /** Reads {@code book} (looked up on each call: the claim feature may start after the hub) at {@code clock}'s time. */
    public HeldClaims(Supplier<ClaimBook> book, DoubleSupplier clock) {
        this.book = book;
        this.clock = clock;
    }

    @Override
    public String ownerOf(String taskId) {
        ClaimBook current = book.get();
        TaskClaim claim = current == null ? null : current.claimOf(taskId, clock.getAsDouble());
        if (claim == null || ClaimStatus.DONE.equals(claim.status()) || ClaimStatus.FAILED.equals(claim.status())) {
            return null;
        }
        return claim.owner();
    }
}
