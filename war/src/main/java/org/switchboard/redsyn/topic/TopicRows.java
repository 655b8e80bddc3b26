package org.switchboard.redsyn.topic;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

/**
 * Inserts a new topic's or subscription's row in its own transaction. Why: two first uses of one topic
 * (or two first subscriptions of one agent to it) at the same moment both find no row; the loser's
 * insert breaks the unique key, and in the request's own transaction that would fail the whole request
 * at commit. Here only this small transaction fails, and the caller reads the winner's row.
 */
@ApplicationScoped
public class TopicRows {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    /** Inserts the topic; throws when another transaction inserted the same path first. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void insert(TopicAddress topic, long now) {
        em.persist(new TopicEntity(topic, now));
        em.flush();
    }

    /** Inserts the subscription; throws when another transaction inserted the same (topic, agent) first. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void insert(SubscriptionEntity subscription) {
        em.persist(subscription);
        em.flush();
    }
}
