package org.switchboard.redsyn.inbox;

import org.switchboard.json.Jsons;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.ConnectionCallback;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.redsyn.message.MessageQueued;

/**
 * Parked long polls per agent. A poll parks as a small {@link Waiter} on a suspended response; a
 * commit that queues a message for the agent wakes its waiters, which retry the take on a managed
 * executor. No thread waits and the database is not polled.
 */
@ApplicationScoped
public class InboxWaiters {

    private static final Logger LOG = Logger.getLogger(InboxWaiters.class.getName());

    @Resource
    ManagedExecutorService executor;

    private final Map<Long, Set<Waiter>> byAgent = new ConcurrentHashMap<>();
    private final AtomicInteger parked = new AtomicInteger();

    /**
     * Parks a poll for up to {@code waitSeconds}. The take is attempted once after registering, so a
     * message committed between the caller's first take and the parking is not missed.
     */
    public void park(long agentId, AsyncResponse response, int waitSeconds, Supplier<List<JsonObject>> attempt) {
        Waiter waiter = new Waiter(agentId, response, attempt);
        byAgent.computeIfAbsent(agentId, k -> ConcurrentHashMap.newKeySet()).add(waiter);
        parked.incrementAndGet();
        response.setTimeoutHandler(r -> {
            if (waiter.expire()) {
                remove(waiter);
                // answer on the managed executor: the JAX-RS timeout thread is shared by every parked poll
                executor.execute(() -> r.resume(items(List.of())));
            } else if (!waiter.done()) {
                r.setTimeout(2, TimeUnit.SECONDS); // an attempt is running and will answer
            }
        });
        response.register((ConnectionCallback) r -> {
            waiter.abandon();
            remove(waiter);
        });
        response.setTimeout(waitSeconds, TimeUnit.SECONDS);
        run(waiter);
    }

    /** Wakes the agent's parked polls once the transaction that queued a message has committed. */
    void onQueued(@Observes(during = TransactionPhase.AFTER_SUCCESS) MessageQueued event) {
        wake(event.agentId());
    }

    /**
     * Wakes one parked poll of the agent: one queued message needs one taker, and a take hands out
     * everything available. Polls already running a take are told to try again.
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

    /** Take attempts of a claimed (running) waiter until it answers or parks again. */
    private void attempts(Waiter waiter) {
        while (true) {
            List<JsonObject> items;
            try {
                items = waiter.attempt();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "long poll take failed", e);
                waiter.abandon();
                remove(waiter);
                waiter.response.resume(e);
                return;
            }
            switch (waiter.finishRun(!items.isEmpty())) {
                case ANSWER -> {
                    remove(waiter);
                    waiter.response.resume(items(items));
                    return;
                }
                case PARK -> {
                    return;
                }
                default -> {
                    // woken while running: try again
                }
            }
        }
    }

    private void remove(Waiter waiter) {
        Set<Waiter> waiters = byAgent.get(waiter.agentId);
        if (waiters != null && waiters.remove(waiter)) {
            parked.decrementAndGet();
        }
    }

    /** Number of parked polls. */
    public int parked() {
        return parked.get();
    }

    /** The {@code {"items": [...]}} reply. */
    public static Response items(List<JsonObject> items) {
        JsonArrayBuilder array = Jsons.PROVIDER.createArrayBuilder();
        items.forEach(array::add);
        return Response.ok(Jsons.PROVIDER.createObjectBuilder().add("items", array).build()).build();
    }
}
