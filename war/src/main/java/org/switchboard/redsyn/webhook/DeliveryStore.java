package org.switchboard.redsyn.webhook;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.ArrayList;
import java.util.List;
import org.switchboard.json.Jsons;
import org.switchboard.redsyn.RedsynConfig;
import org.switchboard.redsyn.VersionDates;
import org.switchboard.redsyn.directory.AgentService;
import org.switchboard.redsyn.directory.AccountService;
import org.switchboard.redsyn.directory.OrganisationService;
import org.switchboard.redsyn.message.DeliveryState;
import org.switchboard.redsyn.message.EnvelopeRenderer;
import org.switchboard.redsyn.message.MessageEntity;
import org.switchboard.redsyn.message.MessageSideKeys;
import org.switchboard.redsyn.message.MessageQueued;
import org.switchboard.redsyn.message.Notices;

/**
 * The database steps of webhook delivery, each its own short transaction (REQUIRES_NEW, so none is
 * ever open while a POST is in flight): open a delivery, claim an attempt, record its outcome.
 */
@ApplicationScoped
public class DeliveryStore {

    /** How long an attempt in flight owns its delivery: the POST's timeouts plus a margin. */
    static final long CLAIM_MILLIS = WebhookPoster.CONNECT_TIMEOUT.plus(WebhookPoster.REQUEST_TIMEOUT).toMillis() + 10_000;
    /** A wake-up this much early is ignored (the broker's scheduler is not exact). */
    static final long EARLY_SLACK_MILLIS = 1_000;

    private static final String FINISH = "UPDATE MessageEntity m SET m.state = :to, m.doneAt = :now, m.attempts = :attempts, "
            + MessageEntity.FINAL + " "
            + "WHERE m.seq = :seq AND m.state = :queued";

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    AgentService agents;

    @Inject
    OrganisationService directory;

    @Inject
    AccountService accounts;

    @Inject
    RedsynConfig config;

    @Inject
    Event<MessageQueued> queued;

    /** A queued message for a webhook agent that has no delivery yet. */
    public record Waiting(long seq, String messageId, long agentId) {
    }

    /** Queued messages of one agent, created at or before {@code before}, without a delivery (oldest first). */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public List<Waiting> waitingFor(long agentId, long before, int limit) {
        return waiting(em.createQuery("SELECT m.seq, m.messageId, m.toAgentId FROM MessageEntity m "
                + "WHERE m.toAgentId = :agent AND m.waiting = 1 AND m.state = :queued AND m.createdAt <= :before AND NOT EXISTS "
                + "(SELECT d.messageSeq FROM WebhookDeliveryEntity d WHERE d.messageSeq = m.seq) ORDER BY m.seq")
                .setParameter("agent", agentId).setParameter("before", before), limit);
    }

    /** The agents that have a webhook (read from the database: the recovery sweep does not trust the registry). */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public List<Long> webhookAgents() {
        return em.createNamedQuery("Webhook.agentIds", Long.class).getResultList();
    }

    private List<Waiting> waiting(jakarta.persistence.Query query, int limit) {
        List<Waiting> found = new ArrayList<>();
        for (Object row : query.setParameter("queued", DeliveryState.QUEUED).setMaxResults(limit).getResultList()) {
            Object[] r = (Object[]) row;
            found.add(new Waiting(((Number) r[0]).longValue(), (String) r[1], ((Number) r[2]).longValue()));
        }
        return found;
    }

