package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class H2FileCompactionTest {

    private static final int COMMITS = 3000;

    @TempDir
    Path dir;

    /** An append-only table committed row by row, as the journal writes with WRITE_DELAY 0. */
    private Connection appendRows(String name) throws Exception {
        return SparseH2File.open(dir, name, COMMITS);
    }

    private static void commit(Connection c, long from, long to) throws Exception {
        SparseH2File.commit(c, from, to);
    }

    @Test
    void everyCommitLeavesAChunkBehindUntilTheFileIsCompacted() throws Exception {
        try (Connection c = appendRows("compacted")) {
            int before = H2FileCompaction.chunkCount(c);
            assertTrue(before >= COMMITS / 3, "chunks pile up before compaction, found " + before);
            assertEquals(before, H2FileCompaction.chunks(c), "the count from H2's chunk map agrees with its settings table");
            System.out.println("H2FileCompactionTest: " + before + " chunks after " + COMMITS + " commits");
            H2FileCompaction.declare(c);

            H2FileCompaction.compact(c, 80, 64 << 20);
            commit(c, COMMITS + 1, COMMITS + 3); // the chunks compaction emptied are dropped as the next commits land
            int after = H2FileCompaction.compact(c, 80, 64 << 20);

            assertEquals(after, H2FileCompaction.chunkCount(c));
            assertEquals(after, H2FileCompaction.chunks(c), "the store's own count agrees with H2's settings table");
            System.out.println("H2FileCompactionTest: " + after + " chunks after compaction");
            assertTrue(after < before / 10, "compaction left " + after + " of " + before + " chunks");
            SparseH2File.assertRowsKept(c, COMMITS + 3);
        }
    }

    @Test
    void theH2PayaraShipsLetsTheChunksBeCountedWithoutWalkingThem() {
        // H2 2.2.224 (Payara's) keeps them in FileStore.chunks; a later layout falls back to populateInfo
        assertTrue(org.switchboard.container.H2ChunkMap.available(), "FileStore.chunks not readable in this H2");
    }

    @Test
    void withoutCompactionTheChunksStayAsCommitsGoOn() throws Exception {
        try (Connection c = appendRows("left")) {
            int before = H2FileCompaction.chunkCount(c);
            try (Statement s = c.createStatement()) {
                s.execute("CHECKPOINT SYNC"); // what the journal's periodic sync runs: it compacts nothing
            }
            commit(c, COMMITS + 1, COMMITS + 3);
            assertTrue(before >= COMMITS / 3 && H2FileCompaction.chunkCount(c) >= before * 9 / 10, "chunks stay without compaction");
        }
    }

    /**
     * A pool's proxy of {@code target}: forwards every call; {@code unwraps} says whether it hands out the
     * connection behind it (JDBC's unwrap) or, like a pool without that support, refuses.
     */
    private static Connection pooled(Connection target, boolean unwraps) {
        return (Connection) java.lang.reflect.Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "isWrapperFor":
                            return unwraps && ((Class<?>) args[0]).isInstance(target);
                        case "unwrap":
                            if (!unwraps) {
                                throw new java.sql.SQLException("not a wrapper");
                            }
                            return target;
                        default:
                            try {
                                return method.invoke(target, args);
                            } catch (java.lang.reflect.InvocationTargetException e) {
                                throw e.getCause();
                            }
                    }
                });
    }

    private static boolean aliasDeclared(Connection c) throws Exception {
        try (ResultSet row = c.createStatement().executeQuery(
                "SELECT COUNT(*) FROM INFORMATION_SCHEMA.ROUTINES WHERE ROUTINE_NAME = '" + H2FileCompaction.ALIAS + "'")) {
            row.next();
            return row.getInt(1) > 0;
        }
    }

    @Test
    void aPoolThatUnwrapsIsCompactedDirectlyWithoutTheFunctionsH2LoadsByName() throws Exception {
        try (Connection c = appendRows("unwrapped")) {
            Connection proxy = pooled(c, true);
            assertTrue(H2FileCompaction.direct(proxy));
            int before = H2FileCompaction.state(proxy).chunks();

            H2FileCompaction.compact(proxy, 80, 64 << 20);
            commit(c, COMMITS + 1, COMMITS + 3);
            int after = H2FileCompaction.compact(proxy, 80, 64 << 20);

            assertTrue(after < before / 10, "compaction left " + after + " of " + before + " chunks");
            assertEquals(after, H2FileCompaction.chunkCount(c));
            assertFalse(aliasDeclared(c), "no function for H2 to load by name (WildFly's H2 module cannot after a restart)");
        }
    }

    @Test
    void aPoolThatDoesNotUnwrapGoesThroughTheFunctions() throws Exception {
        try (Connection c = appendRows("aliased")) {
            Connection proxy = pooled(c, false);
            assertFalse(H2FileCompaction.direct(proxy));
            H2FileCompaction.declare(proxy);
            int before = H2FileCompaction.state(proxy).chunks();

            H2FileCompaction.compact(proxy, 80, 64 << 20);
            commit(c, COMMITS + 1, COMMITS + 3);
            int after = H2FileCompaction.compact(proxy, 80, 64 << 20);

            assertTrue(aliasDeclared(c));
            assertTrue(after < before / 10, "compaction left " + after + " of " + before + " chunks");
            assertEquals(after, H2FileCompaction.chunkCount(c));
        }
    }
}
