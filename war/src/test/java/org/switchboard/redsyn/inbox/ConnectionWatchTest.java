package org.switchboard.redsyn.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.redsyn.inbox.Loopback.eventually;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConnectionWatchTest {

    private final Loopback net = new Loopback();

    ConnectionWatchTest() throws Exception {
    }

    @AfterEach
    void close() throws Exception {
        net.close();
    }

    @Test
    void aClientThatClosesIsSeenByTheProbeAndTheWatch() throws Exception {
        Loopback.Pair pair = net.connect();
        PollConnection c = net.watch.connection(pair.server());
        assertFalse(c.gone(), "a connected client that sends nothing is alive");
        CountDownLatch released = new CountDownLatch(1);
        c.watch(released::countDown);
        pair.closeClient();
        assertTrue(released.await(5, TimeUnit.SECONDS), "the watch reports the closed connection");
        assertTrue(c.gone());
        assertTrue(pair.server().isOpen(), "the watch only reports; the container closes the socket");
    }

    @Test
    void aClientThatResetsIsSeenToo() throws Exception {
        Loopback.Pair pair = net.connect();
        PollConnection c = net.watch.connection(pair.server());
        CountDownLatch released = new CountDownLatch(1);
        c.watch(released::countDown);
        pair.resetClient();
        assertTrue(released.await(5, TimeUnit.SECONDS));
        assertTrue(c.gone());
    }

    @Test
    void theProbeAloneSeesAClosedClientWithoutAWatch() throws Exception {
        Loopback.Pair pair = net.connect();
        PollConnection c = net.watch.connection(pair.server());
        pair.closeClient();
        assertTrue(eventually(c::gone));
    }

    @Test
    void onlyTheClosedConnectionIsReported() throws Exception {
        Loopback.Pair live = net.connect();
        Loopback.Pair dead = net.connect();
        AtomicInteger liveReports = new AtomicInteger();
        CountDownLatch deadReported = new CountDownLatch(1);
        PollConnection liveConnection = net.watch.connection(live.server());
        liveConnection.watch(liveReports::incrementAndGet);
        net.watch.connection(dead.server()).watch(deadReported::countDown);
        dead.closeClient();
        assertTrue(deadReported.await(5, TimeUnit.SECONDS));
        // the select round that reported the dead one would have reported the live one with it
        net.callbacks.submit(() -> { }).get();
        assertEquals(0, liveReports.get());
        assertFalse(liveConnection.gone());
    }

    @Test
    void bytesSentByTheClientAreLeftForTheContainer() throws Exception {
        Loopback.Pair pair = net.connect();
        PollConnection c = net.watch.connection(pair.server());
        pair.client().getOutputStream().write("GET /next HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
        assertTrue(eventually(c::gone), "a waiting HTTP/1.1 client that sends something is not waiting any more");
        ByteBuffer buffer = ByteBuffer.allocate(64);
        assertEquals(20, pair.server().read(buffer), "nothing was read by the probe");
    }

    @Test
    void anUnwatchedConnectionIsNotReportedAndCanBeWatchedAgain() throws Exception {
        Loopback.Pair pair = net.connect();
        AtomicInteger first = new AtomicInteger();
        PollConnection one = net.watch.connection(pair.server());
        one.watch(first::incrementAndGet);
        one.unwatch();
        // the next poll on the same keep-alive connection, watched at once
        CountDownLatch second = new CountDownLatch(1);
        PollConnection two = net.watch.connection(pair.server());
        two.watch(second::countDown);
        pair.closeClient();
        assertTrue(second.await(5, TimeUnit.SECONDS), "the keep-alive connection's next poll is watched");
        net.callbacks.submit(() -> { }).get();
        assertEquals(0, first.get(), "an answered poll hears nothing");
    }

    @Test
    void aClosedServerChannelIsReallyClosedOnceUnwatched() throws Exception {
        Loopback.Pair pair = net.connect();
        PollConnection c = net.watch.connection(pair.server());
        c.watch(() -> { });
        assertTrue(eventually(() -> pair.server().isRegistered()));
        c.unwatch();
        assertTrue(eventually(() -> !pair.server().isRegistered()), "the key is deregistered, so closing the channel frees the socket");
    }

    @Test
    void withoutAChannelNothingIsEverGone() {
        PollConnection c = net.watch.connection(null);
        assertSame(PollConnection.UNKNOWN, c);
        c.watch(() -> { });
        assertFalse(c.gone());
        c.unwatch();
    }
}
