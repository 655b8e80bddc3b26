package org.switchboard.synapse.idempotency;

/**
 * Makes a {@link Mutation}'s events durable. Rule classes call it while they hold their own lock,
 * after computing the change and before applying it; if it throws, nothing is applied.
 */
@FunctionalInterface
public interface MutationCommit {

    /** For hubs without a journal (and tests): nothing to append. */
    MutationCommit NONE = mutation -> { };

    /** Appends {@code mutation.events()} (and, for keyed requests, the operation record) and returns once committed. */
    void commit(Mutation mutation) throws Exception;
}
