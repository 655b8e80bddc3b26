package org.switchboard.redsyn.api;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;
import org.switchboard.redsyn.RedsynConfig;
import org.switchboard.redsyn.plan.Plan;

/**
 * Bounds every request body while it streams in ({@link JsonBodyGuard}): a declared Content-Length over
 * the bound is refused before a byte is read, a chunked body at the byte that crosses it. A 413 closes
 * the connection, so the client need not send (nor the hub drain) the rest.
 */
@Provider
@Priority(Priorities.ENTITY_CODER)
@ApplicationScoped
public class BodyLimits implements ContainerRequestFilter, ContainerResponseFilter {

    /**
     * JSON text of the {@code files} member of a send: the seed's 5 MB zip in base64, with room for
     * MIME line breaks (escaped {@code \r\n} every 76 characters) and the member's own syntax.
     */
    static final long FILES_BYTES = filesBytes(Plan.ZIP_BYTES);

    @Inject
    RedsynConfig config;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!request.hasEntity()) {
            return;
        }
        JsonBodyGuard.Limits limits = limits(request);
        int declared = request.getLength();
        if (declared > limits.maxTotalBytes()) {
            request.abortWith(Errors.response(413, "request body larger than " + (limits.maxTotalBytes() / 1024) + " KB"));
            return;
        }
        request.setEntityStream(new JsonBodyGuard(request.getEntityStream(), limits));
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (response.getStatus() == 413) {
            // the rest of the body is unread: closing beats draining megabytes nobody wants
            response.getHeaders().putSingle("Connection", "close");
        }
    }

    private JsonBodyGuard.Limits limits(ContainerRequestContext request) {
        boolean send = HttpMethod.POST.equals(request.getMethod()) && "v1/messages".equals(VersionFilter.path(request));
        return new JsonBodyGuard.Limits(config.requestMaxBytes(), send ? FILES_BYTES : 0,
                config.requestMaxDepth(), config.requestMaxNumberChars());
    }

    static long filesBytes(long zipBytes) {
        long base64 = (zipBytes + 2) / 3 * 4;
        return base64 + base64 / 19 + 1024;
    }
}
