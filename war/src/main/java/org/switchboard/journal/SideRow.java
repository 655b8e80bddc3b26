package org.switchboard.journal;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * A row of another table written in the same transaction as a journal append, so that one commit
 * makes both durable and a failure applies neither (issue 17: a signed frame's replay nonce rides
 * with the frame's journalled effect instead of paying a commit of its own). Rows with the same
 * {@link #statement()} are written as one JDBC batch, bound by {@link #bindAll}.
 */
public interface SideRow {

    /** The parameterised insert (a constant of the owning feature; never built from input). */
    String statement();

    /** Binds this row's values to {@code insert}, a statement prepared from {@link #statement()}. */
    void bind(PreparedStatement insert) throws SQLException;

    /**
     * Binds {@code rows}, every side row of one transaction with this row's {@link #statement()} (this one
     * among them), to {@code insert}, adding each table row to its batch. By default one table row per
     * side row; a feature whose rows pack into fewer table rows overrides it (issue 17: the replay
     * store writes one row per transaction, not one per nonce).
     */
    default void bindAll(PreparedStatement insert, List<SideRow> rows) throws SQLException {
        for (SideRow row : rows) {
            row.bind(insert);
            insert.addBatch();
        }
    }

    /**
     * The row to write once the writer has given the events of its append their seqs, {@code firstSeq}
     * being the first (a row that needs its event's seq, e.g. an inbound forward's result); this one
     * itself by default. Not called for an append without events. Called on the journal's writer
     * thread outside the commit's failure handling, so it must not throw: defer real work to
     * {@link #bind}.
     */
    default SideRow sequenced(long firstSeq) {
        return this;
    }
}
