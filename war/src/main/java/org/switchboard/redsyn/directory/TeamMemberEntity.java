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

/** A person in a team. */
@Entity
@Table(name = "REDSYN_TEAM_MEMBER", uniqueConstraints = @UniqueConstraint(columnNames = {"TEAMID", "PERSONID"}))
@NamedQuery(name = "TeamMember.teamsOf", query = "SELECT t.handle FROM TeamMemberEntity tm, TeamEntity t "
        + "WHERE tm.teamId = t.id AND t.orgId = :org AND tm.personId = :person ORDER BY t.handle")
@NamedQuery(name = "TeamMember.byTeamAndPerson", query = "SELECT tm FROM TeamMemberEntity tm WHERE tm.teamId = :team AND tm.personId = :person")
public class TeamMemberEntity {

    @Id
    @SequenceGenerator(name = "redsyn_tm_seq", sequenceName = "REDSYN_TEAM_MEMBER_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "redsyn_tm_seq")
    private Long id;

    @Column(name = "TEAMID", nullable = false)
    private long teamId;

    @Column(name = "PERSONID", nullable = false)
    private long personId;

    protected TeamMemberEntity() {
    }

    public TeamMemberEntity(long teamId, long personId) {
        this.teamId = teamId;
        this.personId = personId;
    }
}
