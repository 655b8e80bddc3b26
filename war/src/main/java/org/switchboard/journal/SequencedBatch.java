package org.switchboard.journal;

import java.util.List;

/**
 * One transaction's worth of journal rows with their seqs and outbox order already assigned by the
 * writer; the storage layer writes all of it or nothing.
 */
public record SequencedBatch(List<Event> events, List<Outbox> outbox) {

    /** An event row ready to insert: payload already encoded as JSON text. */
    public record Event(long seq, String kind, String payloadJson, double appendedAt) {
    }

    /**
     * A receipt-outbox row ready to insert; {@code createdOrder} keeps rows in append order and
     * {@code deliveredAt} is null while the row waits for its sender.
     */
    public record Outbox(long createdOrder, String notificationId, long messageSeq, String phase,
                         String sender, String frameJson, int attempts, Double deliveredAt) {
    }

    /** Number of rows in the batch. */
    public int size() {
        return events.size() + outbox.size();
    }
}
