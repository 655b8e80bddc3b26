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
}
