package org.switchboard.redsyn.directory;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** An organisation: the trust boundary. Pinned to the API date it was created under. */
@Entity
@Table(name = "REDSYN_ORG")
@NamedQuery(name = "Org.byHandle", query = "SELECT o FROM OrgEntity o WHERE o.handle = :handle")
public class OrgEntity {

    @Id
    @SequenceGenerator(name = "redsyn_org_seq", sequenceName = "REDSYN_ORG_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "redsyn_org_seq")
    private Long id;

    @Column(nullable = false, unique = true, length = 64)
    private String handle;

    @Column(nullable = false, length = 10)
    private String pinnedVersion;

    private long creatorPersonId;

    private long createdAt;

    protected OrgEntity() {
    }

    public OrgEntity(String handle, String pinnedVersion, long creatorPersonId, long createdAt) {
        this.handle = handle;
        this.pinnedVersion = pinnedVersion;
        this.creatorPersonId = creatorPersonId;
        this.createdAt = createdAt;
    }

    public Long getId() {
        return id;
    }

    public String getHandle() {
        return handle;
    }

    public String getPinnedVersion() {
        return pinnedVersion;
    }

    public long getCreatorPersonId() {
        return creatorPersonId;
    }

    public long getCreatedAt() {
        return createdAt;
    }
}
