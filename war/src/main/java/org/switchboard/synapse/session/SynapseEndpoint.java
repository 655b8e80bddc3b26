package org.switchboard.synapse.session;

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
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.synapse.SynapseRuntime;
import org.switchboard.synapse.wire.HubFrames;

/**
 * The SYNAPSE WebSocket endpoint at the root path. Thin: wraps the session, then hands every
 * event to the hub. Frames above 1 MiB are refused by the container with close 1009.
 */
@ServerEndpoint("/")
public class SynapseEndpoint {

    private static final Logger LOG = Logger.getLogger(SynapseEndpoint.class.getName());
    /** Maximum inbound frame (§2.1). */
    public static final int MAX_FRAME_BYTES = 1024 * 1024;
    private static final String CONNECTION = "synapse.connection";

    @Inject
    SynapseRuntime runtime;

    @OnOpen
    public void onOpen(Session session, EndpointConfig config) {
        session.setMaxIdleTimeout(0);
        session.setMaxTextMessageBufferSize(MAX_FRAME_BYTES);
        session.setMaxBinaryMessageBufferSize(MAX_FRAME_BYTES);
        Connection connection = new Connection(new WebSocketPeer(session, remoteHost(session)), HubFrames.wallClock());
        session.getUserProperties().put(CONNECTION, connection);
        if (runtime.hub().opened(connection)) {
            runtime.scheduleRegistrationDeadline(connection);
        }
    }

    @OnMessage(maxMessageSize = MAX_FRAME_BYTES)
    public void onText(String text, Session session) {
        Connection connection = connection(session);
        if (connection != null) {
            runtime.hub().dispatcher().onText(connection, text);
        }
    }

    @OnMessage(maxMessageSize = MAX_FRAME_BYTES)
    public void onBinary(ByteBuffer bytes, Session session) {
        Connection connection = connection(session);
        if (connection != null) {
            runtime.hub().dispatcher().onBinary(connection, bytes);
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
        Connection connection = connection(session);
        if (connection != null) {
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

    private static Connection connection(Session session) {
        return (Connection) session.getUserProperties().get(CONNECTION);
    }

    /** Remote host from the container (Tyrus exposes it as a user property or on the session). */
    private static String remoteHost(Session session) {
        Object address = session.getUserProperties().get("jakarta.websocket.endpoint.remoteAddress");
        if (address instanceof InetSocketAddress inet) {
            return inet.getAddress() != null ? inet.getAddress().getHostAddress() : inet.getHostString();
        }
        try {
            Object remote = session.getClass().getMethod("getRemoteAddr").invoke(session);
            if (remote != null) {
                return remote.toString();
            }
        } catch (ReflectiveOperationException | RuntimeException ignored) {
            // not Tyrus: fall through
        }
        return "unknown";
    }
}
