package org.switchboard.redsyn.inbox;

import org.switchboard.json.Jsons;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.servlet.ServletRequest;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.ConnectionCallback;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.container.ContainerSeam;
import org.switchboard.lifecycle.ExecutorStop;
import org.switchboard.redsyn.message.MessageQueued;

/**
 * Parked long polls per agent. A poll parks as a small {@link Waiter} on a suspended response; a
 * commit that queues a message for the agent wakes its waiters, which retry the take on a managed
 * executor. No thread waits and the database is not polled. A poll whose client goes away is
 * released at once ({@link ConnectionWatch}), and nothing is leased to a poll that cannot deliver
 * it: its connection is checked just before and just after the lease, and a lease that could not be
 * delivered is given back without counting an attempt.
 */
@ApplicationScoped
public class InboxWaiters {

    private static final Logger LOG = Logger.getLogger(InboxWaiters.class.getName());
    private static final int RELEASE_THREADS = 4;

    @Resource
    ManagedExecutorService executor;

    @Resource
    ManagedThreadFactory threads;

    @Inject
    ContainerSeam seam;

    private final Map<Long, Set<Waiter>> byAgent = new ConcurrentHashMap<>();
    private final AtomicInteger parked = new AtomicInteger();
    private final AtomicBoolean toldNoChannel = new AtomicBoolean();
    ConnectionWatch watch;

    /**
     * Releases polls whose client left. A few threads of their own: the default managed executor runs
     * one task at a time, and a crowd of clients leaving at once should not wait in line behind it.
     */
    private ThreadPoolExecutor releases;
    /** The managed threads of the releases pool and the connection watch, waited for at stop until they have ended. */
    private ExecutorStop.TrackedThreads ownThreads;

