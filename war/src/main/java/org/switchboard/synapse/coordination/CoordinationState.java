package org.switchboard.synapse.coordination;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Local;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.journal.Journal;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseContextSource;
import org.switchboard.synapse.board.BoardState;
import org.switchboard.synapse.capability.CapabilityState;
import org.switchboard.synapse.claims.ClaimsState;
import org.switchboard.synapse.resource.ResourceState;
import org.switchboard.synapse.board.Blackboard;
import org.switchboard.synapse.capability.CapabilityRegistry;
import org.switchboard.synapse.capability.CardVerifier;
import org.switchboard.synapse.capability.SignedCardVerifier;
import org.switchboard.synapse.idempotency.HubReply;
import org.switchboard.synapse.idempotency.IdempotencyLedger;
import org.switchboard.synapse.idempotency.InMemoryOperationStore;
import org.switchboard.synapse.idempotency.MutationFlow;
import org.switchboard.synapse.idempotency.OperationRecord;
import org.switchboard.synapse.resource.ResourceOffers;
import org.switchboard.synapse.claims.ClaimBook;

/**
 * The EJB singleton that owns SYNAPSE coordination state: one {@link ClaimBook}, {@link Blackboard},
 * {@link CapabilityRegistry}, {@link ResourceOffers} and {@link IdempotencyLedger} per hub. It
 * rebuilds them from the journal at start-up (before any verb is served: the container holds
 * business calls until {@code @PostConstruct} returns) and runs the 5 s sweep (lease expiry, card
 * and offer TTLs, dark seats, disconnected waiters). Concurrency is bean-managed: each rule class
 * has its own lock, so this bean adds none; it never opens a JTA transaction (the journal commits
 * its own batches).
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
@LocalBean
@Local({ClaimsState.class, BoardState.class, CapabilityState.class, ResourceState.class})
public class CoordinationState implements ClaimsState, BoardState, CapabilityState, ResourceState {

    private static final Logger LOG = Logger.getLogger(CoordinationState.class.getName());
    private static final int PAGE = 2000;
    /** Journal kinds that rebuild coordination state. */
    static final Set<String> CLAIM_KINDS = Set.of("claim", "task_update", "checkpoint", "handoff", "release");
    private static final Set<String> REPLAY_KINDS = Set.of("claim", "task_update", "checkpoint", "handoff", "release",
            "ledger_task", "ledger_progress", "resource", CapabilityRegistry.REGISTRATION_EVENT, OperationRecord.EVENT_KIND);

    @Inject
    SynapseContextSource hub;

    /** The operator's limits, produced by the hub's configuration. */
    @Inject
    CoordinationSettings settings;

    // built from the operator's limits in start(), before any verb is served
    private Blackboard board;
    private ClaimBook book;
    private CapabilityRegistry capabilities;
    private ResourceOffers resources;
    private MutationFlow flow;
    private DarkSeatWatch darkSeats;
    /** The last ordered claim append (set under the book's lock); a rebuild waits for it. */
    private final AtomicReference<CompletableFuture<long[]>> lastClaimAppend =
            new AtomicReference<>(CompletableFuture.completedFuture(new long[0]));

    @PostConstruct
    void start() {
        board = new Blackboard(settings.board());
        book = new ClaimBook(settings.claims(), board::acceptCommitted);
        capabilities = new CapabilityRegistry(cardVerifier(settings), settings.liveCardTtlSeconds(),
                settings.persistentCardTtlSeconds());
        resources = new ResourceOffers(settings.maxOffersPerAgent(), settings.offerTtlSeconds());
        flow = new MutationFlow(new IdempotencyLedger(new InMemoryOperationStore(), settings.idempotencyCacheSize()));
        darkSeats = new DarkSeatWatch(settings.darkSeatGraceSeconds());
        long started = System.nanoTime();
        long cpuStarted = org.switchboard.lifecycle.ThreadCpu.now();
        int[] count = {0};
        Consumer<JournalEvent> rebuild = event -> {
            count[0]++;
            book.apply(event);
            board.apply(event);
            resources.apply(event);
            capabilities.apply(event);
            flow.ledger().apply(event);
        };
        // joins the hub's one start-up scan when the hub is not built yet; else reads its kinds itself
        boolean shared = hub.contextWithStartupReplay(REPLAY_KINDS, rebuild, List.of(book.snapshotPart(),
                board.snapshotPart(), resources.snapshotPart(), capabilities.snapshotPart(), flow.ledger().snapshotPart()));
        SynapseContext ctx = hub.context();
        if (!shared && ctx.hasJournal()) {
            readAll(ctx.journal(), REPLAY_KINDS, rebuild);
        }
        double now = ctx.frames().now();
        book.expire(now);
        resources.expire(now);
        capabilities.expire(now);
        LOG.info("SYNAPSE coordination rebuilt from " + count[0] + " journal events (" + (shared ? "in the hub's start-up scan" : "own read")
                + ") in "
                + (System.nanoTime() - started) / 1_000_000 + " ms (cpu " + org.switchboard.lifecycle.ThreadCpu.millisSince(cpuStarted)
                + " ms): " + book.liveClaims(now).size() + " live claims");
    }

    /**
     * The card verifier: Ed25519 against the configured trust bundle, or none. A bundle that cannot
     * be read fails the deployment: an operator who configured trust must not silently get none.
     */
    private static CardVerifier cardVerifier(CoordinationSettings settings) {
        if (settings.cardTrustFile().isEmpty()) {
            return CardVerifier.WITHOUT_TRUST_BUNDLE;
        }
        try {
            SignedCardVerifier verifier = SignedCardVerifier.load(Path.of(settings.cardTrustFile()), settings.cardSkewSeconds());
            LOG.info("SYNAPSE capability-card trust bundle loaded: keys " + verifier.keyIds());
            return verifier;
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("capability-card trust bundle " + settings.cardTrustFile()
                    + " is unusable: " + e.getMessage(), e);
        }
    }

    private static void readAll(Journal journal, Set<String> kinds, Consumer<JournalEvent> sink) {
        long after = 0;
        while (true) {
            List<JournalEvent> page = journal.read(after, PAGE, kinds);
            for (JournalEvent event : page) {
                sink.accept(event);
                after = event.seq();
            }
            if (page.size() < PAGE) {
                return;
            }
        }
    }

    /** The claim book. */
    @Override
    public ClaimBook book() {
        return book;
    }

    /** The blackboard. */
    @Override
    public Blackboard board() {
        return board;
    }

    /** The capability registry. */
    @Override
    public CapabilityRegistry capabilities() {
        return capabilities;
    }

    /** The resource offers. */
    @Override
    public ResourceOffers resources() {
        return resources;
    }

    /** The keyed-mutation flow (and its idempotency ledger). */
    @Override
    public MutationFlow flow() {
        return flow;
    }

    /** Holder of the latest ordered claim append; the handler sets it under the claim book's lock. */
    @Override
    public AtomicReference<CompletableFuture<long[]>> lastClaimAppend() {
        return lastClaimAppend;
    }

    /**
     * An ordered claim append failed after the book applied it: wait until every earlier append
     * settled, then rebuild the book from the journal while holding its lock (journal = truth).
     */
    @Override
    public void claimAppendLost(Throwable cause) {
        SynapseContext ctx = hub.context();
        if (!ctx.hasJournal()) {
            return;
        }
        ctx.blocking().execute(() -> {
            try {
                book.rebuild(sink -> {
                    try {
                        lastClaimAppend.get().handle((s, e) -> s).get(30, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        LOG.log(Level.WARNING, "waiting for claim appends before a rebuild", e);
                    }
                    readAll(ctx.journal(), CLAIM_KINDS, sink);
                }, ctx.frames().now());
                LOG.warning("SYNAPSE claim book rebuilt from the journal after a lost append");
            } catch (RuntimeException e) {
                LOG.log(Level.SEVERE, "SYNAPSE claim book rebuild failed", e);
            }
        });
    }

    /** The 5 s sweep: lease expiry, card and offer lifetimes, disconnected waiters, dark seats. */
    @Schedule(second = "*/5", minute = "*", hour = "*", persistent = false)
    void sweep() {
        try {
            SynapseContext ctx = hub.context();
            double now = ctx.frames().now();
            book.expire(now);
            resources.expire(now);
            capabilities.expire(now);
            Set<String> online = ctx.registry().boundNames();
            for (String waiter : book.waiters()) {
                if (!online.contains(waiter)) {
                    book.disconnected(waiter);
                }
            }
            capabilities.retainLiveCardsOf(online);
            List<HubReply> alerts = darkSeats.poll(book.liveTasksByOwner(now), board.openTasksBySuggestedOwner(),
                    name -> ctx.registry().hasLiveWaiter(name, now), now);
            for (HubReply alert : alerts) {
                ctx.broadcast(alert.toFrame("all", now, ctx.frames().hubId()).toString());
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "SYNAPSE coordination sweep failed", e);
        }
    }
}
