package org.switchboard.synapse.idempotency;

/**
 * The request cannot be written as strict canonical JSON (synapse-core §15.3): the handler answers
 * {@code error} {@link RequestDigest#NON_CANONICAL_SENTENCE} with {@code error_code}
 * {@code invalid_idempotency_request}.
 */
public final class NonCanonicalException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception with a short internal reason (never sent to clients). */
    public NonCanonicalException(String reason) {
        super(reason);
    }
}
