package org.switchboard.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVStore;

/**
 * Rewrites the sparse chunks of the embedded H2 file. Every commit writes a new chunk, and a chunk that
 * still holds one live page (an append-only journal leaf) is never freed; H2 compacts such chunks only
 * in its background writer, which runs only when commits are delayed ({@code WRITE_DELAY > 0}), and
 * durability rules that out. Without this the chunk table grows by one entry per commit, in the file
 * and in the heap (about 230 bytes each: ~0.35 MB a minute in the 30-minute soak).
 *
 * <p>The work runs inside H2, as a Java function H2 calls with its own session's connection
 * ({@link #ALIAS}): the connection pool only hands out proxies, never H2's connection itself. H2 finds
 * this class through the calling thread's context class loader (the application's). Compiled against
 * H2's classes, which only an H2 database loads: nothing here is touched on PostgreSQL.
 */
public final class H2FileCompaction {

    /** The H2 function that runs {@link #compactInSession}; created once per database, kept in its schema. */
    static final String ALIAS = "SWITCHBOARD_COMPACT_FILE";

    private H2FileCompaction() {
    }

    /** Declares {@link #ALIAS} in the database on {@code connection} (idempotent). */
    static void declare(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE ALIAS IF NOT EXISTS " + ALIAS + " FOR \"" + H2FileCompaction.class.getName()
                    + ".compactInSession\"");
        }
    }

    /**
     * Rewrites the live pages of chunks filled below {@code targetFillRate} percent, at most
     * {@code maxWriteBytes} per call, then frees the chunks nothing points to any more (those older than
     * H2's retention time). Returns the number of chunks in the file afterwards.
     */
    static int compact(Connection connection, int targetFillRate, int maxWriteBytes) throws SQLException {
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
        if (!(session instanceof JdbcConnection h2) || !(h2.getSession() instanceof SessionLocal local)
                || local.getDatabase().getStore() == null) {
            return -1;
        }
        MVStore store = local.getDatabase().getStore().getMvStore();
        if (store.isClosed() || store.isReadOnly() || store.getFileStore() == null) {
            return -1;
        }
        store.compact(targetFillRate, maxWriteBytes);
        store.getFileStore().dropUnusedChunks();
        return chunkCount(session);
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
