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

/** A team of an organisation. */
@Entity
@Table(name = "REDSYN_TEAM", uniqueConstraints = @UniqueConstraint(columnNames = {"ORGID", "HANDLE"}))
@NamedQuery(name = "Team.byOrgAndHandle", query = "SELECT t FROM TeamEntity t WHERE t.orgId = :org AND t.handle = :handle")
@NamedQuery(name = "Team.byOrg", query = "SELECT t FROM TeamEntity t WHERE t.orgId = :org ORDER BY t.handle")
public class TeamEntity {

    @Id
    @SequenceGenerator(name = "redsyn_team_seq", sequenceName = "REDSYN_TEAM_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "redsyn_team_seq")
    private Long id;

    @Column(name = "ORGID", nullable = false)
    private long orgId;

    @Column(name = "HANDLE", nullable = false, length = 64)
    private String handle;

    protected TeamEntity() {
    }

    public TeamEntity(long orgId, String handle) {
        this.orgId = orgId;
        this.handle = handle;
    }

    public Long getId() {
        return id;
    }

    public long getOrgId() {
        return orgId;
    }

    public String getHandle() {
        return handle;
    }
}
