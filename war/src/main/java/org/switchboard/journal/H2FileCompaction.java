package org.switchboard.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVStore;
import org.h2.tools.SimpleResultSet;
import org.switchboard.container.H2ChunkMap;
import org.switchboard.container.H2ChunkRewrite;

/**
 * Rewrites the sparse chunks of the embedded H2 file. Every commit writes a new chunk, and a chunk that
 * still holds one live page (an append-only journal leaf) is never freed; H2 compacts such chunks only
 * in its background writer, which runs only when commits are delayed ({@code WRITE_DELAY > 0}), and
 * durability rules that out. Without this the chunk table grows by one entry per commit, in the file
 * and in the heap (about 230 bytes each: ~0.35 MB a minute in the 30-minute soak).
 *
 * <p>The work needs H2's own connection. A pool that unwraps its proxy to H2's connection (JDBC's
 * {@code unwrap}; Payara's and WildFly's do) gives it directly. Otherwise the work runs inside H2, as a
 * Java function H2 calls with its own session's connection ({@link #ALIAS}); H2 then loads this class
 * by name, which fails where H2 cannot see the application's classes (WildFly's H2 module after a
 * restart), so the direct way comes first. Compiled against H2's classes, which only an H2 database
 * loads: nothing here is touched on PostgreSQL.
 */
public final class H2FileCompaction {

    private static final Logger LOG = Logger.getLogger(H2FileCompaction.class.getName());

    /** The H2 function that runs {@link #compactInSession}; created once per database, kept in its schema. */
    static final String ALIAS = "SWITCHBOARD_COMPACT_FILE";
    /** The H2 function that runs {@link #chunksInSession}: the file's chunk count and version, from the store. */
    static final String COUNT_ALIAS = "SWITCHBOARD_FILE_CHUNKS";

    private H2FileCompaction() {
    }

