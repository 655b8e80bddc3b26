package org.switchboard.synapse.attachments;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One reference that keeps an attachment from garbage collection (§3.4 {@code attachment_ref}). */
@Entity
@Table(name = "attachment_ref", uniqueConstraints = @jakarta.persistence.UniqueConstraint(
        name = "attachment_ref_key", columnNames = {"scope", "digest", "ref"}))
public class AttachmentRefEntity {

    /** {@code hex(SHA-256(scope NUL digest NUL ref))}: a fixed-width key for the triple. */
    @Id
    @Column(name = "ref_id", length = 64)
    private String refId;

    @Column(name = "scope", nullable = false, length = 64)
    private String scope;

    @Column(name = "digest", nullable = false, length = 64)
    private String digest;

    @Column(name = "ref", nullable = false, length = 128)
    private String ref;

    /** For JPA. */
    protected AttachmentRefEntity() {
    }

    AttachmentRefEntity(String refId, String scope, String digest, String ref) {
        this.refId = refId;
        this.scope = scope;
        this.digest = digest;
        this.ref = ref;
    }
}
