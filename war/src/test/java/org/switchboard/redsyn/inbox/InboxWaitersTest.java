package org.switchboard.redsyn.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.redsyn.inbox.Loopback.eventually;

import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Parked polls on real loopback connections: a gone client takes nothing, and a lease nobody received is given back. */
class InboxWaitersTest {

    private static final long AGENT = 7;

    private final InboxWaiters waiters = new InboxWaiters();
    private final Loopback net = new Loopback();

    InboxWaitersTest() throws Exception {
        // the managed executor runs tasks at once; the thread factory gives daemon threads
        waiters.executor = (ManagedExecutorService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ManagedExecutorService.class}, (proxy, method, args) -> {
                    if (method.getName().equals("execute")) {
                        ((Runnable) args[0]).run();
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        waiters.threads = DaemonThreads.named("inbox-waiters-test");
        waiters.start();
    }

    @AfterEach
    void close() throws Exception {
        waiters.stop();
        net.close();
    }

    /** A taker that hands out what {@code next} gives, and records takes and give-backs. */
    private static final class RecordingTaker implements Taker {
        final AtomicInteger takes = new AtomicInteger();
        final List<Taken> givenBack = new CopyOnWriteArrayList<>();
        volatile Supplier<Taken> next = () -> Taken.none(AGENT);

        @Override
        public Taken take() {
            takes.incrementAndGet();
            return next.get();
        }

        @Override
        public void giveBack(Taken taken) {
            givenBack.add(taken);
        }
    }

    private static Taken oneMessage(long seq) {
        JsonObject envelope = Json.createObjectBuilder().add("id", "m" + seq).add("attempts", 1).build();
        return new Taken(AGENT, List.of(envelope), List.of(seq), 1_000_000, "node");
    }

    private PollConnection connection(Loopback.Pair pair) {
        return waiters.watch.connection(pair.server());
    }

    @Test
    void aPollWhoseClientClosesWhileParkedIsReleasedAtOnceAndTakesNothingMore() throws Exception {
        Loopback.Pair pair = net.connect();
        RecordingTaker taker = new RecordingTaker();
        FakeResponse response = new FakeResponse();
        waiters.park(AGENT, response, 25, taker, connection(pair));
        assertEquals(1, waiters.parked());
        int takes = taker.takes.get();

        pair.closeClient();
        assertTrue(response.awaitAnswer(), "released at once, not at the end of its wait");
        assertEquals(List.of(), response.items());
        assertEquals(0, waiters.parked());

        taker.next = () -> oneMessage(1);
        waiters.wake(AGENT);
        assertEquals(takes, taker.takes.get(), "a released poll never takes");
    }

    @Test
    void aPollWhoseClientIsAlreadyGoneLeasesNothing() throws Exception {
        Loopback.Pair pair = net.connect();
        PollConnection c = connection(pair);
        pair.closeClient();
        assertTrue(eventually(() -> net.watch.readable(pair.server())));
        RecordingTaker taker = new RecordingTaker();
        taker.next = () -> oneMessage(1);
        FakeResponse response = new FakeResponse();
        waiters.park(AGENT, response, 25, taker, c);
        assertEquals(0, taker.takes.get(), "liveness is checked before the lease");
        assertEquals(List.of(), response.items());
        assertEquals(0, waiters.parked());
    }

    @Test
    void aClientGoneDuringTheTakeHasItsLeaseGivenBack() throws Exception {
        Loopback.Pair pair = net.connect();
        RecordingTaker taker = new RecordingTaker();
        Taken taken = oneMessage(2);
        taker.next = () -> {
            try {
                pair.closeClient();
                assertTrue(eventually(() -> net.watch.readable(pair.server())));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return taken;
        };
        FakeResponse response = new FakeResponse();
        waiters.takeNow(AGENT, response, taker, connection(pair));
        assertEquals(List.of(taken), taker.givenBack, "taken for a client that died meanwhile: given back");
        assertEquals(List.of(), response.items(), "and not written to the dead connection");
    }

    @Test
    void aWakeGoesToTheLivePollOnceTheDeadOneIsReleased() throws Exception {
        Loopback.Pair dead = net.connect();
        Loopback.Pair live = net.connect();
        RecordingTaker deadTaker = new RecordingTaker();
        RecordingTaker liveTaker = new RecordingTaker();
        FakeResponse deadResponse = new FakeResponse();
        FakeResponse liveResponse = new FakeResponse();
        waiters.park(AGENT, deadResponse, 25, deadTaker, connection(dead));
        waiters.park(AGENT, liveResponse, 25, liveTaker, connection(live));
        dead.closeClient();
        assertTrue(deadResponse.awaitAnswer());
        int deadTakes = deadTaker.takes.get();

        deadTaker.next = () -> oneMessage(3);
        liveTaker.next = () -> oneMessage(3);
        waiters.wake(AGENT);
        assertTrue(liveResponse.awaitAnswer());
        assertEquals(1, liveResponse.items().size(), "the live poll gets the message");
        assertEquals(deadTakes, deadTaker.takes.get());
        assertEquals(List.of(), liveTaker.givenBack);
        assertEquals(0, waiters.parked());
    }

    @Test
    void aFailedWriteGivesBackWhatItCarried() throws Exception {
        RecordingTaker taker = new RecordingTaker();
        Taken taken = oneMessage(4);
        taker.next = () -> taken;
        FakeResponse response = new FakeResponse();
        response.failWrite = true;
        waiters.park(AGENT, response, 25, taker, PollConnection.UNKNOWN);
        assertEquals(List.of(taken), taker.givenBack);
    }

    @Test
    void anAnswerTheContainerRefusesIsGivenBack() {
        RecordingTaker taker = new RecordingTaker();
        Taken taken = oneMessage(5);
        taker.next = () -> taken;
        FakeResponse response = new FakeResponse();
        response.refuse = true;
        waiters.takeNow(AGENT, response, taker, PollConnection.UNKNOWN);
        assertEquals(List.of(taken), taker.givenBack);
    }

    @Test
    void aLivePollIsAnsweredAndGivesNothingBack() throws Exception {
        Loopback.Pair pair = net.connect();
        RecordingTaker taker = new RecordingTaker();
        FakeResponse response = new FakeResponse();
        waiters.park(AGENT, response, 25, taker, connection(pair));
        assertEquals(1, waiters.parked());
        taker.next = () -> oneMessage(6);
        waiters.wake(AGENT);
        assertTrue(response.awaitAnswer());
        assertEquals(1, response.items().size());
        assertEquals(List.of(), taker.givenBack);
        assertEquals(0, waiters.parked());
        assertTrue(eventually(() -> !pair.server().isRegistered()), "no longer watched");
    }

    @Test
    void aPollWithoutAWaitAnswersEmptyAfterOneTake() {
        RecordingTaker taker = new RecordingTaker();
        FakeResponse response = new FakeResponse();
        waiters.takeNow(AGENT, response, taker, PollConnection.UNKNOWN);
        assertEquals(1, taker.takes.get());
        assertEquals(List.of(), response.items());
        assertEquals(0, waiters.parked());
    }

    @Test
    void aPollWithoutAWaitProbesItsConnectionOnlyAfterALease() throws Exception {
        Loopback.Pair pair = net.connect();
        RecordingTaker taker = new RecordingTaker();
        long before = waiters.watch.probes();
        waiters.takeNow(AGENT, new FakeResponse(), taker, connection(pair));
        assertEquals(1, taker.takes.get());
        assertEquals(0, waiters.watch.probes() - before, "nothing leased: no probe (the request was just read)");

        taker.next = () -> oneMessage(3);
        FakeResponse response = new FakeResponse();
        before = waiters.watch.probes();
        waiters.takeNow(AGENT, response, taker, connection(pair));
        assertEquals(1, waiters.watch.probes() - before, "one probe, after the lease");
        assertEquals(List.of(oneMessage(3).items().get(0)), response.items());
        assertEquals(List.of(), taker.givenBack);
    }

    @Test
    void aPollWithoutAWaitWhoseClientAlreadyLeftGivesItsLeaseBack() throws Exception {
        Loopback.Pair pair = net.connect();
        PollConnection c = connection(pair);
        pair.closeClient();
        assertTrue(eventually(() -> net.watch.readable(pair.server())));
        RecordingTaker taker = new RecordingTaker();
        Taken taken = oneMessage(4);
        taker.next = () -> taken;
        FakeResponse response = new FakeResponse();
        waiters.takeNow(AGENT, response, taker, c);
        assertEquals(List.of(taken), taker.givenBack, "the probe after the lease finds the client gone: given back, nothing lost");
        assertEquals(List.of(), response.items());
    }
}
