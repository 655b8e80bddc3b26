package org.switchboard.synapse.attachments;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One open upload, owned by a socket session; deleted on commit, abort, disconnect and every start. */
@Entity
@Table(name = "attachment_upload")
public class AttachmentUploadEntity {

    @Id
    @Column(name = "upload_id", length = 48)
    private String uploadId;

    @Column(name = "scope", nullable = false, length = 64)
    private String scope;

    @Column(name = "digest", nullable = false, length = 64)
    private String digest;

    @Column(name = "byte_length", nullable = false)
    private long length;

    /** {@code hex(SHA-256)} of the owning socket session (sender name and connection id): fixed width, no NUL. */
    @Column(name = "owner_session", nullable = false, length = 64)
    private String ownerSession;

    /** For JPA. */
    protected AttachmentUploadEntity() {
    }

    AttachmentUploadEntity(String uploadId, String scope, String digest, long length, String ownerSession) {
        this.uploadId = uploadId;
        this.scope = scope;
        this.digest = digest;
        this.length = length;
        this.ownerSession = ownerSession;
    }
}
