package org.switchboard.synapse.identity;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.Collection;
import java.util.List;

/** The {@link PinStore} on the {@code identity_pin} table; each insert commits before it returns. */
@ApplicationScoped
public class JpaPinStore implements PinStore {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Override
    @Transactional
    public Collection<IdentityPins.Pin> loadAll() {
        List<IdentityPinEntity> rows = em.createQuery("SELECT p FROM IdentityPinEntity p", IdentityPinEntity.class)
                .getResultList();
        return rows.stream().map(IdentityPinEntity::toPin).toList();
    }

    @Override
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void insert(IdentityPins.Pin pin) {
        em.persist(new IdentityPinEntity(pin));
    }

    @Override
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public boolean deleteIfMatches(String name, String keyId) {
        return em.createQuery("DELETE FROM IdentityPinEntity p WHERE p.name = :name AND p.keyId = :keyId")
                .setParameter("name", name).setParameter("keyId", keyId).executeUpdate() == 1;
    }
}
