package org.switchboard.synapse.identity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One TOFU pin row (synapse-advanced §6.5): a name and the registration key first seen for it. */
@Entity
@Table(name = "identity_pin")
public class IdentityPinEntity {

    @Id
    @Column(name = "pin_name", length = 512)
    private String name;

    @Column(name = "key_id", nullable = false, length = 256)
    private String keyId;

    /** The 32 raw Ed25519 bytes, base64 (a public key, not a secret). */
    @Column(name = "public_key", nullable = false, length = 64)
    private String publicKey;

    @Column(name = "pinned_at", nullable = false)
    private double pinnedAt;

    /** For JPA. */
    protected IdentityPinEntity() {
    }

    IdentityPinEntity(IdentityPins.Pin pin) {
        this.name = pin.name();
        this.keyId = pin.keyId();
        this.publicKey = java.util.Base64.getEncoder().encodeToString(pin.publicKey());
        this.pinnedAt = pin.pinnedAt();
    }

    IdentityPins.Pin toPin() {
        return new IdentityPins.Pin(name, keyId, java.util.Base64.getDecoder().decode(publicKey), pinnedAt);
    }
}
