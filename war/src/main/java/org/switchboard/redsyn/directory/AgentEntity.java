package org.switchboard.redsyn.directory;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** An agent: belongs to a person, lives in a team, has a policy. The machine is not part of it. */
@Entity
@Table(name = "REDSYN_AGENT", indexes = @Index(name = "REDSYN_AGENT_ORG", columnList = "ORG"))
@NamedQuery(name = "Agent.byAddress", query = "SELECT a FROM AgentEntity a WHERE a.address = :address")
@NamedQuery(name = "Agent.byOrgs", query = "SELECT a FROM AgentEntity a WHERE a.org IN :orgs ORDER BY a.address")
@NamedQuery(name = "Agent.countByOrg", query = "SELECT COUNT(a) FROM AgentEntity a WHERE a.org = :org")
public class AgentEntity {

    @Id
    @SequenceGenerator(name = "redsyn_agent_seq", sequenceName = "REDSYN_AGENT_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "redsyn_agent_seq")
    private Long id;

    /** {@code org/team/user/agent}. */
    @Column(nullable = false, unique = true, length = 300)
    private String address;

    @Column(name = "ORG", nullable = false, length = 64)
    private String org;

    @Column(nullable = false, length = 64)
    private String team;

    @Column(nullable = false, length = 64)
    private String userHandle;

    private long ownerPersonId;

    @Column(length = 2000)
    private String description;

    @Column(length = 200)
    private String adapter;

    private boolean listening;

    @Column(length = 2000)
    private String allowList;

    @Column(length = 10)
    private String trust;

    private boolean signedOnly;

    private boolean encryptedOnly;

    private long lastSeen;

    @Column(length = 64)
    private String lastNode;

    private long createdAt;

    protected AgentEntity() {
    }

    public AgentEntity(String address, String org, String team, String userHandle, long ownerPersonId, long createdAt) {
        this.address = address;
        this.org = org;
        this.team = team;
        this.userHandle = userHandle;
        this.ownerPersonId = ownerPersonId;
        this.createdAt = createdAt;
        this.trust = "none";
    }

    public Long getId() {
        return id;
    }

    public String getAddress() {
        return address;
    }

    public String getOrg() {
        return org;
    }

    public String getTeam() {
        return team;
    }

    public String getUserHandle() {
        return userHandle;
    }

    public long getOwnerPersonId() {
        return ownerPersonId;
    }

    public String getDescription() {
        return description;
    }

    public String getAdapter() {
        return adapter;
    }

    public boolean isListening() {
        return listening;
    }

    public long getLastSeen() {
        return lastSeen;
    }

    public String getLastNode() {
        return lastNode;
    }

    public Policy policy() {
        return new Policy(Policy.parseAllow(allowList), trust, signedOnly, encryptedOnly);
    }

    /** Applies an announce; the policy only when it comes with {@code listening: true}. */
    public void announce(String description, String adapter, boolean listening, Policy policy, long now, String node) {
        if (description != null) {
            this.description = description;
        }
        if (adapter != null) {
            this.adapter = adapter;
        }
        this.listening = listening;
        if (listening && policy != null) {
            this.allowList = policy.allowText();
            this.trust = policy.trust();
            this.signedOnly = policy.signedOnly();
            this.encryptedOnly = policy.encryptedOnly();
        }
        if (listening) {
            this.lastSeen = now;
            this.lastNode = node;
        }
    }
}
