package org.switchboard.synapse.messageauth;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;

/** The nonces (§6.3 replay store) one journal transaction accepted, packed in one row ({@link NonceBatch}); pruned once all expired. */
@Entity
@Table(name = "synapse_message_auth_nonce_batch", indexes = @Index(
        name = "synapse_message_auth_nonce_batch_expiry", columnList = "max_expires_at"))
public class MessageAuthNonceBatchEntity {

    /** The database's identity value: rows are found by expiry, never by key. */
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    @Column(name = "batch_id")
    private Long id;

    /** Epoch seconds at which the row's last nonce leaves the window (the prune's index). */
    @Column(name = "max_expires_at", nullable = false)
    private double maxExpiresAt;

    /** Each nonce's expiry and identity, packed ({@link NonceBatch}). */
    @Column(name = "nonces", nullable = false, length = 65536)
    private byte[] nonces;

    /** For JPA. */
    protected MessageAuthNonceBatchEntity() {
    }
}
