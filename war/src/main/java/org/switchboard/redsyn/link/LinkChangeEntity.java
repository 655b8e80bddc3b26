package org.switchboard.redsyn.link;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** One entry of a link's change log, which both sides see: when, which side, who, and what changed. */
@Entity
@Table(name = "REDSYN_LINK_CHANGE")
@NamedQuery(name = "LinkChange.recent", query = "SELECT c FROM LinkChangeEntity c WHERE c.linkId = :link ORDER BY c.id DESC")
public class LinkChangeEntity {

    @Id
    @SequenceGenerator(name = "redsyn_link_change_seq", sequenceName = "REDSYN_LINK_CHANGE_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "redsyn_link_change_seq")
    private Long id;

    @Column(name = "LINKID", nullable = false)
    private long linkId;
    private long changedAt;
    @Column(nullable = false, length = 64)
    private String org;
    @Column(nullable = false, length = 64)
    private String who;
    @Column(nullable = false, length = 20)
    private String action;
    @Column(length = 2000)
    private String detail;

    protected LinkChangeEntity() {
    }

    public LinkChangeEntity(long linkId, long at, String org, String who, String change, String detail) {
        this.linkId = linkId;
        this.changedAt = at;
        this.org = org;
        this.who = who;
        this.action = change;
        this.detail = detail;
    }

    public long getAt() {
        return changedAt;
    }

    public String getOrg() {
        return org;
    }

    public String getWho() {
        return who;
    }

    public String getChange() {
        return action;
    }

    public String getDetail() {
        return detail;
    }
}
