package org.switchboard.redsyn.api;

import jakarta.json.JsonException;
import jakarta.json.bind.JsonbException;
import jakarta.json.stream.JsonParsingException;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ValidationException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.logging.LogSafe;

/**
 * The one exception-mapper chain of REDSYN: every failure becomes {@code {"error": "...", "status": N}}
 * through {@link Refusals}. One mapper per exception family only because JAX-RS picks the most specific
 * mapper (and the runtime brings its own for some families); each hands the whole cause chain over.
 * Each implements {@code ExceptionMapper<X>} itself so that the runtime reads X off the class.
 */
public final class ErrorMappers {

    private static final Logger LOG = Logger.getLogger(ErrorMappers.class.getName());

    private ErrorMappers() {
    }

    /** The refusal for {@code e}; unexpected failures are logged once, with a reference the client also gets. */
    static Response respond(Throwable e, UriInfo uri, Request request) {
        String path = uri == null ? "" : "/" + uri.getPath();
        Refusals.Refusal r = Refusals.of(e, path);
        if (r.status() == 500) {
            String method = request == null ? "?" : request.getMethod();
            LOG.log(Level.WARNING, "REDSYN internal error " + r.extra().get("ref") + " on " + LogSafe.text(method) + " "
                    + LogSafe.text(path) + ":", LogSafe.failure(e));
        }
        Response response = Errors.response(r.status(), r.message(), r.extra());
        if (r.allow() != null) {
            return Response.fromResponse(response).header("Allow", r.allow()).build();
        }
        return response;
    }

    /** Base of the mappers: the request context the refusal names. */
    abstract static class Base {
        @Context
        UriInfo uri;

        @Context
        Request request;

        Response map(Throwable e) {
            return respond(e, uri, request);
        }
    }

    /** Typed refusals from the services. */
    @Provider
    public static class Redsyn extends Base implements ExceptionMapper<org.switchboard.redsyn.RedsynException> {
        @Override
        public Response toResponse(org.switchboard.redsyn.RedsynException e) {
            return map(e);
        }
    }

    /** 404, 405, 415 and the other JAX-RS errors. */
    @Provider
    public static class WebApplication extends Base implements ExceptionMapper<WebApplicationException> {
        @Override
        public Response toResponse(WebApplicationException e) {
            return map(e);
        }
    }

    /** Bean Validation failures on request bodies and parameters: 422 (ahead of the runtime's own mapper). */
    @Provider
    public static class Validation extends Base implements ExceptionMapper<ValidationException> {
        @Override
        public Response toResponse(ValidationException e) {
            return map(e);
        }
    }

    /** Unreadable JSON. */
    @Provider
    public static class Json extends Base implements ExceptionMapper<JsonException> {
        @Override
        public Response toResponse(JsonException e) {
            return map(e);
        }
    }

    /** Unreadable JSON, as the streaming parser reports it. */
    @Provider
    public static class JsonParsing extends Base implements ExceptionMapper<JsonParsingException> {
        @Override
        public Response toResponse(JsonParsingException e) {
            return map(e);
        }
    }

    /** JSON that does not bind to the request body's shape. */
    @Provider
    public static class Binding extends Base implements ExceptionMapper<JsonbException> {
        @Override
        public Response toResponse(JsonbException e) {
            return map(e);
        }
    }

    /** Entity reading failures that JAX-RS wraps. */
    @Provider
    public static class Processing extends Base implements ExceptionMapper<ProcessingException> {
        @Override
        public Response toResponse(ProcessingException e) {
            return map(e);
        }
    }

    /** An address in a path that breaks the grammar. */
    @Provider
    public static class Address extends Base implements ExceptionMapper<org.switchboard.redsyn.address.AddressException> {
        @Override
        public Response toResponse(org.switchboard.redsyn.address.AddressException e) {
            return map(e);
        }
    }

    /** Constraint violations thrown outside parameter validation. */
    @Provider
    public static class Constraints extends Base implements ExceptionMapper<ConstraintViolationException> {
        @Override
        public Response toResponse(ConstraintViolationException e) {
            return map(e);
        }
    }

    /** Anything else: a concurrent conflict (409, retry) or an internal error (500, logged). */
    @Provider
    public static class Any extends Base implements ExceptionMapper<Throwable> {
        @Override
        public Response toResponse(Throwable e) {
            return map(e);
        }
    }
}