    @PostConstruct
    void start() {
        try {
            ownThreads = ExecutorStop.tracked(threads);
            releases = new ThreadPoolExecutor(RELEASE_THREADS, RELEASE_THREADS, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), ownThreads);
            releases.allowCoreThreadTimeOut(true);
            watch = new ConnectionWatch(ownThreads, releases);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "REDSYN long polls: no connection watch; abandoned polls end with their wait", e);
        }
    }

    @PreDestroy
    void stop() {
        if (watch != null) {
            watch.close();
        }
        if (releases != null) {
            releases.shutdown();
            // its managed threads end (and the container closes what they used) before the persistence unit does
            ExecutorStop.awaitEnded(Duration.ofSeconds(1), ownThreads, releases);
        }
    }

    /** The connection of a poll's request, as far as its liveness can be known. */
    PollConnection connection(ServletRequest request) {
        if (watch == null) {
            return PollConnection.UNKNOWN;
        }
        SocketChannel channel = seam.shortcuts().channel(request);
        if (channel == null && request != null && !toldNoChannel.getAndSet(true)) {
            LOG.info(() -> "REDSYN long polls: no access to the connection under " + request.getClass().getName() + " ("
                    + request.getProtocol() + "); a poll whose client left is released only when its wait ends");
        }
        return watch.connection(channel);
    }

    /**
     * Answers a poll without a wait: what one take finds, possibly nothing. Its connection is probed
     * only after a lease, not before: this runs on the request's own thread just after its bytes were
     * read, and a probe costs a few syscalls under one lock shared by all request threads; a client
     * that left meanwhile is still caught by the probe after the lease, which gives the lease back.
     */
    public void takeNow(long agentId, AsyncResponse response, Taker taker, PollConnection connection) {
        Waiter waiter = waiter(agentId, response, taker, connection);
        waiter.lastAttempt();
        if (waiter.startRun()) {
            attempts(waiter, false);
        }
    }

    /**
     * Answers a poll with what is waiting, or parks it for up to {@code waitSeconds}. A take is tried
     * first; a poll that finds nothing registers and tries once more, so a message committed between
     * the first take and the registration is not missed.
     */
    public void park(long agentId, AsyncResponse response, int waitSeconds, Taker taker, PollConnection connection) {
        Waiter waiter = waiter(agentId, response, taker, connection);
        if (!waiter.startRun() || attempts(waiter) != Waiter.Outcome.PARK) {
            return; // answered (or released) without parking: most polls of a busy agent
        }
        byAgent.computeIfAbsent(agentId, k -> ConcurrentHashMap.newKeySet()).add(waiter);
        parked.incrementAndGet();
        response.setTimeoutHandler(r -> {
            if (waiter.expire()) {
                release(waiter);
                // answer on the managed executor: the JAX-RS timeout thread is shared by every parked poll
                executor.execute(() -> r.resume(items(List.of())));
            } else if (!waiter.done()) {
                r.setTimeout(2, TimeUnit.SECONDS); // an attempt is running and will answer
            }
        });
        response.setTimeout(waitSeconds, TimeUnit.SECONDS);
        connection.watch(() -> disconnected(waiter));
        run(waiter);
    }

    private Waiter waiter(long agentId, AsyncResponse response, Taker taker, PollConnection connection) {
        Waiter waiter = new Waiter(agentId, response, taker, connection);
        // Jersey calls this when writing the answer fails: what it carried is given back
        response.register((ConnectionCallback) r -> {
            waiter.disconnect();
            release(waiter);
            giveBack(waiter, waiter.takeBackHanded());
        });
        return waiter;
    }

    /** The watch saw the client of a waiter close its connection: release a parked waiter now. */
    private void disconnected(Waiter waiter) {
        if (waiter.disconnect()) {
            release(waiter);
            // the answer goes nowhere, but completing the request lets the container close the socket now
            waiter.response.resume(items(List.of()));
        }
    }

    /** Wakes the agent's parked polls once the transaction that queued a message has committed. */
    void onQueued(@Observes(during = TransactionPhase.AFTER_SUCCESS) MessageQueued event) {
        wake(event.agentId());
    }

    /**
     * Wakes one parked poll of the agent: one queued message needs one taker, and a take hands out
     * everything available. Polls already running a take are told to try again; polls whose client
     * has gone are skipped (a running attempt gives back what it takes for them and wakes again).
     */
    public void wake(long agentId) {
        Set<Waiter> waiters = byAgent.get(agentId);
        if (waiters == null || waiters.isEmpty()) {
            return;
        }
        for (Waiter w : waiters) {
            if (w.startRun()) {
                executor.execute(() -> attempts(w));
                return;
            }
        }
    }

    private void run(Waiter waiter) {
        if (waiter.startRun()) {
            attempts(waiter);
        }
    }

    /** Take attempts of a claimed (running) waiter until it answers, is released, or parks again. */
    private Waiter.Outcome attempts(Waiter waiter) {
        return attempts(waiter, true);
    }

    /** As {@link #attempts(Waiter)}; {@code probeFirst} false skips the connection probe before the first lease. */
    private Waiter.Outcome attempts(Waiter waiter, boolean probeFirst) {
        boolean probe = probeFirst;
        while (true) {
            Taken taken = Taken.none(waiter.agentId);
            try {
                // lease only for a client that is still there, and look again once leased
                boolean gone = probe ? waiter.clientGone() : waiter.toldGone();
                probe = true;
                if (!gone) {
                    taken = waiter.taker.take();
                    if (!taken.isEmpty()) {
                        waiter.clientGone();
                    }
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "long poll take failed", e);
                waiter.abandon();
                release(waiter);
                waiter.response.resume(e);
                return Waiter.Outcome.ANSWER;
            }
            Waiter.Outcome outcome = waiter.finishRun(!taken.isEmpty());
            switch (outcome) {
                case GONE -> {
                    release(waiter);
                    giveBack(waiter, taken);
                    waiter.response.resume(items(List.of()));
                    return outcome;
                }
                case ANSWER -> {
                    release(waiter);
                    waiter.handing(taken);
                    if (!waiter.response.resume(items(taken.items()))) {
                        giveBack(waiter, waiter.takeBackHanded()); // already cancelled: nobody gets them
                    }
                    return outcome;
                }
                case PARK -> {
                    return outcome;
                }
                default -> {
                    // woken while running: try again
                }
            }
        }
    }

    private void giveBack(Waiter waiter, Taken taken) {
        if (taken == null || taken.isEmpty()) {
            return;
        }
        try {
            waiter.taker.giveBack(taken); // its commit wakes another poll of the agent
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not give back a lease nobody received; it ends with its lease", e);
        }
    }

    /** Out of the parked set, and no longer watched. */
    private void release(Waiter waiter) {
        waiter.connection.unwatch();
        Set<Waiter> waiters = byAgent.get(waiter.agentId);
        if (waiters != null && waiters.remove(waiter)) {
            parked.decrementAndGet();
        }
    }

    /** Number of parked polls. */
    public int parked() {
        return parked.get();
    }

    /** The {@code {"items": [...]}} reply (a 200 in the resource's JSON). */
    public static JsonObject items(List<JsonObject> items) {
        JsonArrayBuilder array = Jsons.PROVIDER.createArrayBuilder();
        items.forEach(array::add);
        return Jsons.PROVIDER.createObjectBuilder().add("items", array).build();
    }
}
