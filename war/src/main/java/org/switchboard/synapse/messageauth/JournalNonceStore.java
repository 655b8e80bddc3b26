package org.switchboard.synapse.messageauth;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.switchboard.journal.Journal;
import org.switchboard.journal.SideRow;
import org.switchboard.journal.SideRows;

/**
 * The durable replay store on the journal's group commit (issue 17): an accepted nonce's row is
 * {@link SideRows#attach attached} to the frame's thread and rides in the transaction of the journal
 * append the frame's handler makes next, so one commit makes the nonce and the frame's effect durable
 * together, and a failed commit applies neither (the handler's append fails: the frame is refused with
 * nothing applied). What no append took (a refusal, a frame with no journalled effect) is written by
 * {@link #writeAttached()} into the writer's next transaction. Start-up reads and the periodic prune
 * go straight to the table ({@code table}); the periodic prune runs on {@code pruning}, never on the
 * frame's thread.
 */
public final class JournalNonceStore implements NonceStore {

    private final Journal journal;
    private final NonceStore table;
    private final Executor pruning;
    private final AtomicBoolean pruneRunning = new AtomicBoolean();

    /**
     * One accepted nonce riding with a journal append. All of a transaction's nonces are written as one
     * row of {@code synapse_message_auth_nonce_batch} ({@link NonceBatch}), not one row each.
     */
    record NonceRow(String id, double expiresAt) implements SideRow, NonceBatch.Entry {
        NonceRow {
            NonceBatch.check(id); // here, on the frame's thread: the writer's bind must not fail on it
        }

        @Override
        public String statement() {
            return NonceBatch.INSERT;
        }

        /** This nonce alone as one packed row. */
        @Override
        public void bind(PreparedStatement insert) throws SQLException {
            NonceBatch.bind(insert, List.of(this));
        }

        /** The transaction's nonces, packed into as few rows as {@link NonceBatch#MAX_PER_ROW} allows. */
        @Override
        public void bindAll(PreparedStatement insert, List<SideRow> rows) throws SQLException {
            List<NonceBatch.Entry> entries = new ArrayList<>(rows.size());
            for (SideRow row : rows) {
                if (!(row instanceof NonceBatch.Entry entry)) {
                    throw new SQLException("a side row of the nonce batch insert is not a nonce: " + row);
                }
                entries.add(entry);
            }
            NonceBatch.bindRows(insert, entries);
        }
    }

    /**
     * A store writing through {@code journal} (which must {@link Journal#writesSideRows() write side rows}),
     * reading {@code table}, and pruning it on {@code pruning}.
     */
    public JournalNonceStore(Journal journal, NonceStore table, Executor pruning) {
        if (!journal.writesSideRows()) {
            throw new IllegalArgumentException("the journal does not write side rows");
        }
        this.journal = journal;
        this.table = table;
        this.pruning = pruning;
    }

    @Override
    public Map<String, Double> live(double now) {
        return table.live(now);
    }

    /** Attaches the nonce row to this thread's next journal append; never fails here (the commit decides). */
    @Override
    public boolean record(String id, double expiresAt) {
        SideRows.attach(new NonceRow(id, expiresAt));
        return true;
    }

    /**
     * Deletes the rows expired before {@code now} on the pruning executor and returns at once (issue 17:
     * on the frame's thread the delete of ten seconds' rows held that socket's frames for up to 2 s and
     * was 9% of a paranoid hub's samples). While one prune runs, another call is dropped: the next one
     * deletes what this one would have. Only rows already expired are deleted, so a late prune reopens
     * nothing.
     */
    @Override
    public void prune(double now) {
        if (!pruneRunning.compareAndSet(false, true)) {
            return;
        }
        try {
            pruning.execute(() -> {
                try {
                    table.prune(now);
                } finally {
                    pruneRunning.set(false);
                }
            });
        } catch (RejectedExecutionException e) {
            pruneRunning.set(false); // the hub is stopping: start-up's pruneAll deletes these rows
        }
    }

    @Override
    public void pruneAll(double now) {
        table.pruneAll(now);
    }

    /**
     * Appends the rows still attached on this thread (they leave it) as side rows of the journal's next
     * transaction; completes once they are durable, exceptionally when the commit failed.
     */
    public CompletableFuture<long[]> writeAttached() {
        List<SideRow> rows = SideRows.take();
        if (rows.isEmpty()) {
            return CompletableFuture.completedFuture(new long[0]);
        }
        return journal.append(List.of(), List.of(), rows);
    }
}
