package org.switchboard.redsyn.webhook;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Which agents have a webhook, kept in memory so that the send path's after-commit hook costs a map
 * lookup for the (many) agents that poll. Loaded once from the database, then kept current by
 * {@link WebhookService}; the recovery sweep reads the database, so a stale entry only delays a push.
 */
@ApplicationScoped
public class WebhookRegistry {

    private static final Logger LOG = Logger.getLogger(WebhookRegistry.class.getName());

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    private final Set<Long> agents = ConcurrentHashMap.newKeySet();
    private volatile boolean loaded;

    /**
     * Loads the set at start (after the schema: SchemaMigration's start observer runs first), so that
     * {@link #has}, called after a commit, does not read the database then: WildFly had already returned
     * the finished transaction's connection, and a query there logged IJ000609 with a stack trace.
     */
    void preload(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        try {
            load();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "webhook registry not loaded at start; the first send will load it", e);
        }
    }

    /** True when the agent has a webhook. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public boolean has(long agentId) {
        if (!loaded) {
            load();
        }
        return agents.contains(agentId);
    }

    void add(long agentId) {
        agents.add(agentId);
    }

    void remove(long agentId) {
        agents.remove(agentId);
    }

    private synchronized void load() {
        if (!loaded) {
            agents.addAll(em.createNamedQuery("Webhook.agentIds", Long.class).getResultList());
            loaded = true;
        }
    }
}
