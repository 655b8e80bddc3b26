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
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The outbound byte bound of a socket ({@code hub.outbound-max-bytes}) on the standard send path: a
 * reader that lets frames pile up past it loses what was queued at once and is closed with 1013;
 * a reader that keeps up is never held to it, and one large frame still reaches an idle socket.
 */
class WebSocketPeerBoundTest {

    /** A JSR-356 session whose async sends complete only when the test says so (or at once). */
    private static final class FakeSession {
        final List<SendHandler> pending = new ArrayList<>();
        final List<String> sent = new ArrayList<>();
        boolean open = true;
        boolean completeAtOnce;
        CloseReason closed;

        Session session() {
            RemoteEndpoint.Async async = (RemoteEndpoint.Async) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {RemoteEndpoint.Async.class}, (proxy, method, args) -> {
                        if (method.getName().equals("sendText") && args.length == 2) {
                            sent.add((String) args[0]);
                            SendHandler handler = (SendHandler) args[1];
                            if (completeAtOnce) {
                                handler.onResult(new SendResult());
                            } else {
                                pending.add(handler);
                            }
                        }
                        return null;
                    });
            return (Session) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Session.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "isOpen" -> open;
                        case "getAsyncRemote" -> async;
                        case "close" -> {
                            closed = args == null ? null : (CloseReason) args[0];
                            open = false;
                            yield null;
                        }
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> null;
                    });
        }

        void completeFirst() {
            pending.remove(0).onResult(new SendResult());
        }
    }

    @Test
    void aReaderThatFallsBehindTheBoundLosesItsQueueAndIsClosedWith1013() {
        FakeSession fake = new FakeSession();
        WebSocketPeer peer = new WebSocketPeer(fake.session(), "127.0.0.1", null, 1000);
        CompletableFuture<Boolean> inFlight = peer.send("a".repeat(600));
        CompletableFuture<Boolean> queued = peer.send("b".repeat(300));
        assertEquals(900, peer.queuedChars());
        assertFalse(queued.isDone(), "within the bound: waits its turn");

        CompletableFuture<Boolean> overflow = peer.send("c".repeat(200));
        assertFalse(overflow.join(), "past the bound: not queued");
        assertFalse(queued.join(), "what was queued is dropped at once");
        assertEquals(600, peer.queuedChars(), "only the write in flight is still counted");
        assertFalse(peer.send("d").join(), "nothing more is queued for this socket");

        peer.checkDrain(System.nanoTime());
        assertEquals(1013, fake.closed.getCloseCode().getCode());
        assertEquals("outbound delivery timeout", fake.closed.getReasonPhrase());

        fake.completeFirst();
        assertTrue(inFlight.join());
        assertEquals(0, peer.queuedChars());
        assertEquals(1, fake.sent.size(), "only the first frame reached the socket");
    }

    @Test
    void aReaderThatKeepsUpIsNeverHeldToTheBound() {
        FakeSession fake = new FakeSession();
        fake.completeAtOnce = true;
        WebSocketPeer peer = new WebSocketPeer(fake.session(), "127.0.0.1", null, 1000);
        for (int i = 0; i < 100; i++) {
            assertTrue(peer.send("e".repeat(600)).join());
        }
        assertEquals(0, peer.queuedChars());
        peer.checkDrain(System.nanoTime());
        assertNull(fake.closed);
    }

    @Test
    void oneFrameLargerThanTheBoundStillReachesAnIdleSocket() {
        FakeSession fake = new FakeSession();
        WebSocketPeer peer = new WebSocketPeer(fake.session(), "127.0.0.1", null, 1000);
        CompletableFuture<Boolean> big = peer.send("f".repeat(5000));
        assertEquals(5000, peer.queuedChars());
        assertFalse(peer.send("g").join(), "but nothing may queue behind it");
        fake.completeFirst();
        assertTrue(big.join());
    }

    @Test
    void aWriteStuckPastTheDrainDeadlineClosesWith1013AndDropsTheQueue() {
        FakeSession fake = new FakeSession();
        WebSocketPeer peer = new WebSocketPeer(fake.session(), "127.0.0.1", null, 1000);
        peer.send("h".repeat(100));
        CompletableFuture<Boolean> queued = peer.send("i".repeat(100));
        long now = System.nanoTime();
        peer.checkDrain(now);
        assertNull(fake.closed, "within the deadline");
        peer.checkDrain(now + WebSocketPeer.DRAIN_DEADLINE_NANOS + 1_000_000_000L);
        assertEquals(1013, fake.closed.getCloseCode().getCode());
        assertFalse(queued.join());
    }

    @Test
    void theCounterIsAdmitOrNothing() {
        OutboundBound bound = new OutboundBound(100);
        assertTrue(bound.admit(150), "an empty queue takes one frame of any size");
        assertFalse(bound.admit(1));
        bound.release(150);
        assertTrue(bound.admit(60));
        assertTrue(bound.admit(40));
        assertFalse(bound.admit(1));
        assertEquals(100, bound.queued());
    }
}
