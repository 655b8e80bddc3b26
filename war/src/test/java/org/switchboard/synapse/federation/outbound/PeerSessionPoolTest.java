package org.switchboard.synapse.federation.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Reused peer connections: answers routed by forward id, unattributable endings, spreading, idle closing, reuse learnt. */
class PeerSessionPoolTest {

    /** A connection the test plays the peer of: records what was sent, delivers what the test says. */
    static final class FakeLink implements PeerSessionPool.Link {
        final String registration;
        final PeerSessionPool.Inbound inbound;
        final List<String> sent = new CopyOnWriteArrayList<>();
        volatile boolean closed;

        FakeLink(String registration, PeerSessionPool.Inbound inbound) {
            this.registration = registration;
            this.inbound = inbound;
        }

        @Override
        public CompletableFuture<?> send(String text) {
            if (closed) {
                return CompletableFuture.failedFuture(new IOException("closed"));
            }
            sent.add(text);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void close() {
            closed = true;
        }

        void answer(String forwardId) {
            inbound.frame(result(forwardId, true));
        }
    }

    final MessagePeers.Peer peer = new MessagePeers.Peer("hub-b", URI.create("ws://127.0.0.1:9877/"), null);
    final List<FakeLink> links = new CopyOnWriteArrayList<>();
    final AtomicLong clock = new AtomicLong(1_000_000_000L);
    volatile boolean refuseDials;
    final PeerSessionPool pool = new PeerSessionPool((p, registration, inbound, deadline) -> {
        if (refuseDials) {
            throw new IOException("connection refused");
        }
        FakeLink link = new FakeLink(registration, inbound);
        links.add(link);
        return link;
    }, clock::get);
    final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    static JsonObject result(String forwardId, boolean reuse) {
        var b = Json.createObjectBuilder().add("type", "multihub_message_result").add("forward_id", forwardId)
                .add("disposition", "accepted").add("answering_hub", "hub-b");
        if (reuse) {
            b.add("connection_reuse", true);
        }
        return b.build();
    }

    Future<JsonObject> send(String forwardId) {
        return threads.submit(() -> pool.exchange(peer, "{\"type\":\"heartbeat\"}", "{\"forward_id\":\"" + forwardId + "\"}",
                forwardId, System.nanoTime() + TimeUnit.SECONDS.toNanos(10)));
    }

    /** Waits until the links together carry {@code n} forwards. */
    void awaitSent(int n) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (links.stream().mapToInt(l -> l.sent.size()).sum() < n) {
            if (System.nanoTime() > until) {
                throw new AssertionError("only " + links.stream().mapToInt(l -> l.sent.size()).sum() + " of " + n + " sent");
            }
            Thread.sleep(2);
        }
    }

    @Test
    void answersFindTheirForwardsWhateverTheirOrder() throws Exception {
        Future<JsonObject> a = send("a");
        awaitSent(1);
        Future<JsonObject> b = send("b");
        awaitSent(2);
        assertEquals(1, links.size(), "both forwards share the one connection");
        assertEquals("{\"type\":\"heartbeat\"}", links.get(0).registration);
        links.get(0).answer("b");
        links.get(0).answer("a");
        assertEquals("a", a.get(5, TimeUnit.SECONDS).getString("forward_id"));
        assertEquals("b", b.get(5, TimeUnit.SECONDS).getString("forward_id"));
        assertEquals(1, pool.open(peer));
    }

    @Test
    void aPlainErrorEndsTheConnectionAndEveryForwardOnItMustTryAlone() throws Exception {
        Future<JsonObject> a = send("a");
        Future<JsonObject> b = send("b");
        awaitSent(2);
        links.get(0).inbound.frame(Json.createObjectBuilder().add("type", "error").add("payload", "no").build());
        for (Future<JsonObject> f : List.of(a, b)) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(5, TimeUnit.SECONDS));
            assertInstanceOf(PeerSessionPool.Unattributable.class, e.getCause());
        }
        assertTrue(links.get(0).closed);
        Future<JsonObject> c = send("c");
        awaitSent(3);
        assertEquals(2, links.size(), "the ended connection is not picked again");
        links.get(1).answer("c");
        assertEquals("c", c.get(5, TimeUnit.SECONDS).getString("forward_id"));
    }

    @Test
    void aConnectionThePeerClosesLeavesItsForwardsUnattributed() throws Exception {
        Future<JsonObject> a = send("a");
        awaitSent(1);
        links.get(0).inbound.closed();
        ExecutionException e = assertThrows(ExecutionException.class, () -> a.get(5, TimeUnit.SECONDS));
        assertInstanceOf(PeerSessionPool.Unattributable.class, e.getCause());
    }

    @Test
    void anUnreachablePeerIsAnOrdinaryFailureNotARetryElsewhere() {
        refuseDials = true;
        ExecutionException e = assertThrows(ExecutionException.class, () -> send("a").get(5, TimeUnit.SECONDS));
        assertInstanceOf(IOException.class, e.getCause());
        assertFalse(e.getCause() instanceof PeerSessionPool.Unattributable, "the peer is down: the forward waits for its back-off");
        assertEquals(0, pool.open(peer));
    }

    @Test
    void busyConnectionsSpreadToAtMostTheCap() throws Exception {
        int n = PeerSessionPool.SPREAD_ABOVE * (PeerSessionPool.MAX_SESSIONS + 2);
        List<Future<JsonObject>> all = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(send("f" + i));
            awaitSent(i + 1); // one at a time, so each pick sees the previous ones waiting
        }
        assertEquals(PeerSessionPool.MAX_SESSIONS, links.size(), "a new connection opens only while the others are busy");
        for (FakeLink link : links) {
            assertTrue(link.sent.size() >= PeerSessionPool.SPREAD_ABOVE, "each connection took its share: " + link.sent.size());
            for (String text : link.sent) {
                link.answer(Json.createReader(new java.io.StringReader(text)).readObject().getString("forward_id"));
            }
        }
        for (Future<JsonObject> f : all) {
            f.get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void idleConnectionsCloseAndBusyOnesStay() throws Exception {
        Future<JsonObject> a = send("a");
        awaitSent(1);
        clock.addAndGet(PeerSessionPool.IDLE_NANOS + 1);
        pool.closeIdle();
        assertFalse(links.get(0).closed, "a connection with a forward waiting is not idle");
        links.get(0).answer("a");
        a.get(5, TimeUnit.SECONDS);
        pool.closeIdle();
        assertFalse(links.get(0).closed, "just used");
        clock.addAndGet(PeerSessionPool.IDLE_NANOS + 1);
        pool.closeIdle();
        assertTrue(links.get(0).closed);
        assertEquals(0, pool.open(peer));
    }

    @Test
    void reuseIsLearntFromThePeersLatestResult() {
        assertFalse(pool.reusable(peer));
        pool.learn(peer, Json.createObjectBuilder().add("type", "error").build());
        assertFalse(pool.reusable(peer), "an error offers nothing");
        pool.learn(peer, result("a", true));
        assertTrue(pool.reusable(peer));
        pool.learn(peer, result("b", false));
        assertFalse(pool.reusable(peer), "a result without the offer withdraws it");
        pool.learn(peer, result("c", true));
        pool.forget(peer);
        assertFalse(pool.reusable(peer));
    }
}
