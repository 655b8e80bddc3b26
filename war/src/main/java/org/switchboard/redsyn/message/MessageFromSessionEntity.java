package org.switchboard.redsyn.message;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.util.Objects;

/** A message sent from a named session of its sender, by that session, which the session's page reads (schema V8; written by {@link MessageSideKeys}). */
@Entity
@Table(name = "REDSYN_MESSAGE_FROM_SESSION")
@IdClass(MessageFromSessionEntity.Key.class)
public class MessageFromSessionEntity {

    @Id
    @Column(name = "SESSIONID")
    private long sessionId;

    @Id
    @Column(name = "SEQ")
    private long seq;

    protected MessageFromSessionEntity() {
    }

    MessageFromSessionEntity(long sessionId, long seq) {
        this.sessionId = sessionId;
        this.seq = seq;
    }

    long sessionId() {
        return sessionId;
    }

    long seq() {
        return seq;
    }

    /** The primary key of a {@link MessageFromSessionEntity}. */
    public static class Key implements Serializable {
        private static final long serialVersionUID = 1L;
        public long sessionId;
        public long seq;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && seq == k.seq && Objects.equals(sessionId, k.sessionId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(sessionId, seq);
        }
    }
}
