package org.switchboard.journal;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The durable, ordered event log that SYNAPSE features append to before they acknowledge a change
 * (spec synapse-core §16). Appends from many threads are group-committed; each future completes
 * only after the transaction holding the event has committed.
 */
public interface Journal {

    /** Appends one event; completes with its {@code seq} once committed. */
    default CompletableFuture<Long> append(String kind, JsonObject payload) {
        return append(List.of(new JournalEvent.Draft(kind, payload)), List.of())
                .thenApply(seqs -> seqs[0]);
    }

    /**
     * Appends events and receipt-outbox rows atomically (one transaction, consecutive seqs in list
     * order). Completes with the seqs, or exceptionally if the transaction failed (nothing applied).
     */
    CompletableFuture<long[]> append(List<JournalEvent.Draft> events, List<OutboxRow> outbox);

    /**
     * As {@link #append(List, List)} for a change its client waits on before its next step (a delivery
     * request or stage report): the group commit lingers less for it (the prompt floor of
     * {@code hub.journal.commit-linger-prompt-floor-micros}).
     */
    default CompletableFuture<long[]> appendPrompt(List<JournalEvent.Draft> events, List<OutboxRow> outbox) {
        return append(events, outbox);
    }

    /**
     * As {@link #append(List, List)}, with {@link SideRow}s of other tables in the same transaction
     * (side rows alone join the writer's next transaction). A journal that cannot write them
     * ({@link #writesSideRows()} false) fails the append when any are given.
     */
    default CompletableFuture<long[]> append(List<JournalEvent.Draft> events, List<OutboxRow> outbox,
                                             List<SideRow> sideRows) {
        if (sideRows == null || sideRows.isEmpty()) {
            return append(events, outbox);
        }
        return CompletableFuture.failedFuture(new UnsupportedOperationException("this journal writes no side rows"));
    }

    /**
     * True when appends carry side rows: the explicit ones of {@link #append(List, List, List)} and the
     * ones {@link SideRows#attach attached} on the appending thread.
     */
    default boolean writesSideRows() {
        return false;
    }

    /**
     * Completes once every append made before this call has committed or failed, so a {@link #read}
     * started afterwards sees all of those that committed.
     */
    CompletableFuture<Void> flushed();

    /** Events with {@code seq > afterSeq}, ascending, at most {@code limit}; {@code kinds} empty = all kinds. */
    List<JournalEvent> read(long afterSeq, int limit, Set<String> kinds);

    /** The event at exactly {@code seq}, or null. */
    JournalEvent at(long seq);

    /** Highest committed seq (0 when empty). */
    long lastSeq();

    /** Streams every readable event in seq order (start-up replay); undecodable rows are quarantined. */
    void replay(Consumer<JournalEvent> sink);

    /** As {@link #replay(Consumer)}, only events with seq above {@code afterSeq} (the tail after a state snapshot). */
    default void replay(long afterSeq, Consumer<JournalEvent> sink) {
        if (afterSeq <= 0) {
            replay(sink);
            return;
        }
        long after = afterSeq;
        while (true) {
            List<JournalEvent> page = read(after, 2000, java.util.Set.of());
            for (JournalEvent event : page) {
                sink.accept(event);
                after = event.seq();
            }
            if (page.size() < 2000) {
                return;
            }
        }
    }

    /** The highest seq of an event of one of {@code kinds}, 0 when there is none (retention keeps the newest chat). */
    default long lastSeqOf(Set<String> kinds) {
        long found = 0;
        long after = 0;
        while (true) {
            List<JournalEvent> page = read(after, 2000, kinds);
            for (JournalEvent event : page) {
                found = event.seq();
                after = event.seq();
            }
            if (page.size() < 2000) {
                return found;
            }
        }
    }

    /**
     * Deletes the events of {@code kinds} with {@code fromSeq <= seq < belowSeq}, except those at the seqs
     * in {@code keep} (ascending); returns how many (the retention pass, {@link RetentionPass}). A journal
     * that cannot delete deletes nothing.
     */
    default long deleteBelow(long fromSeq, long belowSeq, Set<String> kinds, long[] keep) {
        return 0;
    }

    /** Rows quarantined as corrupt during replay (§16.5); the hub is degraded while this is non-empty. */
    List<Long> corruptSeqs();

    /** Undelivered outbox rows for one sender, in creation order. */
    List<OutboxRow> pendingOutbox(String sender);

    /** False when {@code sender} certainly has no undelivered outbox row, so {@link #pendingOutbox} need not be asked. */
    default boolean mayHaveOutbox(String sender) {
        return true;
    }

    /** Marks outbox rows delivered (WebSocket accepted the frame). */
    void markDelivered(List<String> notificationIds);

    /** Count of undelivered outbox rows (for /health and /metrics). */
    long pendingOutboxCount();

    /** A stable hub id, generated ({@code syn-} + 8 hex) and stored on first use unless configured. */
    String hubId();
}
