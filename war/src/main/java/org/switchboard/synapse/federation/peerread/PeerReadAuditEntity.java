package org.switchboard.synapse.federation.peerread;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One row of the private peer-read audit (synapse-advanced §5.4). */
@Entity
@Table(name = "attachment_peer_audit")
public class PeerReadAuditEntity {

    @Id
    @Column(name = "sequence_no")
    private long sequence;

    @Column(name = "read_at", nullable = false)
    private double readAt;

    @Column(name = "recipient", nullable = false, length = 128)
    private String recipient;

    @Column(name = "scope", nullable = false, length = 128)
    private String scope;

    @Column(name = "digest", nullable = false, length = 64)
    private String digest;

    @Column(name = "action", nullable = false, length = 8)
    private String action;

    @Column(name = "allowed", nullable = false)
    private boolean allowed;

    /** For JPA. */
    protected PeerReadAuditEntity() {
    }

    PeerReadAuditEntity(PeerReadAudit.Row row) {
        this.sequence = row.sequence();
        this.readAt = row.readAt();
        this.recipient = row.recipient();
        this.scope = row.scope();
        this.digest = row.digest();
        this.action = row.action();
        this.allowed = row.allowed();
    }

    PeerReadAudit.Row toRow() {
        return new PeerReadAudit.Row(sequence, readAt, recipient, scope, digest, action, allowed);
    }
}
