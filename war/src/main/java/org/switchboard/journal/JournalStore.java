package org.switchboard.journal;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The journal's database access. A batch is one local JDBC transaction on a connection taken
 * outside any JTA transaction, so it commits or rolls back as a unit and costs the database one
 * commit. (Inside a container-managed transaction the pool handed out a connection still in
 * auto-commit mode: H2 committed every row of a JDBC batch separately, which was neither atomic
 * nor cheap — one file chunk per row with {@code WRITE_DELAY=0}.) Side rows ({@link SideRow}) that rode
 * with an append are inserted in the same transaction. The entities define the tables;
 * the group-commit insert uses a JDBC batch, because building hundreds of managed entities per
 * commit cost more than the database write itself.
 */
@ApplicationScoped
public class JournalStore {

    private static final Logger LOG = Logger.getLogger(JournalStore.class.getName());
    private static final String INSERT_EVENT =
            "INSERT INTO journal_event (seq, kind, payload, appended_at) VALUES (?, ?, ?, ?)";
    private static final String INSERT_OUTBOX = "INSERT INTO journal_outbox (notification_id, created_order,"
            + " message_seq, phase, sender, frame_json, attempts, delivered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    /** Whether this process declared H2's compaction function yet (one scheduler thread uses it). */
    private volatile boolean compactionDeclared;

