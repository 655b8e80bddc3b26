package org.switchboard.synapse.messageauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.switchboard.schema.H2Scripts;

/**
 * The durable replay store on in-memory H2 with the V2 and V6 tables: group commit, replays refused, prune,
 * nonces packed one row per journal transaction.
 */
class JdbcNonceStoreTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private static JdbcDataSource database() throws Exception {
        JdbcDataSource ds = H2Scripts.memory("nonce-store-" + DATABASES.incrementAndGet());
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            H2Scripts.apply(s, 2);
            H2Scripts.apply(s, 6);
        }
        return ds;
    }

    private static int rows(JdbcDataSource ds) throws Exception {
        return rows(ds, "synapse_message_auth_nonce");
    }

    private static int rows(JdbcDataSource ds, String table) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            r.next();
            return r.getInt(1);
        }
    }

    @Test
    void aNonceIsStoredOnceAndReadBackAfterARestart() throws Exception {
        JdbcDataSource ds = database();
        JdbcNonceStore store = new JdbcNonceStore(ds);
        assertTrue(store.record("a", 111));
        assertFalse(store.record("a", 111), "a stored id is a replay");
        assertTrue(store.record("old", 101));
        store.prune(105);
        assertEquals(java.util.Map.of("a", 111.0), new JdbcNonceStore(ds).live(105));
    }

    @Test
    void concurrentRecordsShareCommitsAndEveryOneIsDurable() throws Exception {
        JdbcDataSource ds = database();
        JdbcNonceStore store = new JdbcNonceStore(ds);
        int threads = 8;
        int each = 300;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            results.add(pool.submit(() -> {
                go.await();
                int stored = 0;
                for (int i = 0; i < each; i++) {
                    // every id twice from different threads: exactly one of the two may be stored
                    if (store.record("id-" + ((thread / 2) * each + i), 200)) {
                        stored++;
                    }
                }
                return stored;
            }));
        }
        go.countDown();
        int stored = 0;
        for (Future<Integer> f : results) {
            stored += f.get();
        }
        pool.shutdown();
        assertEquals(threads / 2 * each, stored, "each id admitted exactly once");
        assertEquals(threads / 2 * each, rows(ds), "each admitted id is in the table");
        long[] stats = store.groupStatistics();
        assertEquals(threads * each, stats[0]);
        assertTrue(stats[1] < stats[0], "concurrent nonces shared commits: " + stats[1] + " commits for " + stats[0]);
    }

    @Test
    void rowsAreKeyedExpiryFirstAndThePeriodicPruneKeepsLiveAndOldFormRows() throws Exception {
        JdbcDataSource ds = database();
        JdbcNonceStore store = new JdbcNonceStore(ds);
        String id = NonceCache.id("hmac", "k1", "team/alice", "n1");
        assertTrue(store.record(id, 200));
        assertTrue(store.record("expired", 150));
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            // a row of the bare-hash form (written before expiry-first keys), expired, sorting above every new key
            s.execute("INSERT INTO synapse_message_auth_nonce VALUES ('" + "f".repeat(64) + "', 120)");
            try (ResultSet r = s.executeQuery("SELECT nonce_id FROM synapse_message_auth_nonce WHERE expires_at = 200")) {
                r.next();
                assertEquals(NonceRowKey.of(id, 200), r.getString(1), "stored expiry first");
            }
        }
        store.prune(160);
        assertEquals(2, rows(ds), "the range prune took the expired new-form row only");
        store.pruneAll(160);
        assertEquals(java.util.Map.of(id, 200.0), store.live(160), "the start-up prune took the old-form row");
    }

    @Test
    void anOldFormRowStillRefusesItsNonceAfterAnUpgrade() throws Exception {
        JdbcDataSource ds = database();
        String fullHash = "0123456789abcdef".repeat(4);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO synapse_message_auth_nonce VALUES ('" + fullHash + "', 200)");
        }
        NonceCache restarted = new NonceCache(16, new JdbcNonceStore(ds), 150);
        assertEquals(NonceCache.Admission.REPLAYED, restarted.admit(fullHash.substring(0, NonceRowKey.MAX_ID_CHARS), 200, 150));
    }

    @Test
    void aStoreThatCannotWriteRefusesTheNonce() throws Exception {
        JdbcDataSource ds = database();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE synapse_message_auth_nonce");
        }
        assertFalse(new JdbcNonceStore(ds).record("a", 111), "fail closed");
    }

    @Test
    void aNonceCommittedAsAJournalSideRowIsReplayedAfterARestart() throws Exception {
        JdbcDataSource ds = database();
        JournalNonceStore.NonceRow row = new JournalNonceStore.NonceRow(NonceCache.id("hmac", "k1", "team/alice", "n1"), 200);
        try (Connection c = ds.getConnection();
             java.sql.PreparedStatement insert = c.prepareStatement(row.statement())) {
            row.bind(insert); // as the journal's batch insert writes it
            insert.executeUpdate();
        }
        NonceCache restarted = new NonceCache(16, new JdbcNonceStore(ds), 150);
        assertEquals(NonceCache.Admission.REPLAYED, restarted.admit(row.id(), 200, 150), "a restart reopened the nonce");
        assertEquals(1, rows(ds, "synapse_message_auth_nonce_batch"));
        assertEquals(0, rows(ds), "nothing in the per-nonce table");
    }

    /** Writes {@code rows} as the journal's side-row insert does: one JDBC batch bound by the first row. */
    private static void writeAsTheJournalDoes(JdbcDataSource ds, List<JournalNonceStore.NonceRow> rows) throws Exception {
        try (Connection c = ds.getConnection();
             java.sql.PreparedStatement insert = c.prepareStatement(rows.get(0).statement())) {
            rows.get(0).bindAll(insert, List.copyOf(rows));
            insert.executeBatch();
        }
    }

    @Test
    void aTransactionsNoncesArePackedIntoOneRowAndStartUpKeepsOnlyTheLiveOnes() throws Exception {
        JdbcDataSource ds = database();
        List<JournalNonceStore.NonceRow> commit = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            // half expire at 150, half at 200: the row lives until 200
            commit.add(new JournalNonceStore.NonceRow(NonceCache.id("hmac", "k1", "team/alice", "n" + i), i % 2 == 0 ? 150 : 200));
        }
        commit.add(new JournalNonceStore.NonceRow("not hex: ünïcode", 190)); // an identity of any other form
        writeAsTheJournalDoes(ds, commit);
        writeAsTheJournalDoes(ds, List.of(new JournalNonceStore.NonceRow(NonceCache.id("hmac", "k1", "team/bob", "x"), 140)));
        assertEquals(2, rows(ds, "synapse_message_auth_nonce_batch"), "one row per transaction");

        JdbcNonceStore store = new JdbcNonceStore(ds);
        java.util.Map<String, Double> expected = new java.util.HashMap<>();
        for (JournalNonceStore.NonceRow row : commit) {
            if (row.expiresAt() >= 160) {
                expected.put(row.id(), row.expiresAt());
            }
        }
        assertEquals(21, expected.size());
        assertEquals(expected, store.live(160), "the live nonces, exactly, of the rows not yet expired");

        store.prune(160);
        assertEquals(1, rows(ds, "synapse_message_auth_nonce_batch"), "the prune took the expired row, kept the live one");
        store.prune(200);
        assertEquals(1, rows(ds, "synapse_message_auth_nonce_batch"), "a row whose last nonce expires at 200 is live at 200");
        store.pruneAll(200.5);
        assertEquals(0, rows(ds, "synapse_message_auth_nonce_batch"));
    }

    @Test
    void aLargeTransactionSpreadsOverRowsOfBoundedSize() throws Exception {
        JdbcDataSource ds = database();
        List<JournalNonceStore.NonceRow> commit = new ArrayList<>();
        for (int i = 0; i < NonceBatch.MAX_PER_ROW * 2 + 1; i++) {
            commit.add(new JournalNonceStore.NonceRow(NonceCache.id("hmac", "k1", "team/alice", "n" + i), 200 + i));
        }
        writeAsTheJournalDoes(ds, commit);
        assertEquals(3, rows(ds, "synapse_message_auth_nonce_batch"));
        assertEquals(commit.size(), new JdbcNonceStore(ds).live(100).size());
        // each row's max expiry is its own last nonce's: the first row is pruned once its 256 nonces expired
        new JdbcNonceStore(ds).prune(200 + NonceBatch.MAX_PER_ROW);
        assertEquals(2, rows(ds, "synapse_message_auth_nonce_batch"));
        assertEquals(commit.size() - NonceBatch.MAX_PER_ROW, new JdbcNonceStore(ds).live(200 + NonceBatch.MAX_PER_ROW).size());
    }

    @Test
    void anIdentityTooLongForTheRowIsRefusedOnTheFramesThread() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new JournalNonceStore.NonceRow("x".repeat(NonceBatch.MAX_ID_BYTES + 1), 200));
    }

    @Test
    void startUpReadsThePerNonceTableOfAnEarlierBuildAndThePackedTableTogether() throws Exception {
        JdbcDataSource ds = database();
        String before = NonceCache.id("hmac", "k1", "team/alice", "before-upgrade");
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO synapse_message_auth_nonce VALUES ('" + NonceRowKey.of(before, 200) + "', 200)");
        }
        String after = NonceCache.id("hmac", "k1", "team/alice", "after-upgrade");
        writeAsTheJournalDoes(ds, List.of(new JournalNonceStore.NonceRow(after, 210)));
        NonceCache restarted = new NonceCache(16, new JdbcNonceStore(ds), 150);
        assertEquals(NonceCache.Admission.REPLAYED, restarted.admit(before, 200, 150), "the earlier build's nonce reopened");
        assertEquals(NonceCache.Admission.REPLAYED, restarted.admit(after, 210, 150), "the packed nonce reopened");
        assertEquals(NonceCache.Admission.ADMITTED, restarted.admit(NonceCache.id("hmac", "k1", "team/alice", "new"), 210, 150));
    }
}
