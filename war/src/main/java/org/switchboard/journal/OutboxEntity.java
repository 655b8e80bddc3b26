package org.switchboard.journal;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/** A receipt notification row (synapse-core §7.11), committed in the same transaction as its event. */
@Entity
@Table(name = "journal_outbox", indexes = @Index(name = "journal_outbox_sender", columnList = "sender, delivered_at"))
@NamedQuery(name = OutboxEntity.PENDING_FOR_SENDER, query = "SELECT o FROM OutboxEntity o"
        + " WHERE o.sender = :sender AND o.deliveredAt IS NULL ORDER BY o.createdOrder")
@NamedQuery(name = OutboxEntity.PENDING_SENDERS,
        query = "SELECT DISTINCT o.sender FROM OutboxEntity o WHERE o.deliveredAt IS NULL")
@NamedQuery(name = OutboxEntity.PENDING_COUNT,
        query = "SELECT COUNT(o) FROM OutboxEntity o WHERE o.deliveredAt IS NULL")
@NamedQuery(name = OutboxEntity.MARK_DELIVERED, query = "UPDATE OutboxEntity o"
        + " SET o.deliveredAt = :now, o.attempts = o.attempts + 1"
        + " WHERE o.notificationId IN :ids AND o.deliveredAt IS NULL")
@NamedQuery(name = OutboxEntity.MAX_ORDER, query = "SELECT MAX(o.createdOrder) FROM OutboxEntity o")
public class OutboxEntity {

    static final String PENDING_FOR_SENDER = "Outbox.pendingForSender";
    static final String PENDING_COUNT = "Outbox.pendingCount";
    static final String PENDING_SENDERS = "Outbox.pendingSenders";
    static final String MARK_DELIVERED = "Outbox.markDelivered";
    static final String MAX_ORDER = "Outbox.maxOrder";

    @Id
    @Column(name = "notification_id", length = SequencedBatch.MAX_NOTIFICATION_ID_CHARS)
    private String notificationId;

    @Column(name = "created_order", nullable = false, unique = true)
    private long createdOrder;

    @Column(name = "message_seq", nullable = false)
    private long messageSeq;

    @Column(name = "phase", nullable = false, length = SequencedBatch.MAX_KIND_CHARS)
    private String phase;

    @Column(name = "sender", nullable = false, length = SequencedBatch.MAX_SENDER_CHARS)
    private String sender;

    @Column(name = "frame_json", nullable = false, length = SequencedBatch.MAX_JSON_CHARS)
    private String frame;

    @Column(name = "attempts", nullable = false)
    private int attempts;

    @Column(name = "delivered_at")
    private Double deliveredAt;

    /** For JPA. */
    protected OutboxEntity() {
    }

    /** The row as the journal API shows it. */
    OutboxRow toRow() {
        return new OutboxRow(notificationId, messageSeq, phase, sender, PayloadCodec.decode(frame), attempts,
                deliveredAt != null);
    }
}
