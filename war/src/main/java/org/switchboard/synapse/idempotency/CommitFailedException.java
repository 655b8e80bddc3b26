package org.switchboard.synapse.idempotency;

/** The journal append of a {@link Mutation} failed; nothing was applied or published. */
public final class CommitFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Wraps the storage failure (log it server-side only, never send it). */
    public CommitFailedException(Throwable cause) {
        super("journal append failed", cause);
    }
}
