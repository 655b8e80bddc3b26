package org.switchboard.synapse.attachments;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

/** One committed attachment's metadata row (synapse-advanced §3.4 {@code metadata}), keyed by scope and digest. */
@Entity
@Table(name = "attachment_object")
@IdClass(AttachmentKey.class)
public class AttachmentObjectEntity {

    @Id
    @Column(name = "scope", length = 64)
    private String scope;

    @Id
    @Column(name = "digest", length = 64)
    private String digest;

    @Column(name = "byte_length", nullable = false)
    private long length;

    @Column(name = "media_type", nullable = false, length = AttachmentGrammar.MAX_MEDIA_TYPE_CHARS)
    private String mediaType;

    @Column(name = "provenance", nullable = false, length = 256)
    private String provenance;

    @Column(name = "expires_at", nullable = false)
    private double expiresAt;

    /** For JPA. */
    protected AttachmentObjectEntity() {
    }

    AttachmentObjectEntity(AttachmentMetadata m) {
        this.scope = m.scope();
        this.digest = m.digest();
        this.length = m.length();
        this.mediaType = m.mediaType();
        this.provenance = m.provenance();
        this.expiresAt = m.expiresAt();
    }

    AttachmentMetadata toMetadata() {
        return new AttachmentMetadata(scope, digest, length, mediaType, provenance, expiresAt);
    }
}
