package org.switchboard.synapse.session;

import jakarta.websocket.Session;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.concurrent.Future;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Writes already-framed bytes to a Tyrus WebSocket (Payara's implementation) through its public
 * {@code TyrusWebSocket.sendRawFrame}, reached by reflection. Tyrus's own text send encodes UTF-8
 * with a byte-at-a-time encoder and makes one socket write per message; the SYNAPSE hub sends two
 * or more frames per chat, so encoding with the JDK and writing a socket's queued frames in one go
 * saves much of the hub's CPU under load. {@link #of} returns null wherever this is not available
 * (another container, a Tyrus that changed, a negotiated extension that would transform frames),
 * and the caller keeps the standard API.
 */
final class RawFrameSender {

    private static final Logger LOG = Logger.getLogger(RawFrameSender.class.getName());
    private static final String TYRUS_REMOTE_FIELD = "webSocket";
    private static final String TYRUS_RAW_SEND = "sendRawFrame";
    private static volatile boolean reported;

    private final Object webSocket;
    private final MethodHandle sendRaw;

    private RawFrameSender(Object webSocket, MethodHandle sendRaw) {
        this.webSocket = webSocket;
        this.sendRaw = sendRaw;
    }

    /** The raw path for {@code session}, or null when the container does not offer it. */
    static RawFrameSender of(Session session) {
        try {
            if (!session.getNegotiatedExtensions().isEmpty()) {
                return null; // an extension (e.g. compression) must see every frame Tyrus's way
            }
            Object remote = session.getAsyncRemote();
            Field field = field(remote.getClass(), TYRUS_REMOTE_FIELD);
            if (field == null) {
                return unavailable("no Tyrus remote endpoint");
            }
            field.setAccessible(true);
            Object webSocket = field.get(remote);
            if (webSocket == null) {
                return unavailable("no Tyrus web socket");
            }
            MethodHandle send = MethodHandles.publicLookup()
                    .findVirtual(webSocket.getClass(), TYRUS_RAW_SEND, MethodType.methodType(Future.class, ByteBuffer.class))
                    .asType(MethodType.methodType(Future.class, Object.class, ByteBuffer.class));
            return new RawFrameSender(webSocket, send);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return unavailable(e.toString());
        }
    }

    /** Queues {@code frames} (complete frames, in order) for the socket; the future completes when they are handed to it. */
    Future<?> send(ByteBuffer frames) {
        try {
            return (Future<?>) sendRaw.invokeExact(webSocket, frames);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static Field field(Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.getName().equals(name)) {
                    return f;
                }
            }
        }
        return null;
    }

    private static RawFrameSender unavailable(String why) {
        if (!reported) {
            reported = true;
            LOG.log(Level.INFO, "SYNAPSE: raw WebSocket frame writes unavailable ({0}); using the standard send API", why);
        }
        return null;
    }
}
