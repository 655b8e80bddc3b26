package org.switchboard.synapse.session;

import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import org.switchboard.synapse.SynapseConfig;
import org.switchboard.synapse.SynapseSettings;

/** Refuses WebSocket upgrades with an untrusted Host or a non-allow-listed Origin: 403 {@code origin/host not allowed}. */
@WebFilter(urlPatterns = "/*", asyncSupported = true)
public class HandshakeGuardFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Inject
    SynapseConfig config;

    private transient volatile HandshakeGuard guard;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String upgrade = request.getHeader("Upgrade");
        if (upgrade == null || !"websocket".equalsIgnoreCase(upgrade.trim())) {
            chain.doFilter(request, response);
            return;
        }
        if (guard().admits(request.getHeader("Host"), request.getHeader("Origin"), request.getLocalPort(),
                isLoopback(request.getLocalAddr()))) {
            chain.doFilter(request, response);
            return;
        }
        response.setStatus(HttpServletResponse.SC_FORBIDDEN);
        response.setContentType("text/plain; charset=utf-8");
        byte[] body = "origin/host not allowed\n".getBytes(StandardCharsets.UTF_8);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    private HandshakeGuard guard() {
        HandshakeGuard current = guard;
        if (current == null) {
            SynapseSettings settings = config.settings();
            current = new HandshakeGuard(settings.advertisedHost(), settings.allowedOrigins());
            guard = current;
        }
        return current;
    }

    private static boolean isLoopback(String address) {
        try {
            return address != null && InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
