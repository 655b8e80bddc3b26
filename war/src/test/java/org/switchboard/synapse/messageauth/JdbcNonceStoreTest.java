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

/** The durable replay store on in-memory H2 with the V2 table: group commit, replays refused, prune. */
class JdbcNonceStoreTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private static JdbcDataSource database() throws Exception {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:nonce-store-" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
        String script = new String(JdbcNonceStoreTest.class.getResourceAsStream(
                "/db/migration/h2/V2__message_auth_nonces.sql").readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute(script);
        }
        return ds;
    }

    private static int rows(JdbcDataSource ds) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT COUNT(*) FROM synapse_message_auth_nonce")) {
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
        assertEquals(1, rows(ds));
    }
}
