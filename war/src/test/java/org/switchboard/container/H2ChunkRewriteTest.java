package org.switchboard.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.journal.SparseH2File;

class H2ChunkRewriteTest {

    private static final int COMMITS = 2000;

    @TempDir
    Path dir;

    private static MVStore store(Connection c) {
        return ((SessionLocal) ((JdbcConnection) c).getSession()).getDatabase().getStore().getMvStore();
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
    void aCommitHoldingTheStoreLockMakesTheRunGiveWayInsteadOfWaiting() throws Exception {
        try (Connection c = SparseH2File.open(dir, "busy", COMMITS)) {
            MVStore store = store(c);
            int before = H2ChunkMap.size(store.getFileStore());
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            // H2's own file operations run under the store lock, as a commit does
            Thread holder = new Thread(() -> store.executeFilestoreOperation(() -> {
                held.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            holder.start();
            try {
                assertTrue(held.await(10, TimeUnit.SECONDS));
                long started = System.nanoTime();
                assertEquals(H2ChunkRewrite.Result.STORE_BUSY, H2ChunkRewrite.rewriteOldChunks(store, store.getFileStore(), 64 << 20, 80));
                assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(5), "gave way after a short wait");
            } finally {
                release.countDown();
                holder.join();
            }
            assertTrue(H2ChunkMap.size(store.getFileStore()) >= before, "nothing was rewritten while the lock was held");
            assertEquals(H2ChunkRewrite.Result.REWROTE, H2ChunkRewrite.rewriteOldChunks(store, store.getFileStore(), 64 << 20, 80),
                    "the next run goes ahead");
        }
    }

    @Test
    void noStoreMeansUnavailable() {
        assertEquals(H2ChunkRewrite.Result.UNAVAILABLE, H2ChunkRewrite.rewriteOldChunks(null, null, 1 << 20, 80));
    }
}
