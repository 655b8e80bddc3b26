package org.switchboard.redsyn.directory;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** An invitation to an organisation (and one of its teams), addressed to an e-mail. */
@Entity
@Table(name = "REDSYN_INVITE")
@NamedQuery(name = "Invite.pendingFor", query = "SELECT i FROM InviteEntity i WHERE i.email = :email AND i.accepted = false ORDER BY i.id")
@NamedQuery(name = "Invite.pendingForOrg", query = "SELECT i FROM InviteEntity i WHERE i.email = :email AND i.orgId = :org AND i.accepted = false ORDER BY i.id")
public class InviteEntity {

    @Id
    @SequenceGenerator(name = "redsyn_invite_seq", sequenceName = "REDSYN_INVITE_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "redsyn_invite_seq")
    private Long id;

    private long orgId;

    @Column(nullable = false, length = 254)
    private String email;

    @Column(nullable = false, length = 64)
    private String team;

    private boolean accepted;

    private long createdAt;

    protected InviteEntity() {
    }

    public InviteEntity(long orgId, String email, String team, long createdAt) {
        this.orgId = orgId;
        this.email = email;
        this.team = team;
        this.createdAt = createdAt;
    }

    public Long getId() {
        return id;
    }

    public long getOrgId() {
        return orgId;
    }

    public String getEmail() {
        return email;
    }

    public String getTeam() {
        return team;
    }

    public void accept() {
        this.accepted = true;
    }
}
