package org.switchboard.redsyn;

import java.util.Map;

/** A typed REDSYN refusal: rendered as {@code {"error": message, "status": status, ...extra}}. */
public class RedsynException extends RuntimeException {

    private final int status;
    private final Map<String, Object> extra;

    public RedsynException(int status, String message) {
        this(status, message, Map.of());
    }

    public RedsynException(int status, String message, Map<String, Object> extra) {
        super(message, null, false, false);
        this.status = status;
        this.extra = Map.copyOf(extra);
    }

    public int status() {
        return status;
    }

    /** Extra members of the error object, e.g. {@code quota: true} or the list of known dates. */
    public Map<String, Object> extra() {
        return extra;
    }

    public static RedsynException badRequest(String message) {
        return new RedsynException(400, message);
    }

    public static RedsynException unauthorized(String message) {
        return new RedsynException(401, message);
    }

    public static RedsynException forbidden(String message) {
        return new RedsynException(403, message);
    }

    public static RedsynException notFound(String message) {
        return new RedsynException(404, message);
    }

    public static RedsynException conflict(String message) {
        return new RedsynException(409, message);
    }

    public static RedsynException unprocessable(String message) {
        return new RedsynException(422, message);
    }
}
