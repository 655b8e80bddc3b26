package org.switchboard.redsyn.api;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;

/**
 * The last word on every REDSYN response: {@code OPTIONS} (which the protocol does not have; the
 * runtime would answer it itself) is a 405 naming the allowed methods, and an error the runtime built
 * without a body gets the protocol's error object.
 */
@Provider
@Priority(Priorities.HEADER_DECORATOR)
@ApplicationScoped
public class ErrorShape implements ContainerResponseFilter {

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (HttpMethod.OPTIONS.equals(request.getMethod()) && response.getStatus() < 400) {
            String allow = Refusals.allowed(response.getAllowedMethods());
            replace(response, 405, "method not allowed here; allowed: " + allow);
            response.getHeaders().putSingle("Allow", allow);
            return;
        }
        if (response.getStatus() >= 400 && !(response.hasEntity() && MediaType.APPLICATION_JSON_TYPE.isCompatible(response.getMediaType()))) {
            String reason = Response.Status.fromStatusCode(response.getStatus()) == null ? null
                    : Response.Status.fromStatusCode(response.getStatus()).getReasonPhrase();
            replace(response, response.getStatus(), reason == null ? "request refused" : reason);
        }
    }

    private static void replace(ContainerResponseContext response, int status, String message) {
        Response error = Errors.response(status, message);
        response.setStatus(status);
        response.setEntity(error.getEntity(), new java.lang.annotation.Annotation[0], MediaType.APPLICATION_JSON_TYPE);
    }
}
