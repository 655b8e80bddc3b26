package org.switchboard.synapse.attachments;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The attachment ledger in the hub's database (tables of {@code V3__attachments.sql}) instead of the
 * reference's separate SQLite file: one backup, one transaction manager, PostgreSQL support. Each
 * method is one JTA transaction.
 */
@ApplicationScoped
public class JpaAttachmentLedger implements AttachmentLedger {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Override
    @Transactional
    public Optional<AttachmentMetadata> find(String scope, String digest) {
        AttachmentObjectEntity row = em.find(AttachmentObjectEntity.class, new AttachmentKey(scope, digest));
        return Optional.ofNullable(row).map(AttachmentObjectEntity::toMetadata);
    }

    @Override
    @Transactional
    public List<AttachmentMetadata> all() {
        return em.createQuery("SELECT o FROM AttachmentObjectEntity o", AttachmentObjectEntity.class)
                .getResultList().stream().map(AttachmentObjectEntity::toMetadata).toList();
    }

    @Override
    @Transactional
    public List<AttachmentMetadata> inScope(String scope) {
        return em.createQuery("SELECT o FROM AttachmentObjectEntity o WHERE o.scope = :scope", AttachmentObjectEntity.class)
                .setParameter("scope", scope).getResultList().stream().map(AttachmentObjectEntity::toMetadata).toList();
    }

    @Override
    @Transactional
    public void insertUpload(String uploadId, String scope, String digest, long length, String owner) {
        em.persist(new AttachmentUploadEntity(uploadId, scope, digest, length, sha256(owner)));
    }

    @Override
    @Transactional
    public void deleteUpload(String uploadId) {
        em.createQuery("DELETE FROM AttachmentUploadEntity u WHERE u.uploadId = :id").setParameter("id", uploadId)
                .executeUpdate();
    }

    @Override
    @Transactional
    public void deleteAllUploads() {
        em.createQuery("DELETE FROM AttachmentUploadEntity u").executeUpdate();
    }

    @Override
    @Transactional
    public void commit(String uploadId, AttachmentMetadata metadata) {
        em.persist(new AttachmentObjectEntity(metadata));
        em.createQuery("DELETE FROM AttachmentUploadEntity u WHERE u.uploadId = :id").setParameter("id", uploadId)
                .executeUpdate();
    }

    @Override
    @Transactional
    public void deleteObject(String scope, String digest) {
        em.createQuery("DELETE FROM AttachmentRefEntity r WHERE r.scope = :scope AND r.digest = :digest")
                .setParameter("scope", scope).setParameter("digest", digest).executeUpdate();
        em.createQuery("DELETE FROM AttachmentObjectEntity o WHERE o.scope = :scope AND o.digest = :digest")
                .setParameter("scope", scope).setParameter("digest", digest).executeUpdate();
    }

    @Override
    @Transactional
    public void addRef(String scope, String digest, String ref) {
        String id = refId(scope, digest, ref);
        if (em.find(AttachmentRefEntity.class, id) == null) {
            em.persist(new AttachmentRefEntity(id, scope, digest, ref));
        }
    }

    @Override
    @Transactional
    public void removeRef(String scope, String digest, String ref) {
        em.createQuery("DELETE FROM AttachmentRefEntity r WHERE r.refId = :id")
                .setParameter("id", refId(scope, digest, ref)).executeUpdate();
    }

    @Override
    @Transactional
    public boolean referenced(String scope, String digest) {
        return !em.createQuery("SELECT r.refId FROM AttachmentRefEntity r WHERE r.scope = :scope AND r.digest = :digest",
                        String.class).setParameter("scope", scope).setParameter("digest", digest).setMaxResults(1)
                .getResultList().isEmpty();
    }

    /** The fixed-width key of one reference; the grammars keep NUL out of all three parts. */
    static String refId(String scope, String digest, String ref) {
        return sha256(scope + "\0" + digest + "\0" + ref);
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