    /** Inserts every row of the batch in one transaction; returns after commit, throws after rollback. */
    @Transactional(TxType.NOT_SUPPORTED)
    public void write(SequencedBatch batch) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            LocalTransaction.run(connection, c -> {
                insert(c, batch);
                return null;
            });
        }
    }

    private static void insert(Connection connection, SequencedBatch batch) throws SQLException {
        if (!batch.events().isEmpty()) {
            try (PreparedStatement insert = connection.prepareStatement(INSERT_EVENT)) {
                for (SequencedBatch.Event event : batch.events()) {
                    insert.setLong(1, event.seq());
                    insert.setString(2, event.kind());
                    insert.setString(3, event.payloadJson());
                    insert.setDouble(4, event.appendedAt());
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
        if (!batch.outbox().isEmpty()) {
            try (PreparedStatement insert = connection.prepareStatement(INSERT_OUTBOX)) {
                for (SequencedBatch.Outbox row : batch.outbox()) {
                    insert.setString(1, row.notificationId());
                    insert.setLong(2, row.createdOrder());
                    insert.setLong(3, row.messageSeq());
                    insert.setString(4, row.phase());
                    insert.setString(5, row.sender());
                    insert.setString(6, row.frameJson());
                    insert.setInt(7, row.attempts());
                    if (row.deliveredAt() == null) {
                        insert.setNull(8, Types.DOUBLE);
                    } else {
                        insert.setDouble(8, row.deliveredAt());
                    }
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
        insertSideRows(connection, batch.sideRows());
    }

    /**
     * The side rows that rode with the batch's appends: one JDBC batch per distinct statement, in first-seen
     * order, bound by the statement's first row ({@link SideRow#bindAll}).
     */
    static void insertSideRows(Connection connection, List<SideRow> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        Map<String, List<SideRow>> byStatement = new java.util.LinkedHashMap<>();
        for (SideRow row : rows) {
            byStatement.computeIfAbsent(row.statement(), k -> new ArrayList<>()).add(row);
        }
        for (Map.Entry<String, List<SideRow>> group : byStatement.entrySet()) {
            try (PreparedStatement insert = connection.prepareStatement(group.getKey())) {
                group.getValue().get(0).bindAll(insert, group.getValue());
                insert.executeBatch();
            }
        }
    }

    /**
     * On the embedded H2 database, makes every commit reach the file before it returns: H2 otherwise
     * writes committed data up to 500 ms later, and a {@code kill -9} in that window loses
     * acknowledged events (seen in testing). Other databases are left as configured. Returns whether
     * the database is H2.
     */
    public boolean makeCommitsDurable() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            String product = connection.getMetaData().getDatabaseProductName();
            if (product != null && product.toUpperCase(java.util.Locale.ROOT).contains("H2")) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("SET WRITE_DELAY 0");
                }
                LOG.info("journal: H2 write delay set to 0 (each commit is written before it is acknowledged)");
                return true;
            }
            return false;
        }
    }

    /**
     * Forces the H2 file to disk ({@code CHECKPOINT SYNC}, an fsync that does not hold H2's store
     * lock, so commits go on meanwhile). Needs an admin user, as the launcher's {@code sa} is.
     */
    public void syncFile() throws SQLException {
        execute("CHECKPOINT SYNC");
    }

    /**
     * Compacts the embedded H2 file's sparse chunks ({@link H2FileCompaction}); returns the chunks left,
     * or -1 when the database is not an embedded H2 file.
     */
    public int compactFile(int targetFillRate, int maxWriteBytes) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            declareCompaction(connection);
            return H2FileCompaction.compact(connection, targetFillRate, maxWriteBytes);
        }
    }

    /** The embedded H2 file's chunk count and version ({@link H2FileCompaction#state}); null on other databases. */
    public H2FileCompaction.FileState fileState() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            declareCompaction(connection);
            return H2FileCompaction.state(connection);
        }
    }

    private void declareCompaction(Connection connection) throws SQLException {
        if (!compactionDeclared && !H2FileCompaction.direct(connection)) {
            H2FileCompaction.declare(connection);
            compactionDeclared = true;
        }
    }

    /**
     * Drops the {@code (kind, seq)} index that earlier versions created. Reads page by seq and filter
     * kinds on the way (the mailbox asks for chat, nearly every row), while the index cost every commit
     * another B-tree leaf: 10–20% of H2's commit time in a measurement (benchmarks.md).
     */
    public void dropKindIndex() throws SQLException {
        execute("DROP INDEX IF EXISTS journal_event_kind");
    }

    /** Runs one statement on a connection of its own, outside any transaction. */
    private void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** Highest stored seq, 0 when empty. */
    public long maxSeq() {
        Long max = em.createNamedQuery(JournalEventEntity.MAX_SEQ, Long.class).getSingleResult();
        return max == null ? 0 : max;
    }

    /** Highest stored outbox creation order, 0 when empty. */
    public long maxOutboxOrder() {
        Long max = em.createNamedQuery(OutboxEntity.MAX_ORDER, Long.class).getSingleResult();
        return max == null ? 0 : max;
    }

    /** The stored value of a setting, or null. */
    public String setting(String name) {
        JournalSettingEntity setting = em.find(JournalSettingEntity.class, name);
        return setting == null ? null : setting.value();
    }

    /** Stores a setting (insert or replace). */
    @Transactional(TxType.REQUIRES_NEW)
    public void putSetting(String name, String value) {
        em.merge(new JournalSettingEntity(name, value));
    }

    /**
     * Up to {@code limit} event rows with seq above {@code afterSeq}, ascending; empty kinds = every
     * kind. Plain JDBC: replay streams the whole log through here page by page.
     */
    public List<JournalReader.StoredEvent> page(long afterSeq, int limit, Set<String> kinds) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT seq, kind, payload, appended_at FROM journal_event WHERE seq > ?");
        List<String> kindList = kinds == null ? List.of() : List.copyOf(kinds);
        if (!kindList.isEmpty()) {
            sql.append(" AND kind IN (").append("?, ".repeat(kindList.size() - 1)).append("?)");
        }
        sql.append(" ORDER BY seq FETCH FIRST ? ROWS ONLY");
        try (Connection connection = dataSource.getConnection();
             PreparedStatement query = connection.prepareStatement(sql.toString())) {
            int index = 1;
            query.setLong(index++, afterSeq);
            for (String kind : kindList) {
                query.setString(index++, kind);
            }
            query.setInt(index, limit);
            return rows(query);
        }
    }

    /**
     * The highest seq of a row of one of {@code kinds}, 0 when none: walks the primary key down from
     * the top (no kind index), so it is quick when such a row is recent.
     */
    public long lastSeqOf(Set<String> kinds) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return lastSeqOf(connection, kinds);
        }
    }

    static long lastSeqOf(Connection connection, Set<String> kinds) throws SQLException {
        List<String> kindList = List.copyOf(kinds);
        String sql = "SELECT seq FROM journal_event WHERE kind IN (" + "?, ".repeat(kindList.size() - 1)
                + "?) ORDER BY seq DESC FETCH FIRST 1 ROWS ONLY";
        try (PreparedStatement query = connection.prepareStatement(sql)) {
            for (int i = 0; i < kindList.size(); i++) {
                query.setString(i + 1, kindList.get(i));
            }
            try (ResultSet result = query.executeQuery()) {
                return result.next() ? result.getLong(1) : 0;
            }
        }
    }

    /**
     * Deletes rows of {@code kinds} with {@code fromSeq <= seq < belowSeq} except the seqs in {@code keep}
     * (ascending): one statement per stretch between kept seqs, at most {@code window} seqs each, so on an
     * auto-commit connection no transaction holds many rows and the group commit goes on between them.
     */
    public long deleteBelow(long fromSeq, long belowSeq, Set<String> kinds, long[] keep, int window) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return deleteBelow(connection, fromSeq, belowSeq, kinds, keep, window);
        }
    }

    static long deleteBelow(Connection connection, long fromSeq, long belowSeq, Set<String> kinds, long[] keep,
                            int window) throws SQLException {
        List<String> kindList = List.copyOf(kinds);
        String sql = "DELETE FROM journal_event WHERE seq >= ? AND seq < ? AND kind IN ("
                + "?, ".repeat(kindList.size() - 1) + "?)";
        long deleted = 0;
        try (PreparedStatement delete = connection.prepareStatement(sql)) {
            long from = fromSeq;
            for (long kept : keep) {
                if (kept >= belowSeq) {
                    break;
                }
                if (kept >= from) {
                    deleted += deleteRange(delete, from, kept, kindList, window);
                    from = kept + 1;
                }
            }
            deleted += deleteRange(delete, from, belowSeq, kindList, window);
        }
        return deleted;
    }

    private static long deleteRange(PreparedStatement delete, long fromSeq, long belowSeq, List<String> kinds, int window)
            throws SQLException {
        long deleted = 0;
        for (long from = fromSeq; from < belowSeq; from += window) {
            delete.setLong(1, from);
            delete.setLong(2, Math.min(belowSeq, from + window));
            for (int i = 0; i < kinds.size(); i++) {
                delete.setString(i + 3, kinds.get(i));
            }
            deleted += delete.executeUpdate();
        }
        return deleted;
    }

    /** The event row at {@code seq}, or null. */
    public JournalReader.StoredEvent find(long seq) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT seq, kind, payload, appended_at FROM journal_event WHERE seq = ?")) {
            query.setLong(1, seq);
            List<JournalReader.StoredEvent> rows = rows(query);
            return rows.isEmpty() ? null : rows.get(0);
        }
    }

    private static List<JournalReader.StoredEvent> rows(PreparedStatement query) throws SQLException {
        List<JournalReader.StoredEvent> rows = new ArrayList<>();
        try (ResultSet result = query.executeQuery()) {
            while (result.next()) {
                rows.add(new JournalReader.StoredEvent(result.getLong(1), result.getString(2), result.getString(3), result.getDouble(4)));
            }
        }
        return rows;
    }

    /** Records quarantine markers (seq to reason), replacing earlier markers for the same seqs. */
    @Transactional(TxType.REQUIRES_NEW)
    public void quarantine(Map<Long, String> reasons, double now) {
        reasons.forEach((seq, reason) -> em.merge(new QuarantinedEventEntity(seq, reason, now)));
    }

    /** Quarantined seqs whose event rows are still in the log (the operator has not removed them yet). */
    public List<Long> quarantinedStillPresent() {
        return em.createNamedQuery(QuarantinedEventEntity.STILL_PRESENT, Long.class).getResultList();
    }

    /**
     * Undelivered outbox rows for one sender, in creation order. In a transaction, as every read made on
     * the hub's own pool threads: outside one, the container keeps the entity manager until the pool
     * thread ends and closes it then, and a thread ending after the persistence unit closed (a stop soon
     * after start) died on "a closed EntityManager".
     */
    @Transactional
    public List<OutboxEntity> pendingOutbox(String sender) {
        return em.createNamedQuery(OutboxEntity.PENDING_FOR_SENDER, OutboxEntity.class)
                .setParameter("sender", sender).getResultList();
    }

    /** Marks rows delivered (and counts the successful attempt); returns how many changed. */
    @Transactional(TxType.REQUIRES_NEW)
    public int markDelivered(List<String> notificationIds, double now) {
        return em.createNamedQuery(OutboxEntity.MARK_DELIVERED)
                .setParameter("now", now).setParameter("ids", notificationIds).executeUpdate();
    }

    /** Senders with undelivered outbox rows (read once when the journal opens). */
    @Transactional
    public List<String> pendingOutboxSenders() {
        return em.createNamedQuery(OutboxEntity.PENDING_SENDERS, String.class).getResultList();
    }

    /** Count of undelivered outbox rows (in a transaction, for the reason {@link #pendingOutbox} gives). */
    @Transactional
    public long pendingOutboxCount() {
        return em.createNamedQuery(OutboxEntity.PENDING_COUNT, Long.class).getSingleResult();
    }
}
