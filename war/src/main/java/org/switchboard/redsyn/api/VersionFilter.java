package org.switchboard.redsyn.api;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.directory.Caller;
import org.switchboard.redsyn.directory.AccountService;
import org.switchboard.redsyn.VersionDates;

/**
 * The dated API version: {@code Redsyn-Version} when sent (400 with the known dates when unknown),
 * else the date the caller's organisation was pinned to; echoed on every {@code /redsyn/v1} response.
 */
@Provider
@Priority(Priorities.AUTHORIZATION)
@ApplicationScoped
public class VersionFilter implements ContainerRequestFilter, ContainerResponseFilter {

    /** Request property holding the date in use. */
    public static final String PROPERTY = "redsyn.version";

    @Inject
    AccountService accounts;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!path(request).startsWith("v1")) {
            return;
        }
        Caller caller = request.getSecurityContext().getUserPrincipal() instanceof Caller c ? c : null;
        try {
            String pinned = caller == null ? null : accounts.pinnedVersion(caller.personId());
            request.setProperty(PROPERTY, VersionDates.resolve(request.getHeaderString(VersionDates.HEADER), pinned));
        } catch (RedsynException e) {
            request.abortWith(Errors.response(e.status(), e.getMessage(), e.extra()));
        }
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (path(request).startsWith("admin")) {
            return;
        }
        Object used = request.getProperty(PROPERTY);
        response.getHeaders().putSingle(VersionDates.HEADER, used != null ? used : VersionDates.latest());
    }

    /** The request path relative to /redsyn, without a leading slash. */
    static String path(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        return path.startsWith("/") ? path.substring(1) : path;
    }

    /**
     * The date in use for this request. Read from the servlet request: JAX-RS keeps request properties
     * in step with its attributes in a Servlet container, and {@code HttpServletRequest} is a portable
     * {@code @Context} parameter (RESTEasy refuses {@code ContainerRequestContext} there).
     */
    public static String used(HttpServletRequest request) {
        Object used = request.getAttribute(PROPERTY);
        return used != null ? used.toString() : VersionDates.latest();
    }
}
