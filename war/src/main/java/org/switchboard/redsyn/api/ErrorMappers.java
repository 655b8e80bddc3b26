package org.switchboard.redsyn.api;

import jakarta.json.JsonException;
import jakarta.json.bind.JsonbException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Path;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.address.AddressException;

/** Every failure becomes {@code {"error": "...", "status": N}}: typed refusals, JAX-RS errors, validation, bad JSON. */
public final class ErrorMappers {

    private static final Logger LOG = Logger.getLogger(ErrorMappers.class.getName());

    private ErrorMappers() {
    }

    /** Typed refusals from the services. */
    @Provider
    public static class Redsyn implements ExceptionMapper<RedsynException> {
        @Override
        public Response toResponse(RedsynException e) {
            return Errors.response(e.status(), e.getMessage(), e.extra());
        }
    }

    /** 404, 405, 415 and the other JAX-RS errors. */
    @Provider
    public static class WebApplication implements ExceptionMapper<WebApplicationException> {
        @Context
        UriInfo uri;

        @Override
        public Response toResponse(WebApplicationException e) {
            int status = e.getResponse().getStatus();
            String message;
            if (e instanceof NotFoundException) {
                message = "no such resource: " + (uri == null ? "" : "/" + uri.getPath());
            } else if (e instanceof NotAllowedException) {
                message = "method not allowed here; allowed: " + String.join(", ", e.getResponse().getAllowedMethods());
            } else if (e instanceof NotSupportedException) {
                message = "send JSON with Content-Type: application/json";
            } else if (status == 400) {
                message = "bad request: " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
            } else {
                message = e.getResponse().getStatusInfo().getReasonPhrase();
            }
            return Errors.response(status, message);
        }
    }

    /** Bean Validation failures on request bodies and parameters: 422. */
    @Provider
    public static class Validation implements ExceptionMapper<ConstraintViolationException> {
        @Override
        public Response toResponse(ConstraintViolationException e) {
            String message = e.getConstraintViolations().stream()
                    .sorted(Comparator.comparing(v -> v.getPropertyPath().toString()))
                    .map(v -> field(v) + " " + v.getMessage())
                    .collect(Collectors.joining("; "));
            return Errors.response(422, message.isEmpty() ? "invalid request" : message);
        }

        private static String field(ConstraintViolation<?> v) {
            String name = "body";
            for (Path.Node node : v.getPropertyPath()) {
                if (node.getKind() == jakarta.validation.ElementKind.PROPERTY || node.getKind() == jakarta.validation.ElementKind.CONTAINER_ELEMENT) {
                    name = node.getName() == null ? name : node.getName();
                }
            }
            return name;
        }
    }

    /** Unreadable JSON. */
    @Provider
    public static class Json implements ExceptionMapper<JsonException> {
        @Override
        public Response toResponse(JsonException e) {
            return Errors.response(400, "invalid JSON: " + e.getMessage());
        }
    }

    /** JSON that does not bind to the request body's shape. */
    @Provider
    public static class Binding implements ExceptionMapper<JsonbException> {
        @Override
        public Response toResponse(JsonbException e) {
            return Errors.response(400, "invalid JSON body: " + e.getMessage());
        }
    }

    /** Entity reading failures that JAX-RS wraps. */
    @Provider
    public static class Processing implements ExceptionMapper<ProcessingException> {
        @Override
        public Response toResponse(ProcessingException e) {
            return Errors.response(400, "invalid JSON body: " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
        }
    }

    /** An address in a path that breaks the grammar. */
    @Provider
    public static class Address implements ExceptionMapper<AddressException> {
        @Override
        public Response toResponse(AddressException e) {
            return Errors.response(422, e.getMessage());
        }
    }

    /** Anything else: a concurrent conflict (409, retry) or an internal error (500, logged). */
    @Provider
    public static class Any implements ExceptionMapper<Throwable> {
        @Override
        public Response toResponse(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof RedsynException r) {
                    return Errors.response(r.status(), r.getMessage(), r.extra());
                }
                if (t instanceof WebApplicationException w) {
                    return new WebApplication().toResponse(w);
                }
                if (t instanceof ConstraintViolationException c) {
                    return new Validation().toResponse(c);
                }
                if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("23")) {
                    return Errors.response(409, "conflicting concurrent change; retry with the same id");
                }
            }
            LOG.log(Level.WARNING, "REDSYN internal error", org.switchboard.ops.LogSafe.failure(e));
            return Errors.response(500, "internal error");
        }
    }
}
