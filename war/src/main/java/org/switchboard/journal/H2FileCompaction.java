package org.switchboard.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.jdbc.JdbcConnectionBackwardsCompat;
import org.h2.mvstore.MVStore;

/**
 * Rewrites the sparse chunks of the embedded H2 file. Every commit writes a new chunk, and a chunk that
 * still holds one live page (an append-only journal leaf) is never freed; H2 compacts such chunks only
 * in its background writer, which runs only when commits are delayed ({@code WRITE_DELAY > 0}), and
 * durability rules that out. Without this the chunk table grows by one entry per commit, in the file
 * and in the heap (about 230 bytes each: ~0.4 MB a minute in the 30-minute soak).
 *
 * <p>Compiled against H2's classes, which only an H2 data source loads: callers check
 * {@link #isAvailable()} first, so nothing here is touched on PostgreSQL.
 */
final class H2FileCompaction {

    /**
     * An interface only H2's connection implements: pools unwrap to interfaces only (Payara refuses a
     * class with "is not an interface"), and this one is the physical {@link JdbcConnection}.
     */
    private static final Class<JdbcConnectionBackwardsCompat> H2_INTERFACE = JdbcConnectionBackwardsCompat.class;

    private H2FileCompaction() {
    }

    /** Whether H2's classes are visible to this application at all. */
    static boolean isAvailable() {
        try {
            Class.forName("org.h2.jdbc.JdbcConnection", false, H2FileCompaction.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Whether {@code connection} (a pool's handle) is an embedded H2 connection this class can reach. */
    static boolean applies(Connection connection) throws SQLException {
        return connection.isWrapperFor(H2_INTERFACE) && store(connection) != null;
    }

    /**
     * Rewrites the live pages of chunks filled below {@code targetFillRate} percent, at most
     * {@code maxWriteBytes} per call, then frees the chunks nothing points to any more (those older than
     * H2's retention time). Returns the number of chunks in the file afterwards.
     */
    static int compact(Connection connection, int targetFillRate, int maxWriteBytes) throws SQLException {
        MVStore store = store(connection);
        if (store == null || store.isClosed() || store.isReadOnly()) {
            return -1;
        }
        store.compact(targetFillRate, maxWriteBytes);
        store.getFileStore().dropUnusedChunks();
        return chunkCount(connection);
    }

    /** Which H2 classes this application sees and what the pool's connection unwraps to (a diagnostic). */
    static String describe(Connection connection) {
        StringBuilder out = new StringBuilder("our H2 loader ").append(JdbcConnection.class.getClassLoader());
        try {
            out.append("; wrapper for H2: ").append(connection.isWrapperFor(H2_INTERFACE));
            Object inner = connection.unwrap(H2_INTERFACE);
            out.append("; unwraps to ").append(inner.getClass().getName()).append(" from ").append(inner.getClass().getClassLoader());
            if (inner instanceof JdbcConnection h2) {
                out.append("; session ").append(h2.getSession().getClass().getName());
            }
        } catch (SQLException | RuntimeException e) {
            out.append("; ").append(e);
        }
        return out.toString();
    }

    /** Chunks in the file now (H2's own {@code info.CHUNK_COUNT}), -1 when H2 does not say. */
    static int chunkCount(Connection connection) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'info.CHUNK_COUNT'");
                ResultSet row = query.executeQuery()) {
            return row.next() ? Integer.parseInt(row.getString(1)) : -1;
        }
    }

    private static MVStore store(Connection connection) throws SQLException {
        if (!(connection.unwrap(H2_INTERFACE) instanceof JdbcConnection h2)
                || !(h2.getSession() instanceof SessionLocal local) || local.getDatabase().getStore() == null) {
            return null; // a client/server connection: its file is another process's business
        }
        return local.getDatabase().getStore().getMvStore();
    }
}
