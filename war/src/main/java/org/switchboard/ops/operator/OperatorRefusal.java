package org.switchboard.ops.operator;

/** A refused operator request: bad input (400), nothing to act on (404) or unsupported here (409), with its sentence. */
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
