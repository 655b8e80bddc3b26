package org.switchboard.synapse.messageauth;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The durable replay store's tables. {@code synapse_message_auth_nonce_batch} (V6) holds the nonces a
 * hub's journal writes as side rows, one packed row per transaction ({@link NonceBatch},
 * {@link JournalNonceStore}); {@code synapse_message_auth_nonce} (V2) holds one row per nonce keyed by
 * {@link NonceRowKey}, expiry first, written by {@link #record} when no journal carries the nonces, and
 * by builds before V6: start-up reads and prunes both, so their rows still refuse replays after an
 * upgrade. A nonce is committed before {@link #record} returns, so it is on disk before the frame it
 * admits is handled.
 * Concurrent records are group-committed: the first caller to find no write in progress writes every
 * queued nonce in one transaction while the others wait for that commit (one connection and one
 * commit per group instead of per frame; issue 17 measured the per-frame commit as the largest
 * cost of a signed frame). A store that cannot write refuses the nonce (fail closed) rather than
 * admit a frame a restart would reopen.
 */
public final class JdbcNonceStore implements NonceStore {

    private static final Logger LOG = Logger.getLogger(JdbcNonceStore.class.getName());
    static final String INSERT = "INSERT INTO synapse_message_auth_nonce (nonce_id, expires_at) VALUES (?, ?)";

    private final DataSource dataSource;
    private final Object lock = new Object();
    private List<Pending> queue = new ArrayList<>();
    private boolean writing;
    private long groups;
    private long grouped;

    /** One nonce waiting for its group's commit. */
    private static final class Pending {
        final String id;
        final double expiresAt;
        boolean done;
        boolean stored;

        Pending(String id, double expiresAt) {
            this.id = id;
            this.expiresAt = expiresAt;
        }
    }

    /** A store on {@code dataSource}. */
    public JdbcNonceStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The live nonces of both tables (a packed row's nonces that expired before {@code now} are left out). */
    @Override
    public Map<String, Double> live(double now) {
        Map<String, Double> live = new HashMap<>();
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT nonce_id, expires_at FROM synapse_message_auth_nonce WHERE expires_at >= ?")) {
                select.setDouble(1, now);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        live.merge(NonceRowKey.identity(rows.getString(1)), rows.getDouble(2), Math::max);
                    }
                }
            }
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT nonces FROM synapse_message_auth_nonce_batch WHERE max_expires_at >= ?")) {
                select.setDouble(1, now);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        NonceBatch.decodeLive(rows.getBytes(1), now, live);
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the message-auth replay store", e);
        }
        return live;
    }

    @Override
    public boolean record(String id, double expiresAt) {
        Pending mine = new Pending(id, expiresAt);
        List<Pending> group;
        boolean interrupted = false;
        synchronized (lock) {
            queue.add(mine);
            while (writing && !mine.done) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    interrupted = true; // the nonce may be in the group being written: wait for its outcome
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (mine.done) {
                return mine.stored;
            }
            writing = true;
            group = queue;
            queue = new ArrayList<>();
        }
        try {
            write(group);
        } finally {
            synchronized (lock) {
                for (Pending p : group) {
                    p.done = true;
                }
                groups++;
                grouped += group.size();
                writing = false;
                lock.notifyAll();
            }
        }
        return mine.stored;
    }

    /** Nonces written and commits made so far ({@code [nonces, commits]}), for tests and benchmarks. */
    public long[] groupStatistics() {
        synchronized (lock) {
            return new long[] {grouped, groups};
        }
    }

    /** Writes {@code group} in one transaction; on any failure each nonce again on its own, so one duplicate refuses only itself. */
    private void write(List<Pending> group) {
        try (Connection c = dataSource.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            try {
                if (group.size() > 1) {
                    c.setAutoCommit(false);
                    if (insertAll(c, group)) {
                        return;
                    }
                    c.setAutoCommit(true);
                }
                for (Pending p : group) {
                    p.stored = insertOne(c, p);
                }
            } finally {
                c.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            LOG.warning("message-auth replay store unavailable (" + e.getSQLState() + "); refusing the nonces");
        }
    }

    private static boolean insertAll(Connection c, List<Pending> group) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement(INSERT)) {
            for (Pending p : group) {
                insert.setString(1, NonceRowKey.of(p.id, p.expiresAt));
                insert.setDouble(2, p.expiresAt);
                insert.addBatch();
            }
            insert.executeBatch();
            c.commit();
        } catch (SQLException e) {
            c.rollback(); // a replay that raced the cache, or a failed write: sorted out one by one
            return false;
        }
        for (Pending p : group) {
            p.stored = true;
        }
        return true;
    }

    private static boolean insertOne(Connection c, Pending p) {
        try (PreparedStatement insert = c.prepareStatement(INSERT)) {
            insert.setString(1, NonceRowKey.of(p.id, p.expiresAt));
            insert.setDouble(2, p.expiresAt);
            insert.executeUpdate();
            return true;
        } catch (SQLException e) {
            if (e.getSQLState() != null && e.getSQLState().startsWith("23")) {
                return false; // the id is stored: a replay
            }
            LOG.warning("message-auth replay store write failed (" + e.getSQLState() + "); refusing the nonce");
            return false;
        }
    }

    /**
     * The packed rows whose every nonce expired before {@code now}, and the expired key range of the
     * per-nonce table, both found through an index (rows of the bare-hash form wait for {@link #pruneAll}).
     */
    @Override
    public void prune(double now) {
        delete("DELETE FROM synapse_message_auth_nonce_batch WHERE max_expires_at < ?", null, now);
        delete("DELETE FROM synapse_message_auth_nonce WHERE nonce_id < ? AND expires_at < ?", NonceRowKey.prefix(now), now);
    }

    /** Every expired row of both tables: a scan of the per-nonce table, run once at start-up. */
    @Override
    public void pruneAll(double now) {
        delete("DELETE FROM synapse_message_auth_nonce_batch WHERE max_expires_at < ?", null, now);
        delete("DELETE FROM synapse_message_auth_nonce WHERE expires_at < ?", null, now);
    }

    private void delete(String sql, String below, double now) {
        try (Connection c = dataSource.getConnection(); PreparedStatement delete = c.prepareStatement(sql)) {
            int i = 1;
            if (below != null) {
                delete.setString(i++, below);
            }
            delete.setDouble(i, now);
            delete.executeUpdate();
        } catch (SQLException e) {
            LOG.warning("message-auth replay store prune failed (" + e.getSQLState() + ")");
        }
    }
}
