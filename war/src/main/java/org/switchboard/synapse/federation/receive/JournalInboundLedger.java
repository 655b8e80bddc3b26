package org.switchboard.synapse.federation.receive;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletionException;
import javax.sql.DataSource;
import org.switchboard.journal.Journal;
import org.switchboard.journal.SideRow;
import org.switchboard.json.Jsons;

/**
 * The inbound ledger on the journal's group commit (issue 18 speed): a record rides as a
 * {@link SideRow} in the journal writer's next transaction instead of paying a JPA transaction of its
 * own per forward (the receiver's profile put that commit at a quarter of its CPU), and a look-up is
 * one plain JDBC read on an auto-commit connection, skipped for a key a {@link LedgerKeyFilter} has
 * never seen (most forwards are new) once the filter holds every stored key. Same table and rows as
 * {@link JpaInboundLedger}.
 */
public final class JournalInboundLedger implements InboundLedger {

    /**
     * The insert, a no-op when the key is present: a side row that failed would fail the other appends
     * of its batch, so a racing repeat must not raise a key violation (H2 and PostgreSQL alike).
     */
    static final String INSERT = "INSERT INTO federation_inbound (ledger_key, origin_hub, forward_id, kind, request_digest,"
            + " result_json, received_at) SELECT ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS"
            + " (SELECT 1 FROM federation_inbound WHERE ledger_key = ?)";
    static final String SELECT = "SELECT kind, request_digest, result_json, received_at FROM federation_inbound"
            + " WHERE ledger_key = ?";
    static final String ALL_KEYS = "SELECT ledger_key FROM federation_inbound";
    static final String AMEND = "UPDATE federation_inbound SET result_json = ? WHERE ledger_key = ?";
    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(JournalInboundLedger.class.getName());

    private final Journal journal;
    private final DataSource dataSource;
    private final LedgerKeyFilter keys = new LedgerKeyFilter(LedgerKeyFilter.DEFAULT_BITS_LOG2);
    /** True once every key stored before this ledger existed is in {@link #keys}; until then every look-up reads. */
    private volatile boolean keysLoaded;

    /**
     * A ledger writing through {@code journal} (which must write side rows) and reading {@code dataSource};
     * {@code loader} runs the one read of the stored keys into the filter.
     */
    public JournalInboundLedger(Journal journal, DataSource dataSource, java.util.concurrent.Executor loader) {
        if (!journal.writesSideRows()) {
            throw new IllegalArgumentException("the journal does not write side rows");
        }
        this.journal = journal;
        this.dataSource = dataSource;
        loader.execute(this::loadKeys);
    }

    /** Reads every stored key into the filter; keys recorded meanwhile are added by {@link #record} itself. */
    void loadKeys() {
        long started = System.nanoTime();
        int n = 0;
        try (Connection c = dataSource.getConnection(); PreparedStatement all = c.prepareStatement(ALL_KEYS);
             ResultSet row = all.executeQuery()) {
            while (row.next()) {
                keys.add(row.getString(1));
                n++;
            }
            keysLoaded = true;
            int count = n;
            LOG.fine(() -> "SYNAPSE inbound forward ledger: " + count + " keys filtered in "
                    + (System.nanoTime() - started) / 1_000_000 + " ms");
        } catch (SQLException | RuntimeException e) {
            // the filter stays off: every look-up reads the table, as before
            LOG.warning("SYNAPSE inbound forward ledger: stored keys not read (" + e.getClass().getSimpleName()
                    + "); every forward's look-up reads the table");
        }
    }

    /** One ledger row as a side row of the journal's transaction. */
    record LedgerRow(Entry entry) implements SideRow {
        @Override
        public String statement() {
            return INSERT;
        }

        @Override
        public void bind(PreparedStatement insert) throws SQLException {
            bindRow(insert, entry.origin(), entry.forwardId(), entry.kind(), entry.digest(), entry.result().toString(),
                    entry.receivedAt());
        }
    }

    /** A ledger row whose result names the seq of the chat it rides with (see {@link SideRow#sequenced}). */
    record ChatLedgerRow(String origin, String forwardId, String kind, String digest, double receivedAt,
                         java.util.function.LongFunction<String> resultForSeq) implements SideRow {
        @Override
        public String statement() {
            return INSERT;
        }

        @Override
        public void bind(PreparedStatement insert) {
            // only the sequenced copy is written: an append without its chat event is a caller's error
            throw new IllegalStateException("an inbound ledger row for a chat rides with the chat's event");
        }

        @Override
        public SideRow sequenced(long firstSeq) {
            return new SideRow() {
                @Override
                public String statement() {
                    return INSERT;
                }

                @Override
                public void bind(PreparedStatement insert) throws SQLException {
                    // built here, inside the writer's commit: a failure fails the batch, never the writer
                    bindRow(insert, origin, forwardId, kind, digest, resultForSeq.apply(firstSeq), receivedAt);
                }
            };
        }
    }

    /** Binds {@link #INSERT}'s parameters. */
    static void bindRow(PreparedStatement insert, String origin, String forwardId, String kind, String digest,
                        String resultJson, double receivedAt) throws SQLException {
        String key = InboundForwardEntity.key(origin, forwardId);
        insert.setString(1, key);
        insert.setString(2, origin);
        insert.setString(3, forwardId);
        insert.setString(4, kind);
        insert.setString(5, digest);
        insert.setString(6, resultJson);
        insert.setDouble(7, receivedAt);
        insert.setString(8, key);
    }

    @Override
    public SideRow rowWithChat(String origin, String forwardId, String kind, String digest, double receivedAt,
                               java.util.function.LongFunction<String> resultForSeq) {
        keys.add(InboundForwardEntity.key(origin, forwardId)); // before the row can be read
        return new ChatLedgerRow(origin, forwardId, kind, digest, receivedAt, resultForSeq);
    }

    @Override
    public void amend(Entry entry) {
        String key = InboundForwardEntity.key(entry.origin(), entry.forwardId());
        String result = entry.result().toString();
        SideRow update = new SideRow() {
            @Override
            public String statement() {
                return AMEND;
            }

            @Override
            public void bind(PreparedStatement statement) throws SQLException {
                statement.setString(1, result);
                statement.setString(2, key);
            }
        };
        try {
            journal.append(List.of(), List.of(), List.of(update)).join();
        } catch (CompletionException e) {
            throw new IllegalStateException("inbound ledger amend failed", e.getCause());
        }
    }

    @Override
    public Entry find(String origin, String forwardId) {
        if (keysLoaded && !keys.mightContain(InboundForwardEntity.key(origin, forwardId))) {
            return null;
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement select = c.prepareStatement(SELECT)) {
            select.setString(1, InboundForwardEntity.key(origin, forwardId));
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return null;
                }
                try (var reader = Jsons.PROVIDER.createReader(new StringReader(row.getString(3)))) {
                    return new Entry(origin, forwardId, row.getString(1), row.getString(2), reader.readObject(), row.getDouble(4));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the inbound forward ledger", e);
        }
    }

    /**
     * Writes the row in the journal's next group commit and returns once it is durable. Always true:
     * a key already present is left as it was by the insert itself (the receiver's in-flight map keeps
     * a racing repeat from getting here first).
     */
    @Override
    public boolean record(Entry entry) {
        keys.add(InboundForwardEntity.key(entry.origin(), entry.forwardId())); // before the row can be read
        try {
            journal.append(List.of(), List.of(), List.of(new LedgerRow(entry))).join();
            return true;
        } catch (CompletionException e) {
            throw new IllegalStateException("inbound ledger write failed", e.getCause());
        }
    }
}
