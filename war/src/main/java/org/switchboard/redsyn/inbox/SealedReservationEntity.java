package org.switchboard.redsyn.inbox;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/** An encrypted request reserved for the node it was sealed for: only that node takes it from the inbox. */
@Entity
@Table(name = "REDSYN_SEALED_FOR", indexes = @Index(name = "REDSYN_SEALED_AGENT", columnList = "AGENTID, MESSAGESEQ"))
@NamedQuery(name = "SealedFor.othersSince", query = "SELECT r.messageSeq FROM SealedReservationEntity r "
        + "WHERE r.agentId = :agent AND r.messageSeq >= :since AND r.node <> :node")
@NamedQuery(name = "SealedFor.anyOfAgent", query = "SELECT r.messageSeq FROM SealedReservationEntity r WHERE r.agentId = :agent")
public class SealedReservationEntity {

    /** The message's {@code seq} (its row in REDSYN_MESSAGE). */
    @Id
    @Column(name = "MESSAGESEQ")
    private Long messageSeq;

    @Column(name = "AGENTID")
    private long agentId;

    /** Name of the node (of the agent's owner) the message was sealed for. */
    @Column(nullable = false, length = 64)
    private String node;

    protected SealedReservationEntity() {
    }

    public SealedReservationEntity(long messageSeq, long agentId, String node) {
        this.messageSeq = messageSeq;
        this.agentId = agentId;
        this.node = node;
    }

    public String getNode() {
        return node;
    }
}
