package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Side rows written by the journal's batch insert, inside the batch's transaction (in-memory H2). */
class JournalStoreSideRowsTest {

    private record Row(String statement, String id) implements SideRow {
        @Override
        public void bind(PreparedStatement insert) throws SQLException {
            insert.setString(1, id);
        }
    }

    /** Rows that pack every row of a transaction into one table row, as the replay store's do. */
    private record Packed(String id) implements SideRow {
        @Override
        public String statement() {
            return "INSERT INTO b (id) VALUES (?)";
        }

        @Override
        public void bind(PreparedStatement insert) throws SQLException {
            insert.setString(1, id);
        }

        @Override
        public void bindAll(PreparedStatement insert, List<SideRow> rows) throws SQLException {
            StringBuilder ids = new StringBuilder();
            for (SideRow row : rows) {
                ids.append(((Packed) row).id);
            }
            insert.setString(1, ids.toString());
            insert.addBatch();
        }
    }

    private static Connection database(String name) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:h2:mem:side-rows-" + name + ";DB_CLOSE_DELAY=-1", "sa", "");
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE a (id VARCHAR(64) PRIMARY KEY)");
            s.execute("CREATE TABLE b (id VARCHAR(64) PRIMARY KEY)");
        }
        return c;
    }

    private static int count(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            r.next();
            return r.getInt(1);
        }
    }

    @Test
    void rowsOfEachStatementAreWrittenAndCommitOrRollBackWithTheTransaction() throws SQLException {
        try (Connection c = database("commit")) {
            c.setAutoCommit(false);
            JournalStore.insertSideRows(c, List.of(new Row("INSERT INTO a (id) VALUES (?)", "1"),
                    new Row("INSERT INTO b (id) VALUES (?)", "x"), new Row("INSERT INTO a (id) VALUES (?)", "2")));
            c.rollback();
            assertEquals(0, count(c, "a"), "nothing outlives a rolled-back transaction");
            JournalStore.insertSideRows(c, List.of(new Row("INSERT INTO a (id) VALUES (?)", "1"),
                    new Row("INSERT INTO b (id) VALUES (?)", "x"), new Row("INSERT INTO a (id) VALUES (?)", "2")));
            c.commit();
            assertEquals(2, count(c, "a"));
            assertEquals(1, count(c, "b"));
        }
    }

    @Test
    void aStatementsRowsAreBoundTogetherByItsFirstRow() throws SQLException {
        try (Connection c = database("packed")) {
            c.setAutoCommit(false);
            JournalStore.insertSideRows(c, List.of(new Packed("x"), new Row("INSERT INTO a (id) VALUES (?)", "1"),
                    new Packed("y"), new Packed("z")));
            c.commit();
            assertEquals(1, count(c, "b"), "the three packed rows became one table row");
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT id FROM b")) {
                r.next();
                assertEquals("xyz", r.getString(1));
            }
            assertEquals(1, count(c, "a"));
        }
    }

    @Test
    void aRowTheTableRefusesFailsTheWrite() throws SQLException {
        try (Connection c = database("refused")) {
            c.setAutoCommit(false);
            JournalStore.insertSideRows(c, List.of(new Row("INSERT INTO a (id) VALUES (?)", "1")));
            c.commit();
            assertThrows(SQLException.class, () -> JournalStore.insertSideRows(c,
                    List.of(new Row("INSERT INTO a (id) VALUES (?)", "1"))));
            c.rollback();
            assertEquals(1, count(c, "a"));
        }
    }
}