    /** Declares {@link #ALIAS} in the database on {@code connection} (idempotent). */
    static void declare(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE ALIAS IF NOT EXISTS " + ALIAS + " FOR \"" + H2FileCompaction.class.getName()
                    + ".compactInSession\"");
            statement.execute("CREATE ALIAS IF NOT EXISTS " + COUNT_ALIAS + " FOR \"" + H2FileCompaction.class.getName()
                    + ".chunksInSession\"");
        }
    }

    /**
     * The file on {@code connection} now, read from H2's store directly (after {@link #declare}); null
     * when it is not an embedded file. Cheap: no SQL metadata table is built.
     */
    static FileState state(Connection connection) throws SQLException {
        JdbcConnection own = ownConnection(connection);
        if (own != null) {
            MVStore store = fileStore(own);
            return store == null ? null : new FileState(chunkCount(store), store.getCurrentVersion(), store.getRetentionTime());
        }
        try (PreparedStatement call = connection.prepareStatement("CALL " + COUNT_ALIAS + "()");
                ResultSet result = call.executeQuery()) {
            if (!result.next() || result.getInt(1) < 0) {
                return null;
            }
            return new FileState(result.getInt(1), result.getLong(2), result.getInt(3));
        }
    }

    /** The chunks in the file on {@code connection} now (after {@link #declare}); -1 when not an embedded file. */
    static int chunks(Connection connection) throws SQLException {
        FileState state = state(connection);
        return state == null ? -1 : state.chunks();
    }

    /**
     * One look at an H2 file: its chunks, its store version (one more per commit that wrote a chunk), and
     * how long H2 keeps a chunk that no page uses any more before freeing it.
     */
    public record FileState(int chunks, long version, int retentionMillis) {
    }

    /**
     * Rewrites the live pages of chunks filled below {@code targetFillRate} percent, at most
     * {@code maxWriteBytes} per call, then frees the chunks nothing points to any more (those older than
     * H2's retention time). Returns the number of chunks in the file afterwards.
     */
    static int compact(Connection connection, int targetFillRate, int maxWriteBytes) throws SQLException {
        JdbcConnection own = ownConnection(connection);
        if (own != null) {
            return compactInSession(own, targetFillRate, maxWriteBytes);
        }
        try (PreparedStatement call = connection.prepareStatement("CALL " + ALIAS + "(?, ?)")) {
            call.setInt(1, targetFillRate);
            call.setInt(2, maxWriteBytes);
            try (ResultSet result = call.executeQuery()) {
                return result.next() ? result.getInt(1) : -1;
            }
        }
    }

    /**
     * Called by H2 for {@link #ALIAS}, with the calling session's own connection first: compacts that
     * session's database file; -1 when it is not an embedded file this process owns.
     */
    public static int compactInSession(Connection session, int targetFillRate, int maxWriteBytes) throws SQLException {
        MVStore store = fileStore(session);
        if (store == null) {
            return -1;
        }
        if (!rewriteBesideCommits(store, targetFillRate, maxWriteBytes)) {
            store.compact(targetFillRate, maxWriteBytes);
        }
        // Every commit frees the chunks nothing needs any more; this frees them when no commit follows. H2 does
        // it under its store lock, and so does this (an H2 without the members leaves it to the next commit).
        H2ChunkRewrite.dropUnusedChunks(store, store.getFileStore());
        return chunkCount(store);
    }

    /** Set once the direct rewrite failed or is missing: H2's public compaction from then on. */
    private static volatile boolean rewriteOff;
    /** Whether the first run has said which way it compacts (once per copy of this class). */
    private static final AtomicBoolean REWRITE_REPORTED = new AtomicBoolean();

    /**
     * Rewrites chunks filled at most {@code targetFillRate} percent beside the commits ({@link H2ChunkRewrite});
     * false when that is not possible here, so H2's own compaction runs.
     */
    private static boolean rewriteBesideCommits(MVStore store, int targetFillRate, int maxWriteBytes) {
        if (rewriteOff) {
            return false;
        }
        H2ChunkRewrite.Result result = H2ChunkRewrite.rewriteOldChunks(store, store.getFileStore(), maxWriteBytes, targetFillRate);
        if (result != H2ChunkRewrite.Result.UNAVAILABLE) {
            logOnce(REWRITE_REPORTED, Level.INFO, "journal: the H2 file's sparse chunks are compacted beside the commits (their pages rewritten without H2's store lock)");
            return true;
        }
        rewriteOff = true;
        String why = H2ChunkRewrite.available() ? "the direct rewrite failed: " + H2ChunkRewrite.lastFailure() : "this H2 lacks the members";
        String how = "journal: the H2 file's sparse chunks are compacted through H2's compact, which chooses them under its store lock ("
                + why + ")";
        // a failure after the direct way was reported is news: say it whatever was said before
        if (!logOnce(REWRITE_REPORTED, Level.INFO, how)) {
            LOG.warning(how + " from now on");
        }
        return false;
    }

    /** Logs {@code message} if {@code said} was not set yet, and sets it; false when it was already set. */
    private static boolean logOnce(AtomicBoolean said, Level level, String message) {
        if (!said.compareAndSet(false, true)) {
            return false;
        }
        LOG.log(level, message);
        return true;
    }

    /**
     * Called by H2 for {@link #COUNT_ALIAS}: one row (CHUNKS, VERSION, RETENTION_MS) of the calling
     * session's file; CHUNKS is -1 when there is none.
     */
    public static ResultSet chunksInSession(Connection session) throws SQLException {
        SimpleResultSet row = new SimpleResultSet();
        row.addColumn("CHUNKS", Types.INTEGER, 10, 0);
        row.addColumn("VERSION", Types.BIGINT, 19, 0);
        row.addColumn("RETENTION_MS", Types.INTEGER, 10, 0);
        MVStore store = fileStore(session);
        if (store == null) {
            row.addRow(-1, -1L, 0);
        } else {
            row.addRow(chunkCount(store), store.getCurrentVersion(), store.getRetentionTime());
        }
        return row;
    }

    /**
     * Whether {@link #state} and {@link #compact} reach H2's connection behind {@code connection} directly,
     * so the functions of {@link #declare} are not needed.
     */
    static boolean direct(Connection connection) {
        return ownConnection(connection) != null;
    }

    /** H2's own connection behind a pool's proxy (or the connection itself), null when the pool does not unwrap. */
    private static JdbcConnection ownConnection(Connection connection) {
        if (connection instanceof JdbcConnection h2) {
            return h2;
        }
        try {
            return connection.isWrapperFor(JdbcConnection.class) ? connection.unwrap(JdbcConnection.class) : null;
        } catch (SQLException | RuntimeException | AbstractMethodError e) {
            return null; // a pool without unwrap support: the function aliases remain
        }
    }

    /** The open, writable file store behind an H2 session's connection, or null. */
    private static MVStore fileStore(Connection session) {
        if (!(session instanceof JdbcConnection h2) || !(h2.getSession() instanceof SessionLocal local)
                || local.getDatabase().getStore() == null) {
            return null;
        }
        MVStore store = local.getDatabase().getStore().getMvStore();
        return store.isClosed() || store.isReadOnly() || store.getFileStore() == null ? null : store;
    }

    /** Whether the first count has said how it was taken (once per copy of this class). */
    private static final AtomicBoolean COUNT_REPORTED = new AtomicBoolean();

    /** The chunks of a store: the size of H2's chunk map when it can be read, else H2's {@code info.CHUNK_COUNT}; -1 when H2 does not say. */
    private static int chunkCount(MVStore store) {
        // populateInfo, H2's public figure, sums every chunk's pages and fill rates as well: with ~35,000
        // chunks, a count every 250 ms was ~2.5% of a busy hub's CPU samples (benchmarks-log, 2026-12-04)
        int direct = H2ChunkMap.size(store.getFileStore());
        if (direct >= 0) {
            reportCount("from the size of H2's chunk map");
            return direct;
        }
        reportCount(H2ChunkMap.available() ? "through H2's info, which walks every chunk (the map could not be read)"
                : "through H2's info, which walks every chunk (this H2 has no chunk map)");
        int[] count = {-1};
        store.getFileStore().populateInfo((key, value) -> {
            if ("info.CHUNK_COUNT".equals(key)) {
                count[0] = Integer.parseInt(value);
            }
        });
        return count[0];
    }

    private static void reportCount(String how) {
        logOnce(COUNT_REPORTED, Level.INFO, "journal: the H2 file's chunks are counted " + how);
    }

    /** Chunks in the file now (H2's own {@code info.CHUNK_COUNT}), -1 when H2 does not say. */
    static int chunkCount(Connection connection) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'info.CHUNK_COUNT'");
                ResultSet row = query.executeQuery()) {
            return row.next() ? Integer.parseInt(row.getString(1)) : -1;
        }
    }
}
