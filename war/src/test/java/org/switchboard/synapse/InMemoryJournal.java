package org.switchboard.synapse;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.switchboard.journal.Journal;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.PayloadCodec;
import org.switchboard.journal.OutboxRow;
import org.switchboard.journal.SideRow;
import org.switchboard.journal.SideRows;

/** A synchronous in-memory {@link Journal} for unit tests; survives a "restart" by being reused. */
public final class InMemoryJournal implements Journal {

    private final List<JournalEvent> events = new ArrayList<>();
    private final Map<String, OutboxRow> outbox = new LinkedHashMap<>();
    private final List<Long> corrupt = new ArrayList<>();
    private boolean failAppends;
    private boolean writesSideRows;
    private final List<Write> sideRowWrites = new ArrayList<>();
    private final List<String> promptKinds = new ArrayList<>();

    /** One append that carried side rows: its event kinds and the rows, committed together. */
    public record Write(List<String> kinds, List<SideRow> sideRows) {
    }

    /** Makes this journal write side rows, as the JPA journal does (off by default). */
    public synchronized InMemoryJournal writingSideRows() {
        writesSideRows = true;
        return this;
    }

    /** The appends that carried side rows, in order. */
    public synchronized List<Write> sideRowWrites() {
        return List.copyOf(sideRowWrites);
    }

    @Override
    public synchronized boolean writesSideRows() {
        return writesSideRows;
    }

    @Override
    public synchronized CompletableFuture<long[]> append(List<JournalEvent.Draft> drafts, List<OutboxRow> rows,
                                                         List<SideRow> sideRows) {
        if (!writesSideRows) {
            return Journal.super.append(drafts, rows, sideRows);
        }
        if (failAppends) {
            return CompletableFuture.failedFuture(new IllegalStateException("append failed"));
        }
        CompletableFuture<long[]> appended = appendEvents(drafts, rows);
        if (!sideRows.isEmpty()) {
            long[] seqs = appended.join();
            // as the group committer: a row of an append with events is written as sequenced by the first seq
            List<SideRow> written = seqs.length == 0 ? List.copyOf(sideRows)
                    : sideRows.stream().map(r -> r.sequenced(seqs[0])).toList();
            sideRowWrites.add(new Write(drafts.stream().map(JournalEvent.Draft::kind).toList(), written));
        }
        return appended;
    }

    /** Makes every later append fail (nothing applied). */
    public synchronized void failAppends(boolean fail) {
        failAppends = fail;
    }

    /** Marks a seq as quarantined. */
    public synchronized void markCorrupt(long seq) {
        corrupt.add(seq);
    }

    public synchronized List<JournalEvent> events() {
        return List.copyOf(events);
    }

    @Override
    public synchronized CompletableFuture<long[]> appendPrompt(List<JournalEvent.Draft> drafts, List<OutboxRow> rows) {
        drafts.forEach(draft -> promptKinds.add(draft.kind()));
        return append(drafts, rows);
    }

    /** The kinds of the events appended as prompt appends ({@link Journal#appendPrompt}), in order. */
    public synchronized List<String> promptKinds() {
        return List.copyOf(promptKinds);
    }

    @Override
    public synchronized CompletableFuture<long[]> append(List<JournalEvent.Draft> drafts, List<OutboxRow> rows) {
        if (writesSideRows) {
            return append(drafts, rows, SideRows.take()); // as the group committer: the thread's rows ride along
        }
        if (failAppends) {
            return CompletableFuture.failedFuture(new IllegalStateException("append failed"));
        }
        return appendEvents(drafts, rows);
    }

    private CompletableFuture<long[]> appendEvents(List<JournalEvent.Draft> drafts, List<OutboxRow> rows) {
        long[] seqs = new long[drafts.size()];
        for (int i = 0; i < drafts.size(); i++) {
            long seq = events.size() + 1;
            JournalEvent.Draft draft = drafts.get(i);
            // as the real journal reads it back: the stored text when the caller gave one
            JsonObject payload = draft.json() != null ? PayloadCodec.decode(draft.json()) : draft.payload();
            events.add(new JournalEvent(seq, draft.kind(), payload, System.currentTimeMillis() / 1000.0));
            seqs[i] = seq;
        }
        for (OutboxRow row : rows) {
            outbox.put(row.notificationId(), row);
        }
        return CompletableFuture.completedFuture(seqs);
    }

    @Override
    public CompletableFuture<Void> flushed() {
        return CompletableFuture.completedFuture(null); // appends complete synchronously
    }

    @Override
    public synchronized List<JournalEvent> read(long afterSeq, int limit, Set<String> kinds) {
        List<JournalEvent> out = new ArrayList<>();
        for (JournalEvent e : events) {
            if (e.seq() > afterSeq && (kinds.isEmpty() || kinds.contains(e.kind()))) {
                out.add(e);
                if (out.size() >= limit) {
                    break;
                }
            }
        }
        return out;
    }

    @Override
    public synchronized JournalEvent at(long seq) {
        return seq >= 1 && seq <= events.size() ? events.get((int) seq - 1) : null;
    }

    @Override
    public synchronized long lastSeq() {
        return events.size();
    }

    @Override
    public void replay(Consumer<JournalEvent> sink) {
        for (JournalEvent e : events()) {
            if (!corrupt.contains(e.seq())) {
                sink.accept(e);
            }
        }
    }

    @Override
    public synchronized List<Long> corruptSeqs() {
        return List.copyOf(corrupt);
    }

    @Override
    public synchronized List<OutboxRow> pendingOutbox(String sender) {
        List<OutboxRow> rows = new ArrayList<>();
        for (OutboxRow row : outbox.values()) {
            if (!row.delivered() && row.sender().equals(sender)) {
                rows.add(row);
            }
        }
        return rows;
    }

    @Override
    public synchronized void markDelivered(List<String> notificationIds) {
        for (String id : notificationIds) {
            OutboxRow row = outbox.get(id);
            if (row != null) {
                outbox.put(id, new OutboxRow(row.notificationId(), row.messageSeq(), row.phase(), row.sender(),
                        row.frame(), row.attempts() + 1, true));
            }
        }
    }

    @Override
    public synchronized long pendingOutboxCount() {
        return outbox.values().stream().filter(r -> !r.delivered()).count();
    }

    @Override
    public String hubId() {
        return "syn-0badc0de";
    }

    /** Payload of the last event of a kind, or null. */
    public synchronized JsonObject last(String kind) {
        for (int i = events.size() - 1; i >= 0; i--) {
            if (events.get(i).kind().equals(kind)) {
                return events.get(i).payload();
            }
        }
        return null;
    }
}
