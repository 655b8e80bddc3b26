package org.switchboard.redsyn.message;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.util.Objects;

/** A topic copy's row by the publisher's event id, which acks name copies by (schema V8; written by {@link MessageSideKeys}). */
@Entity
@Table(name = "REDSYN_MESSAGE_EVENT")
@IdClass(MessageEventEntity.Key.class)
public class MessageEventEntity {

    @Id
    @Column(name = "EVENTID", nullable = false, length = 128)
    private String eventId;

    @Id
    @Column(name = "SEQ")
    private long seq;

    protected MessageEventEntity() {
    }

    MessageEventEntity(String eventId, long seq) {
        this.eventId = eventId;
        this.seq = seq;
    }

    String eventId() {
        return eventId;
    }

    long seq() {
        return seq;
    }

    /** The primary key of a {@link MessageEventEntity}. */
    public static class Key implements Serializable {
        private static final long serialVersionUID = 1L;
        public String eventId;
        public long seq;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && seq == k.seq && Objects.equals(eventId, k.eventId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(eventId, seq);
        }
    }
}
