package org.switchboard.synapse.federation.outbound;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.journal.JournalEvent;
import org.switchboard.lifecycle.PeriodicSweep;
import org.switchboard.messaging.WorkHandler;
import org.switchboard.messaging.WorkQueue;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseContextSource;

/**
 * Container side of the forward outbox: builds the {@link ForwardService} when the hub is built
 * (replaying the outbox's journal events), runs first attempts on its own pool (those beyond the
 * per-peer cap wait in memory), carries every retry as a JMS work item (the same seam as REDSYN
 * webhook retries; the broker schedules the back-off delay and keeps it across a restart), and
 * runs the 1 s expiry loop plus a recovery sweep that re-queues entries whose item was lost.
 */
@ApplicationScoped
public class ForwardDispatcher implements WorkHandler {

    /** The work-queue kind of forward attempts; the body is the {@code forward_id}. */
    public static final String KIND = "synapse.forward";
    /** How late an entry must be before the sweep re-queues it. */
    static final double GRACE_SECONDS = 30;
    private static final int REPLAY_PAGE = 2000;
    /**
     * First attempts running at once per peer (each on its own fresh socket, §4.3, or sharing reused
     * connections); more wait in memory for a slot. 64 rather than 32: with reused connections an attempt
     * mostly waits for its answer and settlement commit, and 32 held forwarding ~15% below (benchmarks log).
     */
    static final int DIRECT_PER_PEER = 64;
    private static final Logger LOG = Logger.getLogger(ForwardDispatcher.class.getName());

    @Inject
    WorkQueue queue;

    @Inject
    SynapseContextSource hub;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory sweepThreads;

    private volatile ForwardService service;
    private PeriodicSweep sweeps;
    private volatile boolean redriven;
    private volatile java.util.concurrent.ExecutorService direct;
    private volatile PeerClient client;
    private long ticks;

    /**
     * Called by the hub's wiring while it builds the hub (before it serves): the service over the
     * configured peers, its outbox rebuilt from the journal.
     */
    public ForwardService install(SynapseContext ctx, MessagePeers peers, String token, BooleanSupplier deliveryDurable,
                                  Predicate<String> localDelivery) {
        return install(ctx, peers, token, null, false, deliveryDurable, localDelivery, null);
    }

    /**
     * As above; {@code identityKey} ({@value PeerIdentity#KEY}, null or blank: none) signs every peer
     * registration, and peer attachment reads (§5, recipient side) go out through the same client;
     * {@code reuseConnections} ({@code hub.message-peer-reuse}) lets forwards share reused connections
     * with peers that offer it; {@code startupScan} (null: none), the hub's one start-up scan run by the caller afterwards, feeds
     * the outbox instead of its own read.
     */
    public ForwardService install(SynapseContext ctx, MessagePeers peers, String token, String identityKey,
                                  boolean reuseConnections, BooleanSupplier deliveryDurable, Predicate<String> localDelivery,
                                  org.switchboard.journal.ReplayFanout startupScan) {
        PeerClient client = new WebSocketPeerClient(peers.clientIdentity(), reuseConnections);
        if (peers.clientIdentity() != null) {
            // the pin is public (the peers' grants name it); the operator copies it from here
            LOG.info("SYNAPSE: wss:// peers are shown the client certificate '" + peers.clientIdentity().alias()
                    + "' (cert_pin " + peers.clientIdentity().pin() + ")");
        }
        if (identityKey != null && !identityKey.isBlank() && PeerIdentity.fault(identityKey) == null) {
            client = new SigningPeerClient(client, PeerIdentity.load(java.nio.file.Path.of(identityKey.strip())));
        }
        ForwardService built = new ForwardService(ctx, peers, token, client,
                (forwardId, delayMillis) -> queue.submit(KIND, forwardId, Duration.ofMillis(delayMillis)));
        ForwardedDeliveries deliveries = new ForwardedDeliveries(ctx, peers, token, client, deliveryDurable, localDelivery);
        built.deliveries(deliveries);
        built.peerReads(new PeerReadClient(ctx.frames().hubId(), peers, token,
                client, ctx.frames()::now));
        if (direct != null) {
            direct.shutdownNow(); // a rebuilt hub: the old service's pool goes
        }
        if (this.client != null) {
            this.client.close();
        }
        this.client = client;
        java.util.concurrent.atomic.AtomicInteger threads = new java.util.concurrent.atomic.AtomicInteger();
        direct = java.util.concurrent.Executors.newFixedThreadPool(DIRECT_PER_PEER, r -> {
            Thread t = new Thread(r, "synapse-forward-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        built.directAttempts(direct, DIRECT_PER_PEER);
        if (ctx.hasJournal()) {
            Set<String> kinds = new HashSet<>(ForwardJournal.KINDS);
            kinds.addAll(ForwardedDeliveries.KINDS);
            if (startupScan != null && startupScan.join(kinds, event -> {
                built.replay(event);
                deliveries.replay(event);
            }, List.of(built.snapshotPart(), deliveries.snapshotPart()))) {
                // published only once replayed: the sweep must not expire or re-queue a half-built outbox
                startupScan.afterScan(() -> service = built);
                return built;
            }
            long after = 0;
            while (true) {
                List<JournalEvent> page = ctx.journal().read(after, REPLAY_PAGE, kinds);
                for (JournalEvent event : page) {
                    built.replay(event);
                    deliveries.replay(event);
                }
                if (page.size() < REPLAY_PAGE) {
                    break;
                }
                after = page.get(page.size() - 1).seq();
            }
        }
        service = built;
        return built;
    }

    /** The service (building the hub first if needed); null when the hub was built without it. */
    public ForwardService service() {
        if (service == null) {
            hub.context();
        }
        return service;
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public void handle(String body, int deliveryCount) {
        // Never builds the hub from here: an item the broker redelivers while the application deploys
        // would build it on the MDB thread, under the runtime's lock, while deployment still needs the
        // main thread (seen as a restart after kill -9 that never became ready). Dropping the item is
        // safe: the first tick after the hub is built re-queues every pending entry.
        ForwardService current = service;
        if (current != null && body != null) {
            current.attempt(body.strip());
        }
    }

    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        sweeps = PeriodicSweep.start(sweepThreads, "synapse-forward-sweeper-stop", 1000, this::tick);
    }


    @PreDestroy
    void stop() {
        if (sweeps != null) {
            sweeps.close();
        }
        if (direct != null) {
            direct.shutdownNow(); // an attempt cut short leaves its entry pending: the next start re-queues it
        }
        if (client != null) {
            client.close();
        }
    }

    /** Every second: expiry and idle reused connections closed; once after start, every pending entry re-queued; every 10 s, lost items recovered. */
    void tick() {
        try {
            ForwardService current = service; // as in handle: the hub is built by its own start-up, not here
            if (current == null) {
                return;
            }
            current.expireDue();
            PeerClient peers = client;
            if (peers != null) {
                peers.closeIdle();
            }
            ticks++;
            if (!redriven) {
                redriven = true;
                int n = current.redrive(0);
                if (n > 0) {
                    LOG.info("forward outbox: " + n + " pending forwards re-queued after start");
                }
            } else if (ticks % 10 == 0) {
                int n = current.redrive(GRACE_SECONDS);
                if (n > 0) {
                    LOG.info("forward recovery sweep: re-queued " + n + " overdue forwards");
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "forward outbox sweep failed; retrying in a second", e);
        }
    }
}
