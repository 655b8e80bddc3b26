package org.switchboard.redsyn.link;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;

/**
 * The link between two organisations (one row per pair, {@code orgA} the lower handle): its state,
 * which side proposed it, and each side's rules for what it lets in from the other.
 */
@Entity
@Table(name = "REDSYN_LINK", uniqueConstraints = @UniqueConstraint(columnNames = {"ORGA", "ORGB"}))
@NamedQuery(name = "Link.byPair", query = "SELECT l FROM LinkEntity l WHERE l.orgA = :a AND l.orgB = :b")
@NamedQuery(name = "Link.ofOrgs", query = "SELECT l FROM LinkEntity l WHERE l.orgA IN :orgs OR l.orgB IN :orgs ORDER BY l.id")
@NamedQuery(name = "Link.countLive", query = "SELECT COUNT(l) FROM LinkEntity l WHERE (l.orgA = :org OR l.orgB = :org) "
        + "AND l.state <> :revoked")
public class LinkEntity {

    @Id
    @SequenceGenerator(name = "redsyn_link_seq", sequenceName = "REDSYN_LINK_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "redsyn_link_seq")
    private Long id;

    @Column(name = "ORGA", nullable = false, length = 64)
    private String orgA;
    @Column(name = "ORGB", nullable = false, length = 64)
    private String orgB;
    @Column(nullable = false, length = 10)
    private String state;
    @Column(nullable = false, length = 64)
    private String proposedBy;
    private long changedAt;

    /** What A lets in from B. */
    private boolean signedOnlyA = true;
    @Column(length = 2000)
    private String ipsA = "";
    /** What B lets in from A. */
    private boolean signedOnlyB = true;
    @Column(length = 2000)
    private String ipsB = "";

    protected LinkEntity() {
    }

    /** A new proposal from {@code proposer} (one of the two). */
    public LinkEntity(String orgA, String orgB, String proposer, long now) {
        this.orgA = orgA;
        this.orgB = orgB;
        propose(proposer, now);
    }

    /** (Re)opens the link as a proposal from {@code proposer}, with default rules. */
    public void propose(String proposer, long now) {
        this.state = LinkState.PROPOSED.name();
        this.proposedBy = proposer;
        this.changedAt = now;
        this.signedOnlyA = true;
        this.signedOnlyB = true;
        this.ipsA = "";
        this.ipsB = "";
    }

    /** Moves to another state. */
    public void moveTo(LinkState to, long now) {
        this.state = to.name();
        this.changedAt = now;
    }

    /** Sets what {@code org} (one of the two) lets in from the other side. */
    public void setRules(String org, LinkRules rules, long now) {
        if (org.equals(orgA)) {
            signedOnlyA = rules.signedOnly();
            ipsA = rules.ips().text();
        } else {
            signedOnlyB = rules.signedOnly();
            ipsB = rules.ips().text();
        }
        this.changedAt = now;
    }

    /** What {@code org} (one of the two) lets in from the other side. */
    public LinkRules rulesOf(String org) {
        return org.equals(orgA) ? new LinkRules(signedOnlyA, IpAllowList.parse(ipsA))
                : new LinkRules(signedOnlyB, IpAllowList.parse(ipsB));
    }

    /** The other side, seen from {@code org}. */
    public String otherThan(String org) {
        return org.equals(orgA) ? orgB : orgA;
    }

    public Long getId() {
        return id;
    }

    public String getOrgA() {
        return orgA;
    }

    public String getOrgB() {
        return orgB;
    }

    public LinkState getState() {
        return LinkState.valueOf(state);
    }

    public String getProposedBy() {
        return proposedBy;
    }

    public long getChangedAt() {
        return changedAt;
    }
}
