package org.switchboard.synapse.hub;

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
import java.util.logging.Logger;
import org.switchboard.container.ContainerSeam;
import org.switchboard.container.ContainerShortcuts;
import org.switchboard.lifecycle.StopSignal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.session.FrameGateUpgrade;
import org.switchboard.synapse.session.FrameSizeLimit;
import org.switchboard.synapse.session.HandshakeGuard;

/**
 * Refuses WebSocket upgrades with an untrusted Host or a non-allow-listed Origin: 403 {@code origin/host
 * not allowed}; sizes the container's output buffer of the upgrades it admits ({@code hub.websocket-write-buffer-bytes})
 * and reads their input through a {@link FrameGate} of {@code hub.max-frame-kib}, so that every message over
 * the limit, whatever its size or fragmentation, closes with 1009; hands the client certificate of a TLS
 * upgrade to the endpoint ({@link ClientCertificateCapture}). Once the hub begins to stop (the JVM's
 * stop signal or the filter's removal) every upgrade is refused with 503 {@code hub stopping}.
 */
@WebFilter(urlPatterns = "/*", asyncSupported = true)
public class HandshakeGuardFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(HandshakeGuardFilter.class.getName());

    @Inject
    SynapseConfig config;

    @Inject
    transient ContainerSeam seam;

    private transient volatile Settings settings;

    /**
     * Set when the hub begins to stop. An upgrade admitted between the JVM's stop signal and the undeploy
     * reached Tyrus after the servlet context was gone (NullPointerException in TyrusServletUpgrade.upgrade).
     */
    private transient volatile boolean stopping;

    private transient StopSignal stopSignal;

    @Override
    public void init() throws ServletException {
        stopSignal = StopSignal.onStop("switchboard-handshake-stop", () -> stopping = true);
    }

    @Override
    public void destroy() {
        stopping = true;
        if (stopSignal != null) {
            stopSignal.close();
        }
    }

    /** The handshake rules, the write buffer size, the frame limit and the container's shortcuts, read once. */
    private record Settings(HandshakeGuard rules, int writeBufferBytes, int maxFrameBytes, ContainerShortcuts shortcuts) {
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String upgrade = request.getHeader("Upgrade");
        if (upgrade == null || !"websocket".equalsIgnoreCase(upgrade.trim())) {
            chain.doFilter(request, response);
            return;
        }
        if (stopping) {
            refuse(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, "hub stopping\n");
            return;
        }
        Settings current = settings();
        if (current.rules().admits(request.getHeader("Host"), request.getHeader("Origin"), request.getLocalPort(),
                isLoopback(request.getLocalAddr()))) {
            int writeBuffer = current.writeBufferBytes();
            if (writeBuffer > 0) {
                current.shortcuts().resizeWriteBuffer(response, writeBuffer);
            }
            // a TLS peer hub's client certificate travels to the endpoint as the session's principal
            HttpServletRequest upgrading = ClientCertificateCapture.capture(request);
            upgrade(chain, FrameGateUpgrade.gate(upgrading, current.maxFrameBytes(), current.shortcuts()), response);
            return;
        }
        refuse(response, HttpServletResponse.SC_FORBIDDEN, "origin/host not allowed\n");
    }

    /**
     * Hands an admitted upgrade to the WebSocket container. An I/O failure there is the client going away
     * before the 101 response was flushed (seen in CI as {@code IOException: Connection is closed}); nothing
     * can be sent to it any more, so it is one FINE line instead of a container warning with a stack trace.
     */
    static void upgrade(FilterChain chain, HttpServletRequest request, HttpServletResponse response) throws ServletException {
        try {
            chain.doFilter(request, response);
        } catch (IOException e) {
            LOG.fine(() -> "WebSocket upgrade: the client went away (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static void refuse(HttpServletResponse response, int status, String text) throws IOException {
        response.setStatus(status);
        response.setContentType("text/plain; charset=utf-8");
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    private Settings settings() {
        Settings current = settings;
        if (current == null) {
            SynapseSettings configured = config.settings();
            current = new Settings(new HandshakeGuard(configured.advertisedHost(), configured.allowedOrigins()),
                    configured.websocketWriteBufferBytes(), FrameSizeLimit.ofKib(configured.maxFrameKib()).maxBytes(),
                    seam.shortcuts());
            this.settings = current;
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
