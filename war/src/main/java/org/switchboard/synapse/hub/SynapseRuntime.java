package org.switchboard.synapse.hub;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.container.IdleTimerBypass;
import org.switchboard.journal.Journal;
import org.switchboard.lifecycle.ExecutorStop;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.session.WebSocketPeer;
import org.switchboard.synapse.wire.HubFrames;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseContextSource;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.VerbHandler;
import org.switchboard.synapse.StateSnapshotContributor;

/**
 * Container wrapper of the SYNAPSE core: builds {@link SynapseHub} at application start-up with
 * the configured settings, the Journal (when one is deployed), extension handlers and state
 * contributors found as CDI beans; replays the journal; runs the keepalive and drain-deadline timers.
 */
@ApplicationScoped
public class SynapseRuntime implements SynapseContextSource {

    private static final Logger LOG = Logger.getLogger(SynapseRuntime.class.getName());
    private static final long PING_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(15);

    @Inject
    SynapseConfig config;

    @Inject
    Instance<Journal> journals;

    @Inject
    Instance<VerbHandler> extensionHandlers;

    @Inject
    Instance<StateSnapshotContributor> contributors;

    @Resource
    ManagedThreadFactory threadFactory;

    @Inject
    Instance<org.switchboard.synapse.claims.ClaimsState> claimsStates;

    /** The attachment ledger in the hub's database (JTA transactions through the bean). */
    @Inject
    Instance<org.switchboard.synapse.attachments.JpaAttachmentLedger> attachmentLedgers;

    /** State snapshots of the start-up replay on or off (issue 20; journal.md, "Restart time"). */
    @Inject
    @org.eclipse.microprofile.config.inject.ConfigProperty(name = "hub.journal.snapshot-enabled", defaultValue = "true")
    boolean snapshotsEnabled;

    /** A start writes a snapshot when it replayed at least this many events after the one it used. */
    @Inject
    @org.eclipse.microprofile.config.inject.ConfigProperty(name = "hub.journal.snapshot-interval-events", defaultValue = "10000")
    long snapshotIntervalEvents;

    /** Chat older than this many seconds may be deleted from the journal (issue 20); 0 = no age limit. */
    @Inject
    @org.eclipse.microprofile.config.inject.ConfigProperty(name = org.switchboard.journal.JournalRetention.MAX_AGE_KEY, defaultValue = "0")
    long retentionMaxAgeSeconds;

    /** Chat more than this many events below the newest may be deleted from the journal; 0 = no row limit. */
    @Inject
    @org.eclipse.microprofile.config.inject.ConfigProperty(name = org.switchboard.journal.JournalRetention.MAX_ROWS_KEY, defaultValue = "0")
    long retentionMaxRows;

    /** How often the retention pass runs, in seconds. */
    @Inject
    @org.eclipse.microprofile.config.inject.ConfigProperty(name = org.switchboard.journal.JournalRetention.INTERVAL_KEY, defaultValue = "60")
    long retentionIntervalSeconds;

    /** The hub's data directory; snapshots live in its {@code snapshot/} folder. */
    @Inject
    @org.eclipse.microprofile.config.inject.ConfigProperty(name = "hub.data-dir", defaultValue = "./data")
    String dataDir;

    /** The forward outbox's container side (synapse-advanced §4.6). */
    @Inject
    org.switchboard.synapse.federation.outbound.ForwardDispatcher forwardDispatcher;

