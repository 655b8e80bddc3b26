package org.switchboard.ops.operator;

import jakarta.ejb.ApplicationException;

/**
 * A refused operator request: bad input (400), nothing to act on (404) or unsupported here (409), with its sentence.
 * An application exception, so that an EJB caller (the JMX operations bean) hands it over as it is, with its
 * transaction rolled back, instead of wrapping it in an {@code EJBException} the container logs as a failure.
 */
@ApplicationException(rollback = true)
public final class OperatorRefusal extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;

    /** A refusal with an HTTP-like status and a sentence safe to show the operator. */
    public OperatorRefusal(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }

    /** 400: the request itself is wrong (missing reason, bad id). */
    public static OperatorRefusal badRequest(String message) {
        return new OperatorRefusal(400, message);
    }

    /** 404: the connection, claim or delivery does not exist (any more). */
    public static OperatorRefusal notFound(String message) {
        return new OperatorRefusal(404, message);
    }

    /** 409: the operation does not apply to this hub (e.g. an H2 backup on PostgreSQL). */
    public static OperatorRefusal conflict(String message) {
        return new OperatorRefusal(409, message);
    }
}
