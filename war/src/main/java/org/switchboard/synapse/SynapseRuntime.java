package org.switchboard.synapse;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.journal.Journal;
import org.switchboard.synapse.session.Connection;
import org.switchboard.synapse.session.WebSocketPeer;
import org.switchboard.synapse.wire.HubFrames;

/**
 * Container wrapper of the SYNAPSE core: builds {@link SynapseHub} at application start-up with
 * the configured settings, the Journal (when one is deployed), extension handlers and state
 * contributors found as CDI beans; replays the journal; runs the keepalive and drain-deadline timers.
 */
@ApplicationScoped
public class SynapseRuntime {

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

    private volatile SynapseHub hub;
    private ScheduledExecutorService timers;
    private ExecutorService blocking;
    private ExecutorService publish;

    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        hub();
    }

    /** True once the hub is built and its journal replayed (readiness), without triggering the build. */
    public boolean started() {
        return hub != null;
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
        Journal journal = journals.isResolvable() ? journals.get() : null;
        if (journal == null) {
            LOG.warning("SYNAPSE: no Journal deployed; running without durability (no seq, no mailbox)");
        }
        timers = Executors.newSingleThreadScheduledExecutor(threadFactory);
        blocking = Executors.newFixedThreadPool(4, threadFactory);
        publish = Executors.newFixedThreadPool(2, threadFactory);
        SynapseHub built = new SynapseHub(settings, journal, HubFrames::wallClock, blocking, publish, () -> {
            List<StateSnapshotContributor> list = new ArrayList<>();
            contributors.forEach(list::add);
            return list;
        });
        for (VerbHandler handler : extensionHandlers) {
            built.dispatcher().register(handler);
        }
        long started = System.nanoTime();
        built.replayJournal();
        LOG.info("SYNAPSE hub " + built.hubId() + " ready (journal replay " + (System.nanoTime() - started) / 1_000_000
                + " ms, corrupt rows " + built.corruptRows() + ")");
        timers.scheduleWithFixedDelay(() -> tick(built), 1, 1, TimeUnit.SECONDS);
        return built;
    }

    /** Schedules the registration deadline of a new socket. */
    public void scheduleRegistrationDeadline(Connection connection) {
        SynapseHub current = hub();
        timers.schedule(() -> current.registration().registrationDeadline(connection),
                current.context().settings().authTimeoutSeconds(), TimeUnit.SECONDS);
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
        SynapseHub current = hub;
        if (current != null) {
            for (Connection connection : current.context().registry().openConnections()) {
                connection.close(1001, "hub shutting down");
            }
        }
        for (ExecutorService executor : new ExecutorService[] {timers, blocking, publish}) {
            if (executor != null) {
                executor.shutdownNow();
            }
        }
    }
}