    private volatile SynapseHub hub;
    /** The managed threads of this runtime's pools, waited for at stop until they have ended (ExecutorStop). */
    private volatile ExecutorStop.TrackedThreads ownThreads;
    private ScheduledExecutorService timers;
    private ExecutorService blocking;
    private volatile IdleTimerBypass sessionTimers;
    private org.switchboard.synapse.session.FrameFlusher frameFlusher;
    private volatile Boolean postureRefuses;
    /** The key of a security file that refused to load (issue 17): the hub then never serves. */
    private volatile String securityRefusal;
    private volatile long replayMillis = -1;
    /** The journal's retention pass and its schedule (null while both limits are off). */
    private volatile org.switchboard.journal.RetentionPass retention;
    private volatile org.switchboard.lifecycle.PeriodicSweep retentionSweep;
    /** The one start-up scan of the journal: the hub, the forward outbox and coordination state share it. */
    private final org.switchboard.journal.ReplayFanout startupScan = new org.switchboard.journal.ReplayFanout();

    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        hub();
        refusesToServe();
    }

    /**
     * True when the off-loopback posture check (§2.4) or a security layer's configuration (a file
     * that does not load — message-auth keys, signed-event trust, identity trust, ACL policy, role
     * grants — or a requirement without its material) forbids serving SYNAPSE: sockets are then
     * refused, /health and /metrics answer 503 and readiness is DOWN. Logged once, at SEVERE.
     */
    public boolean refusesToServe() {
        Boolean current = postureRefuses;
        if (current == null) {
            hub(); // builds the hub first, which loads the security files
            java.util.List<String> missing = org.switchboard.synapse.posture.BindPosture.missingSettings(config.bind(),
                    config.allowInsecureBind(), config.settings(), config.tlsInPlace());
            current = !missing.isEmpty() || securityRefusal != null;
            if (!missing.isEmpty()) {
                LOG.severe(org.switchboard.synapse.posture.BindPosture.refusal(config.bind(), missing));
            }
            // the security layers' files: each fault is one SEVERE line naming its key (never a secret)
            for (String fault : new String[] {
                    org.switchboard.synapse.messageauth.MessageAuthStartup.fault(config.settings()),
                    org.switchboard.synapse.identity.IdentityStartup.fault(config.settings()),
                    org.switchboard.synapse.governance.GovernanceStartup.fault(config.settings()),
                    hub().federation().startupFault(),
                    config.postureRefusal(hub().context().hasJournal()),
                    config.messagePeers().fault(),
                    org.switchboard.synapse.federation.outbound.PeerIdentity.fault(config.messagePeerIdentityKey())}) {
                if (fault != null) {
                    LOG.severe(fault);
                    current = true;
                }
            }
            postureRefuses = current;
        }
        return current;
    }

    /** True once the hub is built and its journal replayed (readiness), without triggering the build. */
    public boolean started() {
        return hub != null;
    }

    /** The hub's context (the hub is built and replayed on first use). */
    @Override
    public SynapseContext context() {
        return hub().context();
    }

    @Override
    public boolean contextWithStartupReplay(java.util.Set<String> kinds,
                                            java.util.function.Consumer<org.switchboard.journal.JournalEvent> sink) {
        return contextWithStartupReplay(kinds, sink, List.of());
    }

    @Override
    public boolean contextWithStartupReplay(java.util.Set<String> kinds,
                                            java.util.function.Consumer<org.switchboard.journal.JournalEvent> sink,
                                            List<org.switchboard.journal.snapshot.SnapshotPart> parts) {
        synchronized (this) {
            boolean joined = hub == null && startupScan.join(kinds, sink, parts);
            hub();
            return joined;
        }
    }

    /** The hub, built and replayed on first use. */
    public SynapseHub hub() {
        SynapseHub current = hub;
        if (current == null) {
            synchronized (this) {
                if (hub == null) {
                    hub = build();
                }
                current = hub;
            }
        }
        return current;
    }

    private SynapseHub build() {
        SynapseSettings settings = config.settings();
        if (settings.maxFrameKib() != org.switchboard.synapse.session.FrameSizeLimit.clampKib(settings.maxFrameKib())) {
            LOG.warning("hub.max-frame-kib=" + settings.maxFrameKib() + " is outside 1.."
                    + org.switchboard.synapse.session.FrameSizeLimit.MAX_KIB + "; using "
                    + org.switchboard.synapse.session.FrameSizeLimit.clampKib(settings.maxFrameKib()));
        }
        if (settings.maxReplyBytes() < SynapseSettings.MIN_REPLY_BYTES) {
            LOG.warning("hub.max-reply-bytes=" + settings.maxReplyBytes() + " is below one 1 MiB chat and its envelope; using "
                    + settings.replyBudget());
        }
        WebSocketPeer.defaultOutboundMaxBytes(settings.outboundMaxBytes());
        Journal journal = journals.isResolvable() ? journals.get() : null;
        if (journal == null) {
            LOG.warning("SYNAPSE: no Journal deployed; running without durability (no seq, no mailbox)");
        }
        // a cancelled registration deadline leaves the queue at once instead of holding its socket until due
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, ownThreads());
        timer.setRemoveOnCancelPolicy(true);
        timers = timer;
        blocking = Executors.newFixedThreadPool(4, ownThreads());
        // fan-out runs on the journal's completion thread, inside the group commit's CompletionBatch,
        // so the frames one commit sends to a socket leave in one write (and no hand-off per chat)
        SynapseHub built = new SynapseHub(settings, journal, HubFrames::wallClock, blocking, Runnable::run, () -> {
            List<StateSnapshotContributor> list = new ArrayList<>();
            contributors.forEach(list::add);
            return list;
        });
        // the ACL layer (issue 17): a faulty policy or grants file stops the build here
        org.switchboard.synapse.acl.AclLayer acl = org.switchboard.synapse.acl.AclLayer.of(built.context());
        try {
            acl.configure(config.acl());
        } catch (org.switchboard.synapse.security.PolicyFileException e) {
            securityRefusal = e.key(); // logged once, SEVERE, by the layer
        }
        acl.liveClaims(new org.switchboard.synapse.acl.HeldClaims(
                () -> claimsStates.isResolvable() ? claimsStates.get().book() : null, built.context().frames()::now));
        // the attachment store (synapse-advanced §3.1) opens only now that every security layer is configured
        built.openAttachments(attachmentSecurity(settings, acl),
                new org.switchboard.synapse.attachments.GrantedAttachmentAuthority(acl), attachmentLedgers::get);
        for (VerbHandler handler : extensionHandlers) {
            built.dispatcher().register(handler);
        }
        long started = System.nanoTime();
        // CPU as well as wall time: on a loaded machine the wall figure says more about the neighbours
        long cpuStarted = org.switchboard.lifecycle.ThreadCpu.now();
        // cross-hub forwarding, origin side (synapse-advanced §4.6): the outbox joins the one start-up scan
        org.switchboard.synapse.federation.outbound.ForwardService forwards = forwardDispatcher.install(built.context(),
                config.messagePeers(), config.messagePeerToken(), config.messagePeerIdentityKey(),
                config.messagePeerReuse(), built.delivery()::durable, built.delivery()::holds, startupScan);
        org.switchboard.journal.snapshot.StartupSnapshot snapshots = startupSnapshots(journal);
        built.replayJournal(startupScan, snapshots);
        built.forwarding(forwards);
        replayMillis = (System.nanoTime() - started) / 1_000_000;
        long replayCpuMillis = org.switchboard.lifecycle.ThreadCpu.millisSince(cpuStarted);
        org.switchboard.journal.snapshot.StartupSnapshot.Restored restored = startupScan.restored();
        // the first part of this line is parsed by LargeJournalRestartIT: extended after the scan count, never changed
        LOG.info("SYNAPSE hub " + built.hubId() + " ready (journal replay " + replayMillis
                + " ms, cpu " + replayCpuMillis + " ms, corrupt rows " + built.corruptRows() + ", events read "
                + startupScan.events() + " in one scan; state snapshot "
                + (restored.used() ? "used at seq " + restored.seq() + ", " + startupScan.events() + " events replayed after it"
                        : "not used: " + restored.description())
                + (snapshots.file() == null ? "" : ", new snapshot " + snapshots.written()) + ")");
        timers.scheduleWithFixedDelay(() -> tick(built), 1, 1, TimeUnit.SECONDS);
        timers.scheduleWithFixedDelay(() -> sweepDeliveries(built), 5, 5, TimeUnit.SECONDS);
        startRetention(journal, built);
        return built;
    }

    /** The journal retention pass (issue 20, journal.md "Retention"), when a limit is set and there is a journal. */
    private void startRetention(Journal journal, SynapseHub built) {
        org.switchboard.journal.JournalRetention.Settings limits =
                new org.switchboard.journal.JournalRetention.Settings(retentionMaxAgeSeconds, retentionMaxRows);
        if (journal == null || limits.off()) {
            return;
        }
        org.switchboard.journal.RetentionPass pass = new org.switchboard.journal.RetentionPass(limits, java.util.Set.of("chat"),
                built::retainedChatsBelow, HubFrames::wallClock);
        retention = pass;
        long intervalMillis = TimeUnit.SECONDS.toMillis(Math.max(1, retentionIntervalSeconds));
        retentionSweep = org.switchboard.lifecycle.PeriodicSweep.start(threadFactory, "journal retention", intervalMillis, () -> {
            try {
                org.switchboard.journal.RetentionPass.Result result = pass.run(journal);
                if (result != null && result.deleted() > 0) {
                    LOG.info(() -> "SYNAPSE journal retention: deleted " + result.deleted() + " chat events below seq "
                            + result.cut().deleteBelow() + " (limited by " + result.cut().limitedBy() + ")");
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "SYNAPSE journal retention pass failed; the next one tries again", e);
            }
        });
        LOG.info(() -> "SYNAPSE journal retention on: chat deleted when "
                + (retentionMaxAgeSeconds > 0 ? "older than " + retentionMaxAgeSeconds + " s" : "")
                + (retentionMaxAgeSeconds > 0 && retentionMaxRows > 0 ? " or " : "")
                + (retentionMaxRows > 0 ? "more than " + retentionMaxRows + " events below the newest" : "")
                + ", every " + intervalMillis / 1000 + " s; kept: directed chats a mailbox still owes,"
                + " pending receipts' chats, the newest chat and every other kind");
    }

    /** The journal retention pass, or null while it is off (metrics). */
    public org.switchboard.journal.RetentionPass retention() {
        return retention;
    }

    /** State snapshots (issue 20) in {@code <hub.data-dir>/snapshot/}, as configured; off without a journal. */
    private org.switchboard.journal.snapshot.StartupSnapshot startupSnapshots(Journal journal) {
        if (journal == null || !snapshotsEnabled) {
            return org.switchboard.journal.snapshot.StartupSnapshot.off();
        }
        return new org.switchboard.journal.snapshot.StartupSnapshot(java.nio.file.Path.of(dataDir).resolve("snapshot")
                .resolve(org.switchboard.journal.snapshot.StartupSnapshot.FILE_NAME), true, snapshotIntervalEvents,
                journal.hubId());
    }

    /**
     * Which §3.1 security pieces this hub has: the identity and message-auth settings, the HMAC keys
     * that load, the database behind the replay store, and the configured ACL layer.
     */
    private static org.switchboard.synapse.attachments.AttachmentSecurity attachmentSecurity(SynapseSettings settings,
            org.switchboard.synapse.acl.AclLayer acl) {
        int hmacKeys = 0;
        if (!settings.messageAuthKeyFile().isEmpty()) {
            try {
                hmacKeys = org.switchboard.synapse.messageauth.MessageAuthKeys.load(
                        java.nio.file.Path.of(settings.messageAuthKeyFile())).size();
            } catch (org.switchboard.synapse.security.PolicyFileException e) {
                hmacKeys = 0; // refused at start-up already (MessageAuthStartup); no key counts here
            }
        }
        boolean durableReplayStore;
        try {
            durableReplayStore = new javax.naming.InitialContext().lookup("jdbc/switchboard") instanceof javax.sql.DataSource;
        } catch (javax.naming.NamingException e) {
            durableReplayStore = false;
        }
        return new org.switchboard.synapse.attachments.AttachmentSecurity(!settings.identityTrust().isEmpty(),
                settings.requireIdentityBinding(), hmacKeys, settings.requireMessageAuth(), durableReplayStore,
                acl.policyLoaded(), acl.enforced(), acl.roleGrants().configured());
    }

    /** How long the start-up journal replay took, in milliseconds (-1 before the hub is built). */
    public long replayMillis() {
        return replayMillis;
    }

    /** The plain timer that replaces each WebSocket session's container-managed idle timer. */
    public IdleTimerBypass sessionTimers() {
        IdleTimerBypass current = sessionTimers;
        if (current == null) {
            synchronized (this) {
                if (sessionTimers == null) {
                    sessionTimers = new IdleTimerBypass(ownThreads());
                }
                current = sessionTimers;
            }
        }
        return current;
    }

    /** Writes broadcasts' coalesced frames on the session timer's thread (one per hub). */
    public synchronized org.switchboard.synapse.session.FrameFlusher frameFlusher() {
        if (frameFlusher == null) {
            frameFlusher = new org.switchboard.synapse.session.FrameFlusher(sessionTimers());
        }
        return frameFlusher;
    }

    private synchronized ExecutorStop.TrackedThreads ownThreads() {
        if (ownThreads == null) {
            ownThreads = ExecutorStop.tracked(threadFactory);
        }
        return ownThreads;
    }

    /** Runs {@code action} on the hub's timer thread, after the calling WebSocket callback has returned. */
    public void afterOpen(Runnable action) {
        hub();
        timers.execute(action);
    }

    /** Schedules the registration deadline of a new socket. */
    public void scheduleRegistrationDeadline(Connection connection) {
        SynapseHub current = hub();
        connection.registrationDeadline(timers.schedule(() -> current.registration().registrationDeadline(connection),
                current.context().settings().authTimeoutSeconds(), TimeUnit.SECONDS));
    }

    /** The delivery expiry sweep every 5 s (synapse-advanced §2.15). */
    private void sweepDeliveries(SynapseHub current) {
        try {
            current.delivery().sweep();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "delivery expiry sweep failed", e);
        }
    }

    private void tick(SynapseHub current) {
        try {
            long now = System.nanoTime();
            for (Connection connection : current.context().registry().openConnections()) {
                if (!(connection.peer() instanceof WebSocketPeer peer)) {
                    continue;
                }
                peer.checkDrain(now);
                if (now - connection.lastPingNanos() >= PING_INTERVAL_NANOS) {
                    if (connection.lastPingNanos() != 0 && connection.lastPongNanos() < connection.lastPingNanos()) {
                        connection.close(1001, "pong timeout");
                        continue;
                    }
                    connection.pingSent();
                    peer.ping();
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "SYNAPSE timer failed", e);
        }
    }

    @PreDestroy
    void stop() {
        org.switchboard.lifecycle.PeriodicSweep sweep = retentionSweep;
        if (sweep != null) {
            sweep.close();
        }
        SynapseHub current = hub;
        if (current != null) {
            for (Connection connection : current.context().registry().openConnections()) {
                connection.close(1001, "hub shutting down");
            }
        }
        for (ExecutorService executor : new ExecutorService[] {timers, blocking, sessionTimers}) {
            if (executor != null) {
                executor.shutdownNow();
            }
        }
        // their managed threads end (and the container closes what they used) before the persistence unit does
        ExecutorStop.awaitEnded(Duration.ofSeconds(1), ownThreads, timers, blocking, sessionTimers);
    }
}
