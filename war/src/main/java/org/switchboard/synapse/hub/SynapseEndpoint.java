package org.switchboard.synapse.hub;

import jakarta.inject.Inject;
import jakarta.websocket.CloseReason;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.PongMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;
import jakarta.websocket.server.ServerEndpointConfig;
import jakarta.enterprise.inject.spi.CDI;
import java.nio.ByteBuffer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.container.ContainerSeam;
import org.switchboard.container.ContainerShortcuts;
import org.switchboard.logging.LogSafe;
import org.switchboard.synapse.wire.CloseCodes;
import org.switchboard.synapse.wire.HubFrames;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.session.WebSocketPeer;
import org.switchboard.synapse.session.FrameSizeLimit;

/**
 * The SYNAPSE WebSocket endpoint at the root path. Thin: wraps the session, then hands every
 * event to the hub. Messages above {@code hub.max-frame-kib} (1 MiB by default) close the socket
 * with 1009: the upgrade's {@link FrameGate} stops them before the container reads them (it then
 * reports a 1009 close here), and whole messages are measured here again in case no gate was installed.
 */
@ServerEndpoint(value = "/", configurator = SynapseEndpoint.Instances.class)
public class SynapseEndpoint {

    private static final Logger LOG = Logger.getLogger(SynapseEndpoint.class.getName());
    /** Default maximum inbound frame (§2.1); the configured one is {@code hub.max-frame-kib}. */
    public static final int MAX_FRAME_BYTES = 1024 * 1024;
    private static final String CONNECTION = "synapse.connection";
    /** Close reason when the off-loopback posture check forbids serving (§2.4). */
    private static final String REASON_POSTURE = "hub refuses to serve: insecure bind";
    private static final ClassLoader APPLICATION_LOADER = SynapseEndpoint.class.getClassLoader();

    @Inject
    SynapseRuntime runtime;

    @Inject
    ContainerSeam seam;

    /** The container's shortcuts, fetched once per socket (they are chosen once, at start). */
    private ContainerShortcuts shortcuts;

    /** This socket's frame limit (the container makes one endpoint instance per socket). */
    private FrameSizeLimit frameLimit = FrameSizeLimit.ofKib(MAX_FRAME_BYTES / 1024);

    /**
     * Makes each socket's endpoint instance with a plain constructor and the two application-scoped beans
     * looked up once: the WebSocket container's default asks CDI for every socket, and CDI then builds and
     * validates a fresh injection target each time (a large share of a connection's CPU in a storm, issue 20).
     */
    public static final class Instances extends ServerEndpointConfig.Configurator {

        /** The runtime and seam proxies (application-scoped: the same for every socket). */
        private record Beans(SynapseRuntime runtime, ContainerSeam seam) {
        }

        private volatile Beans beans;

        @Override
        public <T> T getEndpointInstance(Class<T> endpointClass) throws InstantiationException {
            if (endpointClass != SynapseEndpoint.class) {
                return super.getEndpointInstance(endpointClass);
            }
            Beans current = beans;
            if (current == null) {
                CDI<Object> cdi = CDI.current();
                current = new Beans(cdi.select(SynapseRuntime.class).get(), cdi.select(ContainerSeam.class).get());
                beans = current;
            }
            SynapseEndpoint endpoint = new SynapseEndpoint();
            endpoint.runtime = current.runtime();
            endpoint.seam = current.seam();
            return endpointClass.cast(endpoint);
        }
    }

    @OnOpen
    public void onOpen(Session session, EndpointConfig config) {
        shortcuts = seam.shortcuts();
        enter();
        if (runtime.refusesToServe()) {
            // closed once onOpen has returned, not inside it: a close made while the container is still
            // completing the upgrade left its read callback on a recycled request, which died with a
            // NullPointerException ("context" is null) on the container's async thread when the hub stopped
            runtime.afterOpen(() -> close(session, CloseReason.CloseCodes.VIOLATED_POLICY, REASON_POSTURE));
            return;
        }
        shortcuts.replaceSessionTimer(session, runtime.sessionTimers());
        session.setMaxIdleTimeout(0);
        frameLimit = FrameSizeLimit.ofKib(runtime.hub().context().settings().maxFrameKib());
        session.setMaxTextMessageBufferSize(frameLimit.maxBytes());
        session.setMaxBinaryMessageBufferSize(frameLimit.maxBytes());
        Connection connection = new Connection(new WebSocketPeer(session, shortcuts.remoteAddress(session),
                runtime.hub().context().settings().rawFrameWrites() ? runtime.sessionTimers() : null, shortcuts,
                runtime.frameFlusher()),
                HubFrames.wallClock());
        connection.transport(session.isSecure(), ClientCertificateCapture.pin(session.getUserPrincipal()));
        session.getUserProperties().put(CONNECTION, connection);
        if (runtime.hub().opened(connection)) {
            runtime.scheduleRegistrationDeadline(connection);
        }
    }

    @OnMessage
    public void onText(String text, Session session) {
        enter();
        Connection connection = connection(session);
        if (connection != null) {
            if (frameLimit.tooBig(text)) {
                connection.close(CloseCodes.TOO_BIG, FrameSizeLimit.REASON);
                return;
            }
            try {
                runtime.hub().dispatcher().onText(connection, text);
            } finally {
                quietBetweenFrames();
            }
        }
    }

    /**
     * Tyrus reschedules the session idle timer on a managed executor for every frame it reads,
     * before calling this endpoint; the executor scans the thread's context class loader for
     * context providers each time. Leaving an empty context loader on the I/O thread between
     * frames makes that scan free (the quiet-context shortcut); the servlet container sets its own
     * loader for every HTTP request, and this endpoint restores the application's loader on entry.
     */
    private void quietBetweenFrames() {
        shortcuts.quietContext();
    }

    private void enter() {
        shortcuts.restoreContext(APPLICATION_LOADER);
    }

    @OnMessage
    public void onBinary(ByteBuffer bytes, Session session) {
        enter();
        Connection connection = connection(session);
        if (connection != null) {
            if (frameLimit.tooBig(bytes)) {
                connection.close(CloseCodes.TOO_BIG, FrameSizeLimit.REASON);
                return;
            }
            try {
                runtime.hub().dispatcher().onBinary(connection, bytes);
            } finally {
                quietBetweenFrames();
            }
        }
    }

    @OnMessage
    public void onPong(PongMessage pong, Session session) {
        Connection connection = connection(session);
        if (connection != null) {
            connection.pongReceived();
        }
    }

    @OnClose
    public void onClose(Session session, CloseReason reason) {
        enter();
        Connection connection = connection(session);
        if (connection != null) {
            if (reason != null && reason.getCloseCode().getCode() == CloseCodes.TOO_BIG) {
                // the hub's own 1009, or the frame gate's (which the container answered with the same code)
                LOG.info(() -> "SYNAPSE: " + LogSafe.text(connection) + " closed with 1009 (a message over "
                        + frameLimit.maxBytes() + " bytes, hub.max-frame-kib)");
            }
            if (connection.peer() instanceof WebSocketPeer peer) {
                peer.closedByTransport();
            }
            runtime.hub().closed(connection);
        }
    }

    @OnError
    public void onError(Session session, Throwable error) {
        LOG.log(Level.FINE, "WebSocket error", error);
    }

    private static void close(Session session, CloseReason.CloseCode code, String reason) {
        try {
            session.close(new CloseReason(code, reason));
        } catch (java.io.IOException | RuntimeException e) {
            LOG.log(Level.FINE, "close failed", e);
        }
    }

    private static Connection connection(Session session) {
        return (Connection) session.getUserProperties().get(CONNECTION);
    }
}
