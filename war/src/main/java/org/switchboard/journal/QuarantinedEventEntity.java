package org.switchboard.journal;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/**
 * A {@code corrupt_event} quarantine marker (synapse-core §16.5): the seq of an event row whose
 * payload could not be decoded, and why. The event row itself is left untouched for the operator.
 */
@Entity
@Table(name = "journal_quarantine")
@NamedQuery(name = QuarantinedEventEntity.STILL_PRESENT, query = "SELECT q.seq FROM QuarantinedEventEntity q"
        + " WHERE EXISTS (SELECT e.seq FROM JournalEventEntity e WHERE e.seq = q.seq) ORDER BY q.seq")
public class QuarantinedEventEntity {

    static final String STILL_PRESENT = "Quarantine.stillPresent";

    @Id
    @Column(name = "seq")
    private long seq;

    @Column(name = "reason", nullable = false, length = 1024)
    private String reason;

    @Column(name = "quarantined_at", nullable = false)
    private double quarantinedAt;

    /** For JPA. */
    protected QuarantinedEventEntity() {
    }

    QuarantinedEventEntity(long seq, String reason, double quarantinedAt) {
        this.seq = seq;
        this.reason = reason.length() > 1024 ? reason.substring(0, 1024) : reason;
        this.quarantinedAt = quarantinedAt;
    }
}
