package org.switchboard.journal;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/**
 * A row of the event log: global seq, kind, payload as JSON text, append time (epoch seconds).
 * This entity defines the table; the hot paths (group-commit insert, replay pages) reach it through
 * JDBC in {@link JournalStore}, which uses these same table and column names. The primary key is
 * the only index: every read pages by seq, and a second index cost each commit another B-tree leaf.
 */
@Entity
@Table(name = "journal_event")
@NamedQuery(name = JournalEventEntity.MAX_SEQ, query = "SELECT MAX(e.seq) FROM JournalEventEntity e")
public class JournalEventEntity {

    static final String MAX_SEQ = "JournalEvent.maxSeq";
    @Id
    @Column(name = "seq")
    private long seq;

    @Column(name = "kind", nullable = false, length = SequencedBatch.MAX_KIND_CHARS)
    private String kind;

    @Column(name = "payload", nullable = false, length = SequencedBatch.MAX_JSON_CHARS)
    private String payload;

    @Column(name = "appended_at", nullable = false)
    private double appendedAt;

    /** For JPA. */
    protected JournalEventEntity() {
    }
}
