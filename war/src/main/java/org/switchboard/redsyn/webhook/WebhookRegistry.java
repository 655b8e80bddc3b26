package org.switchboard.redsyn.webhook;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which agents have a webhook, kept in memory so that the send path's after-commit hook costs a map
 * lookup for the (many) agents that poll. Loaded once from the database, then kept current by
 * {@link WebhookService}; the recovery sweep reads the database, so a stale entry only delays a push.
 */
@ApplicationScoped
public class WebhookRegistry {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    private final Set<Long> agents = ConcurrentHashMap.newKeySet();
    private volatile boolean loaded;

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
