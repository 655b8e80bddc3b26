package org.switchboard.synapse.federation.receive;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

/** The {@link InboundLedger} on the {@code federation_inbound} table; each record commits before it returns. */
@ApplicationScoped
public class JpaInboundLedger implements InboundLedger {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Override
    @Transactional
    public Entry find(String origin, String forwardId) {
        InboundForwardEntity row = em.find(InboundForwardEntity.class, InboundForwardEntity.key(origin, forwardId));
        return row == null ? null : row.toEntry();
    }

    @Override
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public boolean record(Entry entry) {
        if (em.find(InboundForwardEntity.class, InboundForwardEntity.key(entry.origin(), entry.forwardId())) != null) {
            return false;
        }
        em.persist(new InboundForwardEntity(entry));
        return true;
    }
}
