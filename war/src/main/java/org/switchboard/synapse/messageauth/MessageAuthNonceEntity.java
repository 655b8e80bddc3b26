package org.switchboard.synapse.messageauth;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One accepted per-message-auth nonce (§6.3 replay store) written without a journal or by a build before V6; kept until its timestamp leaves the window. */
@Entity
@Table(name = "synapse_message_auth_nonce")
public class MessageAuthNonceEntity {

    /** Expiry (hex ms), a dot, then the id of (scheme, key id, sender, nonce); see {@link NonceRowKey}. */
    @Id
    @Column(name = "nonce_id", length = 64)
    private String id;

    /** Epoch seconds after which the nonce could no longer pass the window (then pruned). */
    @Column(name = "expires_at", nullable = false)
    private double expiresAt;

    /** For JPA. */
    protected MessageAuthNonceEntity() {
    }
}
