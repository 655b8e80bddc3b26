package org.switchboard.redsyn.message;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** A conversation inside an agent, opened by the relay; its id on the wire is {@code s<id>}. */
@Entity
@Table(name = "REDSYN_SESSION", indexes = @Index(name = "REDSYN_SESSION_AGENT", columnList = "AGENTID, ID"))
@NamedQuery(name = "Session.byAgent", query = "SELECT s FROM SessionEntity s WHERE s.agentId = :agent ORDER BY s.id DESC")
public class SessionEntity {

    /** The sequence of {@code id}; its increment is {@link #ALLOCATION} (schema V1). */
    public static final String SEQUENCE = "REDSYN_SESSION_SEQ";
    /** Ids taken from the sequence at a time: a read of it hands out the block that ends at the value read. */
    public static final int ALLOCATION = 200;

    @Id
    @SequenceGenerator(name = "redsyn_session_seq", sequenceName = SessionEntity.SEQUENCE, allocationSize = SessionEntity.ALLOCATION)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "redsyn_session_seq")
    @Column(name = "ID")
    private Long id;

    @Column(name = "AGENTID")
    private long agentId;

    /** The thread that opened it. */
    @Column(nullable = false, length = 128)
    private String thread;

    @Column(length = 500)
    private String title;

    private boolean closed;

    private long createdAt;

    protected SessionEntity() {
    }

    public SessionEntity(long agentId, String thread, long createdAt) {
        this.agentId = agentId;
        this.thread = thread;
        this.createdAt = createdAt;
    }

    /** The wire id, {@code s42}. */
    public String sid() {
        return "s" + id;
    }

    /** The numeric id in a wire id, or null when it is not {@code s<digits>}. */
    public static Long parseSid(String sid) {
        if (sid == null || sid.length() < 2 || sid.charAt(0) != 's') {
            return null;
        }
        try {
            return Long.parseLong(sid.substring(1));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public Long getId() {
        return id;
    }

    public long getAgentId() {
        return agentId;
    }

    public String getThread() {
        return thread;
    }

    public String getTitle() {
        return title;
    }

    public boolean isClosed() {
        return closed;
    }

    public long getCreatedAt() {
        return createdAt;
    }

    public void setTitle(String title) {
        this.title = title;
    }

    public void close() {
        this.closed = true;
    }
}
