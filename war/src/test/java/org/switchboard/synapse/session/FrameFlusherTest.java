package org.switchboard.synapse.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.websocket.Session;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.switchboard.container.ContainerShortcuts;
import org.switchboard.container.RawFrameWriter;
import org.switchboard.synapse.SharedText;

/**
 * Coalesced sends (broadcasts): a socket's frames wait for the flusher's pass and leave in one raw
 * write, the socket is listed once however many frames reach it, and a direct send takes the waiting
 * frames along in order.
 */
class FrameFlusherTest {

    private final List<Runnable> passes = new ArrayList<>();
    private final FrameFlusher flusher = new FrameFlusher(passes::add);
    private final List<byte[]> writes = new ArrayList<>();
    private final ScheduledExecutorService rechecks = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        rechecks.shutdownNow();
    }

    private WebSocketPeer peer() {
        return peer(flusher);
    }

    private WebSocketPeer peer(FrameFlusher with) {
        RawFrameWriter writer = frames -> {
            byte[] copy = new byte[frames.remaining()];
            frames.get(copy);
            writes.add(copy);
            return CompletableFuture.completedFuture(null);
        };
        return peer(with, writer);
    }

    private WebSocketPeer peerWith(RawFrameWriter writer) {
        return peer(flusher, writer);
    }

    private WebSocketPeer peer(FrameFlusher with, RawFrameWriter writer) {
        ContainerShortcuts shortcuts = (ContainerShortcuts) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ContainerShortcuts.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "rawFrames" -> writer;
                    default -> null;
                });
        Session session = (Session) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Session.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "isOpen" -> true;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> null;
                });
        return new WebSocketPeer(session, "127.0.0.1", rechecks, shortcuts, with);
    }

    private static SharedText shared(String text) {
        return new SharedText(text);
    }

    private void runPasses() {
        while (!passes.isEmpty()) {
            passes.remove(0).run();
        }
    }

    @Test
    void coalescedFramesWaitForThePassAndLeaveInOneWrite() {
        WebSocketPeer peer = peer();
        CompletableFuture<Boolean> a = peer.sendCoalesced(shared("{\"n\":1}"));
        CompletableFuture<Boolean> b = peer.sendCoalesced(shared("{\"n\":2}"));
        CompletableFuture<Boolean> c = peer.sendCoalesced(shared("{\"n\":3}"));
        assertEquals(0, writes.size(), "nothing written before the flusher's pass");
        assertFalse(a.isDone());
        assertEquals(1, passes.size(), "one pass for the three frames");
        assertEquals(1, flusher.listed(), "the socket is listed once");

        runPasses();
        assertEquals(1, writes.size(), "the three frames in one write");
        assertArrayEquals(TextFrames.encode(List.of("{\"n\":1}", "{\"n\":2}", "{\"n\":3}")), writes.get(0));
        assertTrue(a.join() && b.join() && c.join());
    }

    @Test
    void aSocketIsListedOncePerPassAndAgainAfterIt() {
        WebSocketPeer one = peer();
        WebSocketPeer two = peer();
        for (int i = 0; i < 5; i++) {
            one.sendCoalesced(shared("{\"one\":" + i + "}"));
            two.sendCoalesced(shared("{\"two\":" + i + "}"));
        }
        assertEquals(2, flusher.listed());
        runPasses();
        assertEquals(2, writes.size(), "one write per socket for five frames each");

        one.sendCoalesced(shared("{\"again\":true}"));
        assertEquals(1, passes.size(), "a frame after the pass starts another");
        runPasses();
        assertEquals(3, writes.size());
        assertArrayEquals(TextFrames.encode(List.of("{\"again\":true}")), writes.get(2));
    }

    @Test
    void aDirectSendTakesTheWaitingFramesAlongInOrder() {
        WebSocketPeer peer = peer();
        peer.sendCoalesced(shared("{\"first\":1}"));
        CompletableFuture<Boolean> direct = peer.send("{\"second\":2}");
        assertTrue(direct.join());
        assertEquals(1, writes.size());
        assertArrayEquals(TextFrames.encode(List.of("{\"first\":1}", "{\"second\":2}")), writes.get(0));
        runPasses();
        assertEquals(1, writes.size(), "the pass finds nothing left to write");
    }

    @Test
    void withoutAFlusherACoalescedSendIsWrittenAtOnce() {
        WebSocketPeer peer = peer(null);
        assertTrue(peer.sendCoalesced(shared("{\"now\":1}")).join());
        assertEquals(1, writes.size());
        assertEquals(0, passes.size());
    }

    @Test
    void aBroadcastIsEncodedOnceHoweverManySocketsAndPassesHoldIt() {
        List<WebSocketPeer> sockets = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            sockets.add(peer());
        }
        // a storm: every socket's queue holds every registration's roster, written over several passes
        List<SharedText> rosters = new ArrayList<>();
        for (int update = 0; update < 40; update++) {
            SharedText roster = shared("{\"type\":\"presence_update\",\"n\":" + update + ",\"pad\":\"" + "\u00e9".repeat(300) + "\"}");
            rosters.add(roster);
            sockets.forEach(socket -> socket.sendCoalesced(roster));
            if (update % 10 == 9) {
                runPasses();
            }
        }
        assertEquals(4 * 50, writes.size(), "one write per socket per pass");
        long oneOfEach = rosters.stream().mapToLong(r -> r.text().getBytes(java.nio.charset.StandardCharsets.UTF_8).length).sum();
        assertEquals(oneOfEach, flusher.encodedBytes(), "each update encoded once, not once per socket");
        assertEquals(49 * oneOfEach, flusher.reusedBytes(), "every other socket's copy reused the same bytes");
        assertEquals(4 * 50, flusher.writes());
        assertEquals(40 * 50, flusher.frames());
        assertArrayEquals(TextFrames.encode(rosters.subList(30, 40).stream().map(SharedText::text).toList()), writes.get(writes.size() - 1));
    }

    @Test
    void aPassLaysItsWritesInOneArrayUntilAWriteIsStillPending() {
        List<byte[]> arrays = new ArrayList<>();
        List<byte[]> taken = new ArrayList<>();
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        RawFrameWriter writer = frames -> {
            arrays.add(frames.array());
            byte[] copy = new byte[frames.remaining()];
            frames.duplicate().get(copy);
            taken.add(copy);
            // the third write is not taken at once: the writer keeps reading its buffer later
            if (arrays.size() == 3) {
                CompletableFuture<Void> later = new CompletableFuture<>();
                pending.add(later);
                return later;
            }
            return CompletableFuture.completedFuture(null);
        };
        List<WebSocketPeer> sockets = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sockets.add(peerWith(writer));
        }
        for (int i = 0; i < 5; i++) {
            sockets.get(i).sendCoalesced(shared("{\"to\":" + i + "}"));
        }
        runPasses();
        assertEquals(5, arrays.size());
        assertTrue(arrays.get(0) == arrays.get(1) && arrays.get(1) == arrays.get(2), "writes taken at once share the pass's array");
        assertTrue(arrays.get(3) != arrays.get(2), "a write the writer still holds keeps its array to itself");
        assertTrue(arrays.get(3) == arrays.get(4), "the writes after it share the next array");
        assertEquals(2, flusher.arrays(), "two arrays for five writes");
        byte[] held = java.util.Arrays.copyOf(arrays.get(2), taken.get(2).length);
        assertArrayEquals(taken.get(2), held, "the pending write's bytes were not overwritten by the writes after it");
        assertArrayEquals(TextFrames.encode(List.of("{\"to\":2}")), taken.get(2));
        assertArrayEquals(TextFrames.encode(List.of("{\"to\":4}")), taken.get(4));
        pending.forEach(p -> p.complete(null));
    }

    @Test
    void aWriteLargerThanTheKeptArrayGetsItsOwn() {
        List<byte[]> arrays = new ArrayList<>();
        WebSocketPeer peer = peerWith(frames -> {
            arrays.add(frames.array());
            return CompletableFuture.completedFuture(null);
        });
        String big = "{\"pad\":\"" + "x".repeat(TextFrames.Payloads.KEPT_ARRAY_BYTES) + "\"}";
        peer.sendCoalesced(shared("{\"small\":1}"));
        runPasses();
        peer.sendCoalesced(shared(big));
        runPasses();
        peer.sendCoalesced(shared("{\"small\":2}"));
        runPasses();
        assertEquals(3, arrays.size());
        assertTrue(arrays.get(1) != arrays.get(0) && arrays.get(1).length > TextFrames.Payloads.KEPT_ARRAY_BYTES);
        assertTrue(arrays.get(2) == arrays.get(0), "the kept array serves the next small write");
    }
}
