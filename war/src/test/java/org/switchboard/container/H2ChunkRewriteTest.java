package org.switchboard.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.journal.SparseH2File;

/** The H2 file compaction beside commits: chunks freed, rows kept, commits neither waited for nor stopping it. */
class H2ChunkRewriteTest {

    private static final int COMMITS = 2000;

    @TempDir
    Path dir;

    private static MVStore store(Connection c) {
        return ((SessionLocal) ((JdbcConnection) c).getSession()).getDatabase().getStore().getMvStore();
    }

    private static java.util.concurrent.locks.ReentrantLock storeLock(MVStore store) throws ReflectiveOperationException {
        java.lang.reflect.Field field = MVStore.class.getDeclaredField("storeLock");
        field.setAccessible(true);
        return (java.util.concurrent.locks.ReentrantLock) field.get(store);
    }

    @Test
    void theH2PayaraShipsHasEveryMemberTheRewriteUses() {
        // H2 2.2.224 (Payara's); a later layout answers UNAVAILABLE and the journal takes H2's public compact
        assertTrue(H2ChunkRewrite.available(), "H2's FileStore/MVStore members not found in this H2");
    }

    @Test
    void sparseChunksAreRewrittenAndFreedWithEveryRowKept() throws Exception {
        try (Connection c = SparseH2File.open(dir, "sparse", COMMITS)) {
            MVStore store = store(c);
            int before = H2ChunkMap.size(store.getFileStore());
            assertTrue(before >= COMMITS / 3, "chunks pile up before compaction, found " + before);

            assertEquals(H2ChunkRewrite.Result.REWROTE, H2ChunkRewrite.rewriteOldChunks(store, store.getFileStore(), 64 << 20, 80));
            SparseH2File.commit(c, COMMITS + 1, COMMITS + 3); // the next commits write the rewritten pages and drop the emptied chunks
            store.getFileStore().dropUnusedChunks();
            int after = H2ChunkMap.size(store.getFileStore());

            assertTrue(after < before / 10, "the rewrite left " + after + " of " + before + " chunks");
            SparseH2File.assertRowsKept(c, COMMITS + 3);
        }
    }

    @Test
    void chunksFilledAboveTheLimitAreLeftAlone() throws Exception {
        try (Connection c = SparseH2File.open(dir, "full", COMMITS)) {
            MVStore store = store(c);
            int before = H2ChunkMap.size(store.getFileStore());

            // no live chunk is filled 0% or less
            assertEquals(H2ChunkRewrite.Result.NOTHING_TO_REWRITE, H2ChunkRewrite.rewriteOldChunks(store, store.getFileStore(), 64 << 20, 0));
            SparseH2File.commit(c, COMMITS + 1, COMMITS + 3);

            assertTrue(H2ChunkMap.size(store.getFileStore()) >= before, "nothing was compacted");
        }
    }

