package org.switchboard.container;

import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.Future;

/**
 * Writes already-framed bytes to a Tyrus WebSocket (Payara's implementation) through its public
 * {@code TyrusWebSocket.sendRawFrame}, a handle {@link PayaraShortcuts} resolved once at start. Tyrus's
 * own text send encodes UTF-8 with a byte-at-a-time encoder and makes one socket write per message;
 * the SYNAPSE hub sends two or more frames per chat, so encoding with the JDK and writing a socket's
 * queued frames in one go saves much of the hub's CPU under load. Tyrus completes the future once its
 * servlet writer has handed the bytes to the container's output stream, which writes or copies them
 * before returning (the stream's contract); until then (a socket not ready) its queue holds the buffer.
 */
final class RawFrameSender implements RawFrameWriter {

    private final Object webSocket;
    private final MethodHandle sendRaw;

    /** {@code sendRaw}: {@code (Object webSocket, ByteBuffer frames) -> Future}. */
    RawFrameSender(Object webSocket, MethodHandle sendRaw) {
        this.webSocket = webSocket;
        this.sendRaw = sendRaw;
    }

    @Override
    public Future<?> send(ByteBuffer frames) {
        try {
            return (Future<?>) sendRaw.invokeExact(webSocket, frames);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
