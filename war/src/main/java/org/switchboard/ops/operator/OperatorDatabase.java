package org.switchboard.ops.operator;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import javax.sql.DataSource;

/** The database side of {@link JournalOperations}: journal row count, product check and H2's online {@code BACKUP TO}. */
@ApplicationScoped
public class OperatorDatabase implements JournalOperations.Database {

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    private volatile Boolean h2;

    @Override
    public long journalRows() {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT COUNT(*) FROM journal_event")) {
            return r.next() ? r.getLong(1) : 0;
        } catch (SQLException e) {
            throw new IllegalStateException("counting journal rows: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean isH2() {
        Boolean known = h2;
        if (known == null) {
            try (Connection c = dataSource.getConnection()) {
                known = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("h2");
            } catch (SQLException e) {
                throw new IllegalStateException("reading the database product: " + e.getMessage(), e);
            }
            h2 = known;
        }
        return known;
    }

    @Override
    public void backupTo(Path zip) throws SQLException {
        // The path is built by JournalOperations from the data dir and a timestamp, never from a request.
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("BACKUP TO '" + zip.toAbsolutePath().toString().replace("'", "''") + "'");
        }
    }
}