    @Test
    void aCommitHoldingTheStoreLockNeitherStopsTheRewriteNorIsWaitedFor() throws Exception {
        try (Connection c = SparseH2File.open(dir, "busy", COMMITS)) {
            MVStore store = store(c);
            int before = H2ChunkMap.size(store.getFileStore());
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            // a commit holds H2's store lock throughout, and its serialisation lock only while it writes the chunk
            java.util.concurrent.locks.ReentrantLock storeLock = storeLock(store);
            Thread holder = new Thread(() -> {
                storeLock.lock();
                try {
                    held.countDown();
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    storeLock.unlock();
                }
            });
            holder.start();
            try {
                assertTrue(held.await(10, TimeUnit.SECONDS));
                long started = System.nanoTime();
                // a small run: one that leaves more unsaved pages than H2 allows any writer (~1 MB in this test's
                // JVM, 19 MB in the hub's) commits them itself, and so waits for the lock as a writer would
                assertEquals(H2ChunkRewrite.Result.REWROTE, H2ChunkRewrite.rewriteOldChunks(store, store.getFileStore(), 64 << 10, 80),
                        "the tables' pages are rewritten beside the commit");
                assertFalse(H2ChunkRewrite.dropUnusedChunks(store, store.getFileStore()), "freeing chunks gives way to the commit");
                assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(5), "neither waited for the commit");
            } finally {
                release.countDown();
                holder.join();
            }
            SparseH2File.commit(c, COMMITS + 1, COMMITS + 3);
            assertEquals(H2ChunkRewrite.Result.REWROTE, H2ChunkRewrite.rewriteOldChunks(store, store.getFileStore(), 64 << 20, 80));
            SparseH2File.commit(c, COMMITS + 4, COMMITS + 6);
            assertTrue(H2ChunkRewrite.dropUnusedChunks(store, store.getFileStore()), "with the lock free, chunks are freed");
            int after = H2ChunkMap.size(store.getFileStore());
            assertTrue(after < before / 10, "the rewrite left " + after + " of " + before + " chunks");
            SparseH2File.assertRowsKept(c, COMMITS + 6);
        }
    }

    @Test
    void writersCommittingDuringTheRewritesLoseNothingInMemoryOrOnDisk() throws Exception {
        int writers = 2;
        int perWriter = 3000;
        long rows = COMMITS + (long) writers * perWriter;
        try (Connection c = SparseH2File.openRetaining(dir, "race", COMMITS, RETENTION_MILLIS)) {
            MVStore store = store(c);
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE state(id INT PRIMARY KEY, version BIGINT, payload VARCHAR(400))");
                s.execute("INSERT INTO state SELECT X, 0, REPEAT('s', 400) FROM SYSTEM_RANGE(0, " + (STATE_ROWS - 1) + ")");
            }
            c.commit();
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicInteger rewroteWhileWriting = new AtomicInteger();
            AtomicReference<String> failedRun = new AtomicReference<>();
            Thread compactor = new Thread(() -> {
                while (writing.get()) {
                    H2ChunkRewrite.Result result = H2ChunkRewrite.rewriteOldChunks(store, store.getFileStore(), 256 << 10, 80);
                    if (result == H2ChunkRewrite.Result.REWROTE) {
                        rewroteWhileWriting.incrementAndGet();
                    } else if (result == H2ChunkRewrite.Result.UNAVAILABLE) {
                        failedRun.set(H2ChunkRewrite.lastFailure());
                    }
                    H2ChunkRewrite.dropUnusedChunks(store, store.getFileStore());
                }
            });
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            List<Thread> threads = new ArrayList<>();
            String url = c.getMetaData().getURL();
            for (int w = 0; w < writers; w++) {
                long firstSeq = COMMITS + 1 + (long) w * perWriter;
                int firstState = w * (STATE_ROWS / writers);
                threads.add(new Thread(() -> write(url, firstSeq, perWriter, firstState, STATE_ROWS / writers, failures)));
            }
            compactor.start();
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            writing.set(false);
            compactor.join();

            assertTrue(failures.isEmpty(), "writers failed: " + failures);
            assertNull(failedRun.get(), "a rewrite failed");
            assertTrue(rewroteWhileWriting.get() > 0, "the compaction rewrote while the writers committed");
            SparseH2File.assertRowsKept(c, rows);
            assertStateKept(c, writers, perWriter);

            // once the chunks outlived the retention time, the rewrites free them
            int before = H2ChunkMap.size(store.getFileStore());
            Thread.sleep(RETENTION_MILLIS + 200);
            for (int i = 0; i < 20 && H2ChunkRewrite.rewriteOldChunks(store, store.getFileStore(), 64 << 20, 80) == H2ChunkRewrite.Result.REWROTE; i++) {
                SparseH2File.commit(c, rows + 1, rows + 1);
                rows++;
            }
            Thread.sleep(RETENTION_MILLIS + 200);
            SparseH2File.commit(c, rows + 1, rows + 1);
            rows++;
            assertTrue(H2ChunkRewrite.dropUnusedChunks(store, store.getFileStore()));
            int after = H2ChunkMap.size(store.getFileStore());
            assertTrue(after < before / 5, "the rewrite left " + after + " of " + before + " chunks");
            SparseH2File.assertRowsKept(c, rows);
        }
        // the file as written: reopened from disk, every row and every last update is there
        try (Connection reopened = DriverManager.getConnection("jdbc:h2:file:" + dir.resolve("race"), "sa", "")) {
            SparseH2File.assertRowsKept(reopened, rows);
            assertStateKept(reopened, writers, perWriter);
        }
    }

    /** A chunk nothing uses is freed after this long (H2's 45 s in the hub; long enough here for a map walk). */
    private static final int RETENTION_MILLIS = 1000;
    /** Rows of the updated table, split evenly between the writers. */
    private static final int STATE_ROWS = 1000;

    /**
     * Commits {@code count} times on its own connection: one journal row from {@code firstSeq} on, and an update of
     * one of its {@code span} state rows from {@code firstState} on, in turn, to version i + 1.
     */
    private static void write(String url, long firstSeq, int count, int firstState, int span, List<Throwable> failures) {
        try (Connection own = DriverManager.getConnection(url, "sa", "")) {
            own.setAutoCommit(false);
            try (PreparedStatement insert = own.prepareStatement("INSERT INTO journal VALUES (?, ?)");
                    PreparedStatement update = own.prepareStatement("UPDATE state SET version = ?, payload = ? WHERE id = ?")) {
                String payload = "p".repeat(SparseH2File.PAYLOAD);
                for (int i = 0; i < count; i++) {
                    insert.setLong(1, firstSeq + i);
                    insert.setString(2, payload);
                    insert.executeUpdate();
                    update.setLong(1, i + 1);
                    update.setString(2, statePayload(i + 1));
                    update.setInt(3, firstState + i % span);
                    update.executeUpdate();
                    own.commit();
                }
            }
        } catch (Throwable e) {
            failures.add(e);
        }
    }

    private static String statePayload(long version) {
        return ("v" + version).repeat(400).substring(0, 400);
    }

    /** Every state row holds the last update its writer committed: the largest i + 1 with i % span == its slot. */
    private static void assertStateKept(Connection c, int writers, int perWriter) throws Exception {
        int span = STATE_ROWS / writers;
        try (ResultSet row = c.createStatement().executeQuery("SELECT id, version, payload FROM state ORDER BY id")) {
            int seen = 0;
            while (row.next()) {
                int slot = row.getInt(1) % span;
                long last = slot + (long) ((perWriter - 1 - slot) / span) * span + 1;
                assertEquals(last, row.getLong(2), "state row " + row.getInt(1));
                assertEquals(statePayload(last), row.getString(3), "state row " + row.getInt(1));
                seen++;
            }
            assertEquals(STATE_ROWS, seen);
        }
    }

    @Test
    void noStoreMeansUnavailable() {
        assertEquals(H2ChunkRewrite.Result.UNAVAILABLE, H2ChunkRewrite.rewriteOldChunks(null, null, 1 << 20, 80));
    }
}
