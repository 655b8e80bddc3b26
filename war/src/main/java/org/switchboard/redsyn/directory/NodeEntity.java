package org.switchboard.redsyn.directory;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;

/** A node: a machine or server of a person, known by the SHA-256 of its token (never the token). */
@Entity
@Table(name = "REDSYN_NODE", uniqueConstraints = @UniqueConstraint(columnNames = {"PERSONID", "NAME"}))
@NamedQuery(name = "Node.byTokenHash", query = "SELECT n FROM NodeEntity n WHERE n.tokenHash = :hash")
@NamedQuery(name = "Node.byPersonAndName", query = "SELECT n FROM NodeEntity n WHERE n.personId = :person AND n.name = :name")
public class NodeEntity {

    @Id
    @SequenceGenerator(name = "redsyn_node_seq", sequenceName = "REDSYN_NODE_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "redsyn_node_seq")
    private Long id;

    @Column(name = "PERSONID", nullable = false)
    private long personId;

    @Column(name = "NAME", nullable = false, length = 64)
    private String name;

    @Column(nullable = false, unique = true, length = 64)
    private String tokenHash;

    private long createdAt;

    /** The node's Ed25519 signing key, base64url as registered (null until {@code PUT /nodes/key}). */
    @Column(length = 128)
    private String signingKey;

    /** Its P-256 encryption key, base64url exactly as registered (enc_sig signs this text). */
    @Column(length = 128)
    private String encKey;

    @Column(length = 128)
    private String encSig;

    @Column(length = 64)
    private String keyFingerprint;

    private long keyChangedAt;

    protected NodeEntity() {
    }

    public NodeEntity(long personId, String name, String tokenHash, long createdAt) {
        this.personId = personId;
        this.name = name;
        this.tokenHash = tokenHash;
        this.createdAt = createdAt;
    }

    public Long getId() {
        return id;
    }

    public long getPersonId() {
        return personId;
    }

    public String getName() {
        return name;
    }

    public String getSigningKey() {
        return signingKey;
    }

    public String getEncKey() {
        return encKey;
    }

    public String getEncSig() {
        return encSig;
    }

    public String getKeyFingerprint() {
        return keyFingerprint;
    }

    public long getKeyChangedAt() {
        return keyChangedAt;
    }

    /** Records the node's public keys (checked by the caller); a null encKey means the node takes no sealed messages. */
    public void registerKeys(String signingKey, String encKey, String encSig, String fingerprint, long now) {
        this.signingKey = signingKey;
        this.encKey = encKey;
        this.encSig = encSig;
        this.keyFingerprint = fingerprint;
        this.keyChangedAt = now;
    }
}
