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

/** One exposure of a link: {@code org} exposes {@code pattern} of this kind to the other side. */
@Entity
@Table(name = "REDSYN_LINK_EXPOSURE", uniqueConstraints = @UniqueConstraint(columnNames = {"LINKID", "ORG", "KIND", "PATTERN"}))
@NamedQuery(name = "Exposure.byLink", query = "SELECT e FROM ExposureEntity e WHERE e.linkId = :link ORDER BY e.id")
@NamedQuery(name = "Exposure.find", query = "SELECT e FROM ExposureEntity e WHERE e.linkId = :link AND e.org = :org "
        + "AND e.kind = :kind AND e.pattern = :pattern")
@NamedQuery(name = "Exposure.deleteByLink", query = "DELETE FROM ExposureEntity e WHERE e.linkId = :link")
public class ExposureEntity {

    @Id
    @SequenceGenerator(name = "redsyn_exposure_seq", sequenceName = "REDSYN_EXPOSURE_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "redsyn_exposure_seq")
    private Long id;

    @Column(name = "LINKID", nullable = false)
    private long linkId;
    @Column(name = "ORG", nullable = false, length = 64)
    private String org;
    @Column(name = "KIND", nullable = false, length = 8)
    private String kind;
    @Column(name = "PATTERN", nullable = false, length = 200)
    private String pattern;

    protected ExposureEntity() {
    }

    public ExposureEntity(long linkId, String org, ExposureKind kind, String pattern) {
        this.linkId = linkId;
        this.org = org;
        this.kind = kind.wire();
        this.pattern = pattern;
    }

    public String getOrg() {
        return org;
    }

    /** As checked. */
    public Exposure exposure() {
        return new Exposure(ExposureKind.fromWire(kind), pattern);
    }
}
