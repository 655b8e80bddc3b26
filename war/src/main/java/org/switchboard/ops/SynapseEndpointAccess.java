package org.switchboard.ops;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.switchboard.synapse.SynapseSettings;

/** Access rule shared by the SYNAPSE {@code /health} and {@code /metrics} servlets (§17). */
final class SynapseEndpointAccess {

    private SynapseEndpointAccess() {
    }

    /** True when the request may proceed; otherwise the 503/403/401 answer has been written. */
    static boolean allowed(org.switchboard.synapse.hub.SynapseRuntime runtime, HttpServletRequest request,
                           HttpServletResponse response) throws IOException {
        if (runtime.refusesToServe()) {
            write(response, 503, "hub refuses to serve: insecure bind posture (see the server log)\n");
            return false;
        }
        return allowed(runtime.hub().context().settings(), request, response);
    }

    /** True when the request may proceed; otherwise the 403/401 answer has been written. */
    static boolean allowed(SynapseSettings settings, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        if (!settings.metricsEnabled()) {
            write(response, 403, "metrics disabled\n");
            return false;
        }
        String token = settings.metricsToken();
        if (token == null || token.isEmpty()) {
            return true;
        }
        String header = request.getHeader("Authorization");
        String presented = header != null && header.startsWith("Bearer ") ? header.substring(7).trim() : "";
        if (MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8), presented.getBytes(StandardCharsets.UTF_8))) {
            return true;
        }
        response.setHeader("WWW-Authenticate", "Bearer realm=\"synapse-metrics\"");
        write(response, 401, "unauthorized\n");
        return false;
    }

    private static void write(HttpServletResponse response, int status, String body) throws IOException {
        response.setStatus(status);
        response.setContentType("text/plain; charset=utf-8");
        response.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
    }
}