    /** Opens the delivery of a waiting message, first attempt due now. Fails (rolls back) when another opened it first. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void open(Waiting w, long now) {
        em.persist(new WebhookDeliveryEntity(w.seq(), w.messageId(), w.agentId(), now));
        em.flush();
    }

    /**
     * Claims attempt {@code attempt} of a delivery and prepares its POST; null when this wake-up is stale
     * (another attempt is current or in flight), early, or the delivery is over (the message was taken,
     * answered, cancelled or expired, or the agent went back to its inbox: then the delivery is dropped).
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public DeliveryAttempt claim(long seq, int attempt, long now) {
        WebhookDeliveryEntity d = em.find(WebhookDeliveryEntity.class, seq);
        if (d == null || !d.mayAttempt(attempt, now) || d.getDueAt() > now + EARLY_SLACK_MILLIS) {
            return null;
        }
        MessageEntity m = em.find(MessageEntity.class, seq);
        WebhookEntity hook = m == null ? null : em.find(WebhookEntity.class, m.getToAgentId());
        if (m == null || m.getState() != DeliveryState.QUEUED || hook == null) {
            em.remove(d);
            return null;
        }
        if (m.getExpiresAt() <= now) {
            return null; // the inbox sweep expires it and tells the sender; the next wake-up drops the delivery
        }
        d.claim(now + CLAIM_MILLIS);
        String body = Jsons.PROVIDER.createObjectBuilder(EnvelopeRenderer.delivered(m)).add("attempts", attempt).build().toString();
        String version = VersionDates.resolve(null, accounts.pinnedVersion(m.getToPersonId()));
        return new DeliveryAttempt(seq, attempt, m.getMessageId(), m.getToAgentId(), hook.getUrl(), hook.getSecret(), body, version);
    }

    /** A 2xx took the message: it is done (its files deleted now, not before) and the agent is online. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public boolean accepted(DeliveryAttempt a, long now) {
        WebhookDeliveryEntity d = em.find(WebhookDeliveryEntity.class, a.seq());
        if (d != null) {
            em.remove(d);
        }
        agents.heartbeat(a.agentId(), "webhook");
        boolean done = finish(a.seq(), DeliveryState.DONE, a.attempt(), now);
        if (done) {
            em.createNamedQuery("File.delete").setParameter("id", a.messageId()).executeUpdate();
        }
        return done;
    }

    /** Records a failed attempt; the next is due at {@code nextDueAt}. False when the delivery is gone meanwhile. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public boolean failed(DeliveryAttempt a, long nextDueAt) {
        WebhookDeliveryEntity d = em.find(WebhookDeliveryEntity.class, a.seq());
        if (d == null || d.getAttemptsFailed() != a.attempt() - 1) {
            return false;
        }
        d.failed(a.attempt(), nextDueAt);
        return true;
    }

    /** The last attempt failed: the message is abandoned and its sender gets the error reply. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void giveUp(DeliveryAttempt a, long now) {
        WebhookDeliveryEntity d = em.find(WebhookDeliveryEntity.class, a.seq());
        if (d != null) {
            em.remove(d);
        }
        if (!finish(a.seq(), DeliveryState.ABANDONED, a.attempt(), now)) {
            return;
        }
        MessageEntity m = em.find(MessageEntity.class, a.seq());
        em.createNamedQuery("File.delete").setParameter("id", a.messageId()).executeUpdate();
        if (m != null && Notices.deserved(m)) {
            long ttl = directory.planOf(m.getFromOrg()).capTtl(null, config.defaultTtlSeconds());
            MessageSideKeys.persist(em, Notices.errorReply(m, notDelivered(Notices.agentPath(m.getToAddress()), a.attempt()), now, ttl));
            queued.fire(new MessageQueued(m.getFromAgentId()));
        }
    }

    /** Open deliveries (the retry queue), next due first, at most {@code limit} (operator view). */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public List<WebhookDeliveryEntity> pending(int limit) {
        return em.createQuery("SELECT d FROM WebhookDeliveryEntity d ORDER BY d.dueAt, d.messageSeq", WebhookDeliveryEntity.class)
                .setMaxResults(limit).getResultList();
    }

    /**
     * Makes the next attempt of a delivery due now (operator "retry now"); returns the work item to queue,
     * or null when there is no such delivery or an attempt is in flight. Wake-ups already queued for the
     * same attempt become stale once it is made.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public WorkItem retryNow(long seq, long now) {
        WebhookDeliveryEntity d = em.find(WebhookDeliveryEntity.class, seq);
        if (d == null || d.getClaimedUntil() > now) {
            return null;
        }
        d.dueNow(now);
        return WorkItem.deliver(seq, d.getAttemptsFailed() + 1);
    }

    /**
     * Drops a delivery on the operator's order: the message is abandoned and its sender gets the usual
     * not-delivered reply. False when there is no such delivery or an attempt is in flight.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public boolean drop(long seq, long now) {
        WebhookDeliveryEntity d = em.find(WebhookDeliveryEntity.class, seq);
        if (d == null || d.getClaimedUntil() > now) {
            return false;
        }
        giveUp(new DeliveryAttempt(seq, d.getAttemptsFailed(), d.getMessageId(), d.getAgentId(), "", "", "", ""), now);
        return true;
    }

    /** The error reply's text when the webhook never took the message. */
    static String notDelivered(String agent, int attempts) {
        return "not delivered: the webhook of " + agent + " did not accept it in " + attempts + " attempts";
    }

    /**
     * Deliveries whose wake-up is overdue by more than {@code graceMillis} and not in flight (their queue
     * item was lost in a crash): each is postponed by the grace, so it is re-woken only once, and returned
     * with the attempt to make.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public List<WorkItem> overdue(long now, long graceMillis, int limit) {
        List<WorkItem> wake = new ArrayList<>();
        for (WebhookDeliveryEntity d : em.createNamedQuery("WebhookDelivery.overdue", WebhookDeliveryEntity.class)
                .setParameter("before", now - graceMillis).setParameter("now", now).setMaxResults(limit).getResultList()) {
            int changed = em.createNamedQuery("WebhookDelivery.postpone").setParameter("due", now)
                    .setParameter("seq", d.getMessageSeq()).setParameter("was", d.getDueAt())
                    .setParameter("failed", d.getAttemptsFailed()).executeUpdate();
            if (changed == 1) {
                wake.add(WorkItem.deliver(d.getMessageSeq(), d.getAttemptsFailed() + 1));
            }
        }
        return wake;
    }

    private boolean finish(long seq, int state, int attempts, long now) {
        return em.createQuery(FINISH).setParameter("to", state).setParameter("now", now).setParameter("attempts", attempts)
                .setParameter("seq", seq).setParameter("queued", DeliveryState.QUEUED).executeUpdate() == 1;
    }
}
