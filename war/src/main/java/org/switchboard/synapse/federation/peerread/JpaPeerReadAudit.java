package org.switchboard.synapse.federation.peerread;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.List;

/**
 * The {@link PeerReadAudit} on the {@code attachment_peer_audit} table: the insert and the trim to the
 * latest 256 rows commit together (one transaction); appends are serialised so sequences stay dense.
 */
@ApplicationScoped
public class JpaPeerReadAudit implements PeerReadAudit {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Override
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public synchronized void record(double readAt, String recipient, String scope, String digest, String action,
                                    boolean allowed) {
        Long last = em.createQuery("SELECT MAX(r.sequence) FROM PeerReadAuditEntity r", Long.class).getSingleResult();
        long sequence = (last == null ? 0 : last) + 1;
        em.persist(new PeerReadAuditEntity(new Row(sequence, readAt, recipient, scope, digest, action, allowed)));
        em.createQuery("DELETE FROM PeerReadAuditEntity r WHERE r.sequence <= :floor")
                .setParameter("floor", sequence - KEEP).executeUpdate();
    }

    @Override
    @Transactional
    public List<Row> rows() {
        return em.createQuery("SELECT r FROM PeerReadAuditEntity r ORDER BY r.sequence", PeerReadAuditEntity.class)
                .getResultList().stream().map(PeerReadAuditEntity::toRow).toList();
    }
}
