package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/** Test fixture: an embedded H2 file whose chunks are left sparse, as the journal's row-by-row commits leave them. */
public final class SparseH2File {

    /** Characters of each row's payload. */
    public static final int PAYLOAD = 1500;

    private SparseH2File() {
    }

    /**
     * Opens {@code name} in {@code dir} with an append-only table {@code journal} and commits rows 1..{@code rows}
     * one at a time (WRITE_DELAY 0, as the hub's journal); auto-commit is off on the returned connection.
     */
    public static Connection open(Path dir, String name, int rows) throws Exception {
        // RETENTION_TIME=0: chunks may be rewritten and freed at once (the hub keeps H2's 45 s). H2 says a
        // reader walking a map needs the retention time, so with other sessions use openRetaining.
        return openRetaining(dir, name, rows, 0);
    }

    /** As {@link #open}, with H2 keeping a chunk nothing uses for {@code retentionMillis} before freeing it. */
    public static Connection openRetaining(Path dir, String name, int rows, int retentionMillis) throws Exception {
        Connection c = DriverManager.getConnection("jdbc:h2:file:" + dir.resolve(name) + ";WRITE_DELAY=0;RETENTION_TIME="
                + retentionMillis, "sa", "");
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE journal(seq BIGINT PRIMARY KEY, payload VARCHAR(4000))");
        }
        c.setAutoCommit(false);
        commit(c, 1, rows);
        return c;
    }

    /** Rows {@code from}..{@code to}, one commit each. */
    public static void commit(Connection c, long from, long to) throws Exception {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO journal VALUES (?, ?)")) {
            String payload = "p".repeat(PAYLOAD);
            for (long seq = from; seq <= to; seq++) {
                insert.setLong(1, seq);
                insert.setString(2, payload);
                insert.executeUpdate();
                c.commit();
            }
        }
    }

    /** Asserts that rows 1..{@code rows} are all in the table with their whole payloads. */
    public static void assertRowsKept(Connection c, long rows) throws Exception {
        try (ResultSet row = c.createStatement().executeQuery("SELECT COUNT(*), SUM(LENGTH(payload)) FROM journal")) {
            row.next();
            assertEquals(rows, row.getLong(1), "every committed row is still there");
            assertEquals(rows * PAYLOAD, row.getLong(2), "with its whole payload");
        }
    }
}
