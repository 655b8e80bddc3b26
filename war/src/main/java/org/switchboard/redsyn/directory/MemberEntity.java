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

/** A person in an organisation, with its handle there; admins manage teams, members and invitations. */
@Entity
@Table(name = "REDSYN_MEMBER", uniqueConstraints = {
        @UniqueConstraint(columnNames = {"ORGID", "PERSONID"}),
        @UniqueConstraint(columnNames = {"ORGID", "HANDLE"})})
@NamedQuery(name = "Member.byOrgAndPerson", query = "SELECT m FROM MemberEntity m WHERE m.orgId = :org AND m.personId = :person")
@NamedQuery(name = "Member.byOrgAndHandle", query = "SELECT m FROM MemberEntity m WHERE m.orgId = :org AND m.handle = :handle")
@NamedQuery(name = "Member.byPerson", query = "SELECT m FROM MemberEntity m WHERE m.personId = :person ORDER BY m.id")
public class MemberEntity {

    @Id
    @SequenceGenerator(name = "redsyn_member_seq", sequenceName = "REDSYN_MEMBER_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "redsyn_member_seq")
    private Long id;

    @Column(name = "ORGID", nullable = false)
    private long orgId;

    @Column(name = "PERSONID", nullable = false)
    private long personId;

    @Column(name = "HANDLE", nullable = false, length = 64)
    private String handle;

    private boolean admin;

    protected MemberEntity() {
    }

    public MemberEntity(long orgId, long personId, String handle, boolean admin) {
        this.orgId = orgId;
        this.personId = personId;
        this.handle = handle;
        this.admin = admin;
    }

    public long getOrgId() {
        return orgId;
    }

    public long getPersonId() {
        return personId;
    }

    public String getHandle() {
        return handle;
    }

    public boolean isAdmin() {
        return admin;
    }
}
