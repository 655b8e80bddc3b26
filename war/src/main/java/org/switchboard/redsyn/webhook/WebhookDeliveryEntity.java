package org.switchboard.redsyn.webhook;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/**
 * The push of one message to its agent's webhook: how many attempts failed, when the next is due and
 * until when an attempt in flight owns it. The work queue only wakes deliveries up; this row decides
 * which wake-up is current, so duplicate or lost queue items never duplicate or lose a retry chain.
 */
@Entity
@Table(name = "REDSYN_WEBHOOK_DELIVERY", indexes = @Index(name = "REDSYN_WHD_DUE", columnList = "DUEAT"))
@NamedQuery(name = "WebhookDelivery.overdue", query = "SELECT d FROM WebhookDeliveryEntity d "
        + "WHERE d.dueAt <= :before AND d.claimedUntil <= :now ORDER BY d.dueAt")
@NamedQuery(name = "WebhookDelivery.postpone", query = "UPDATE WebhookDeliveryEntity d SET d.dueAt = :due "
        + "WHERE d.messageSeq = :seq AND d.dueAt = :was AND d.attemptsFailed = :failed")
public class WebhookDeliveryEntity {

    @Id
    private long messageSeq;

    @Column(nullable = false, length = 128)
    private String messageId;

    private long agentId;

    private int attemptsFailed;

    @Column(name = "DUEAT")
    private long dueAt;

    private long claimedUntil;

    protected WebhookDeliveryEntity() {
    }

    /** A delivery whose first attempt is due now. */
    public WebhookDeliveryEntity(long messageSeq, String messageId, long agentId, long now) {
        this.messageSeq = messageSeq;
        this.messageId = messageId;
        this.agentId = agentId;
        this.dueAt = now;
    }

    /** True when attempt number {@code attempt} is the one due next and nobody is making it. */
    public boolean mayAttempt(int attempt, long now) {
        return attemptsFailed == attempt - 1 && claimedUntil <= now;
    }

    /** Owns the delivery until {@code until} while an attempt is in flight. */
    public void claim(long until) {
        this.claimedUntil = until;
    }

    /** Records a failed attempt and when the next one is due. */
    public void failed(int attempt, long nextDueAt) {
        this.attemptsFailed = attempt;
        this.dueAt = nextDueAt;
        this.claimedUntil = 0;
    }

    /** The next attempt is due at {@code now} (operator "retry now"). */
    public void dueNow(long now) {
        this.dueAt = now;
    }

    public long getMessageSeq() {
        return messageSeq;
    }

    public String getMessageId() {
        return messageId;
    }

    public long getAgentId() {
        return agentId;
    }

    public int getAttemptsFailed() {
        return attemptsFailed;
    }

    public long getDueAt() {
        return dueAt;
    }

    public long getClaimedUntil() {
        return claimedUntil;
    }
}
