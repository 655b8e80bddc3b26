package org.switchboard.journal;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The journal's JPA access: every write runs in its own container-managed JTA transaction
 * ({@code REQUIRES_NEW}), so a batch commits or rolls back as a unit regardless of the caller.
 */
@ApplicationScoped
public class JournalStore {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    /** Inserts every row of the batch in one transaction; returns after commit. */
    @Transactional(TxType.REQUIRES_NEW)
    public void write(SequencedBatch batch) {
        for (SequencedBatch.Event event : batch.events()) {
            em.persist(new JournalEventEntity(event));
        }
        for (SequencedBatch.Outbox row : batch.outbox()) {
            em.persist(new OutboxEntity(row));
        }
    }

    /** Highest stored seq, 0 when empty. */
    public long maxSeq() {
        Long max = em.createNamedQuery(JournalEventEntity.MAX_SEQ, Long.class).getSingleResult();
        return max == null ? 0 : max;
    }

    /** Highest stored outbox creation order, 0 when empty. */
    public long maxOutboxOrder() {
        Long max = em.createNamedQuery(OutboxEntity.MAX_ORDER, Long.class).getSingleResult();
        return max == null ? 0 : max;
    }

    /** The stored value of a setting, or null. */
    public String setting(String name) {
        JournalSettingEntity setting = em.find(JournalSettingEntity.class, name);
        return setting == null ? null : setting.value();
    }

    /** Stores a setting (insert or replace). */
    @Transactional(TxType.REQUIRES_NEW)
    public void putSetting(String name, String value) {
        em.merge(new JournalSettingEntity(name, value));
    }

    /** Up to {@code limit} event rows with seq above {@code afterSeq}, ascending; empty kinds = every kind. */
    public List<JournalEventEntity> page(long afterSeq, int limit, Set<String> kinds) {
        TypedQuery<JournalEventEntity> query = kinds == null || kinds.isEmpty()
                ? em.createNamedQuery(JournalEventEntity.AFTER, JournalEventEntity.class)
                : em.createNamedQuery(JournalEventEntity.AFTER_OF_KINDS, JournalEventEntity.class)
                        .setParameter("kinds", List.copyOf(kinds));
        return query.setParameter("after", afterSeq).setMaxResults(limit).getResultList();
    }

    /** The event row at {@code seq}, or null. */
    public JournalEventEntity find(long seq) {
        return em.find(JournalEventEntity.class, seq);
    }

    /** Records quarantine markers (seq to reason), replacing earlier markers for the same seqs. */
    @Transactional(TxType.REQUIRES_NEW)
    public void quarantine(Map<Long, String> reasons, double now) {
        reasons.forEach((seq, reason) -> em.merge(new QuarantinedEventEntity(seq, reason, now)));
    }

    /** Quarantined seqs whose event rows are still in the log (the operator has not removed them yet). */
    public List<Long> quarantinedStillPresent() {
        return em.createNamedQuery(QuarantinedEventEntity.STILL_PRESENT, Long.class).getResultList();
    }

    /** Undelivered outbox rows for one sender, in creation order. */
    public List<OutboxEntity> pendingOutbox(String sender) {
        return em.createNamedQuery(OutboxEntity.PENDING_FOR_SENDER, OutboxEntity.class)
                .setParameter("sender", sender).getResultList();
    }

    /** Marks rows delivered (and counts the successful attempt); returns how many changed. */
    @Transactional(TxType.REQUIRES_NEW)
    public int markDelivered(List<String> notificationIds, double now) {
        return em.createNamedQuery(OutboxEntity.MARK_DELIVERED)
                .setParameter("now", now).setParameter("ids", notificationIds).executeUpdate();
    }

    /** Count of undelivered outbox rows. */
    public long pendingOutboxCount() {
        return em.createNamedQuery(OutboxEntity.PENDING_COUNT, Long.class).getSingleResult();
    }
}
