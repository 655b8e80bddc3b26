package org.switchboard.redsyn.message;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** Which session of an agent a thread currently lands in (key: {@code <agentId>:<thread>}). */
@Entity
@Table(name = "REDSYN_THREAD_SESSION")
public class ThreadSessionEntity {

    @Id
    @Column(length = 160)
    private String agentThread;

    private long sessionId;

    protected ThreadSessionEntity() {
    }

    public ThreadSessionEntity(long agentId, String thread, long sessionId) {
        this.agentThread = key(agentId, thread);
        this.sessionId = sessionId;
    }

    /** The primary key for an agent and a thread. */
    public static String key(long agentId, String thread) {
        return agentId + ":" + thread;
    }

    public long getSessionId() {
        return sessionId;
    }
}
