package org.switchboard.journal;

import java.util.List;

/**
 * One transaction's worth of journal rows with their seqs and outbox order already assigned by the
 * writer, plus the {@link SideRow}s that rode with its appends; the storage layer writes all of it
 * or nothing.
 */
public record SequencedBatch(List<Event> events, List<Outbox> outbox, List<SideRow> sideRows) {

    /** Longest event kind or outbox phase the tables hold. */
    public static final int MAX_KIND_CHARS = 64;
    /** Longest outbox notification id the table holds. */
    public static final int MAX_NOTIFICATION_ID_CHARS = 200;
    /** Longest outbox sender name the table holds. */
    public static final int MAX_SENDER_CHARS = 512;
    /** Longest payload or frame text the tables hold (well above the 1 MiB frame limit). */
    public static final int MAX_JSON_CHARS = 4 * 1024 * 1024;

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

    /** A batch without side rows. */
    public SequencedBatch(List<Event> events, List<Outbox> outbox) {
        this(events, outbox, List.of());
    }

    /** Number of rows in the batch. */
    public int size() {
        return events.size() + outbox.size() + sideRows.size();
    }
}
