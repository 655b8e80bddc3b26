package org.switchboard.journal;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/** A row of the event log: global seq, kind, payload as JSON text, append time (epoch seconds). */
@Entity
@Table(name = "journal_event", indexes = @Index(name = "journal_event_kind", columnList = "kind, seq"))
@NamedQuery(name = JournalEventEntity.AFTER,
        query = "SELECT e FROM JournalEventEntity e WHERE e.seq > :after ORDER BY e.seq")
@NamedQuery(name = JournalEventEntity.AFTER_OF_KINDS,
        query = "SELECT e FROM JournalEventEntity e WHERE e.seq > :after AND e.kind IN :kinds ORDER BY e.seq")
@NamedQuery(name = JournalEventEntity.MAX_SEQ, query = "SELECT MAX(e.seq) FROM JournalEventEntity e")
public class JournalEventEntity {

    static final String AFTER = "JournalEvent.after";
    static final String AFTER_OF_KINDS = "JournalEvent.afterOfKinds";
    static final String MAX_SEQ = "JournalEvent.maxSeq";
    /** Longest payload text stored; larger than the biggest frame the hub accepts (1 MiB by default). */
    static final int MAX_PAYLOAD_CHARS = 4 * 1024 * 1024;

    @Id
    @Column(name = "seq")
    private long seq;

    @Column(name = "kind", nullable = false, length = 64)
    private String kind;

    @Column(name = "payload", nullable = false, length = MAX_PAYLOAD_CHARS)
    private String payload;

    @Column(name = "appended_at", nullable = false)
    private double appendedAt;

    /** For JPA. */
    protected JournalEventEntity() {
    }

    /** A new row from a sequenced event. */
    JournalEventEntity(SequencedBatch.Event event) {
        this.seq = event.seq();
        this.kind = event.kind();
        this.payload = event.payloadJson();
        this.appendedAt = event.appendedAt();
    }

    long seq() {
        return seq;
    }

    String kind() {
        return kind;
    }

    String payload() {
        return payload;
    }

    double appendedAt() {
        return appendedAt;
    }
}
