package org.switchboard.synapse.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.websocket.CloseReason;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.SendHandler;
import jakarta.websocket.SendResult;
import jakarta.websocket.Session;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.switchboard.container.ContainerShortcuts;
import org.switchboard.container.RawFrameWriter;
import org.switchboard.synapse.SharedText;
import org.switchboard.synapse.wire.CloseCodes;

/**
 * A write that fails while the socket still reports open: the frames behind it must not reach the client
 * after a gap on a live connection. The peer drops what is queued, takes no more, and closes the socket
 * with 1011 so the client reconnects and replays; on both the raw-frame path (a write failing at once or
 * after the container held it) and the standard send path.
 */
class WebSocketPeerFailedWriteTest {

    private static final String FIRST = "{\"type\":\"presence_update\",\"agent\":\"me\"}";
    private static final String SECOND = "{\"type\":\"presence_update\",\"agent\":\"other\"}";

    private final ScheduledExecutorService rechecks = Executors.newSingleThreadScheduledExecutor();
    private final List<Runnable> flushes = new ArrayList<>();
    private final FrameFlusher flusher = new FrameFlusher(flushes::add);
    /** Frames the fake socket took, in order. */
    private final List<String> delivered = new CopyOnWriteArrayList<>();
    private final CompletableFuture<CloseReason> closedWith = new CompletableFuture<>();
    private volatile boolean open = true;

    @AfterEach
    void stop() {
        rechecks.shutdownNow();
    }

    /** A session that is open until closed, recording its close; {@code async} serves the standard send path. */
    private Session session(RemoteEndpoint.Async async) {
        return (Session) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Session.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "isOpen" -> open;
                    case "getAsyncRemote" -> async;
                    case "close" -> {
                        open = false;
                        closedWith.complete((CloseReason) args[0]);
                        yield null;
                    }
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> null;
                });
    }

    private WebSocketPeer rawPeer(RawFrameWriter writer) {
        ContainerShortcuts shortcuts = (ContainerShortcuts) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ContainerShortcuts.class}, (proxy, method, args) ->
                        method.getName().equals("rawFrames") ? writer : null);
        return new WebSocketPeer(session(null), "127.0.0.1", rechecks, shortcuts, flusher);
    }

    private void runFlushes() {
        while (!flushes.isEmpty()) {
            flushes.remove(0).run();
        }
    }

    /** Takes a write whole (as the socket would) and records its frames' bytes as text. */
    private Future<?> take(ByteBuffer frames) {
        byte[] bytes = new byte[frames.remaining()];
        frames.get(bytes);
        delivered.add(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1));
        return CompletableFuture.completedFuture(null);
    }

    private void assertClosedWith1011AndRefusing(WebSocketPeer peer) throws Exception {
        CloseReason reason = closedWith.get(5, TimeUnit.SECONDS);
        assertEquals(CloseCodes.UNEXPECTED, reason.getCloseCode().getCode());
        assertFalse(peer.isOpen());
        assertFalse(peer.send("{\"type\":\"later\"}").get(1, TimeUnit.SECONDS), "nothing is queued after the failure");
        assertEquals(0, peer.queuedChars());
    }

    @Test
    void aRawWriteThatFailsAtOnceClosesTheSocketInsteadOfWritingWhatCameAfterIt() throws Exception {
        AtomicInteger writes = new AtomicInteger();
        WebSocketPeer peer = rawPeer(frames -> writes.getAndIncrement() == 0
                ? CompletableFuture.failedFuture(new IOException("broken pipe")) : take(frames));
        CompletableFuture<Boolean> first = peer.sendCoalesced(new SharedText(FIRST));
        runFlushes();
        CompletableFuture<Boolean> second = peer.sendCoalesced(new SharedText(SECOND));
        runFlushes();

        assertFalse(first.get(1, TimeUnit.SECONDS));
        assertFalse(second.get(1, TimeUnit.SECONDS), "a frame behind the failed one is not written");
        assertTrue(delivered.isEmpty(), "the client never gets a frame after the gap: " + delivered);
        assertEquals(1, writes.get());
        assertClosedWith1011AndRefusing(peer);
    }

    @Test
    void aRawWriteTheContainerHeldAndThenFailedDropsTheFramesQueuedBehindIt() throws Exception {
        CompletableFuture<Void> held = new CompletableFuture<>();
        AtomicInteger writes = new AtomicInteger();
        WebSocketPeer peer = rawPeer(frames -> writes.getAndIncrement() == 0 ? held : take(frames));
        CompletableFuture<Boolean> first = peer.sendCoalesced(new SharedText(FIRST));
        runFlushes();
        CompletableFuture<Boolean> second = peer.sendCoalesced(new SharedText(SECOND));
        runFlushes();
        assertFalse(second.isDone(), "waits behind the held write");

        held.completeExceptionally(new IOException("connection reset"));

        assertFalse(first.get(5, TimeUnit.SECONDS));
        assertFalse(second.get(5, TimeUnit.SECONDS), "dropped, not written after the gap");
        assertTrue(delivered.isEmpty(), "the client never gets a frame after the gap: " + delivered);
        assertClosedWith1011AndRefusing(peer);
    }

    @Test
    void aStandardSendThatFailsClosesTheSocketInsteadOfSendingWhatCameAfterIt() throws Exception {
        List<SendHandler> handlers = new CopyOnWriteArrayList<>();
        RemoteEndpoint.Async async = (RemoteEndpoint.Async) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {RemoteEndpoint.Async.class}, (proxy, method, args) -> {
                    if (method.getName().equals("sendText") && args.length == 2) {
                        delivered.add((String) args[0]);
                        handlers.add((SendHandler) args[1]);
                    }
                    return null;
                });
        WebSocketPeer peer = new WebSocketPeer(session(async), "127.0.0.1", rechecks);
        CompletableFuture<Boolean> first = peer.send(FIRST);
        CompletableFuture<Boolean> second = peer.send(SECOND);
        assertEquals(List.of(FIRST), delivered, "one write in flight");

        handlers.get(0).onResult(new SendResult(new IOException("broken pipe")));

        assertFalse(first.get(1, TimeUnit.SECONDS));
        assertFalse(second.get(1, TimeUnit.SECONDS), "a frame behind the failed one is not sent");
        assertEquals(List.of(FIRST), delivered, "nothing sent after the failure");
        assertClosedWith1011AndRefusing(peer);
    }

    @Test
    void aWriteFailingOnASocketTheClientAlreadyClosedOnlyDropsTheQueue() throws Exception {
        WebSocketPeer peer = rawPeer(frames -> {
            open = false; // the client's close arrived while the write was on its way
            return CompletableFuture.failedFuture(new IOException("connection closed"));
        });
        CompletableFuture<Boolean> first = peer.sendCoalesced(new SharedText(FIRST));
        runFlushes();
        assertFalse(first.get(1, TimeUnit.SECONDS));
        assertFalse(peer.isOpen());
        rechecks.submit(() -> { }).get(5, TimeUnit.SECONDS); // a close scheduled on the executor would have run
        assertNull(closedWith.getNow(null), "no close of a socket that is already closed");
        assertEquals(0, peer.queuedChars());
    }
}
