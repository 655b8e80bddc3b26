package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The retention's statements on the journal table (in-memory H2, the journal's own columns). */
class JournalStoreRetentionTest {

    /** Seqs 1..50: multiples of 5 are claims, the rest chat. */
    private static Connection journal(String name) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:h2:mem:retention-" + name + ";DB_CLOSE_DELAY=-1", "sa", "");
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE journal_event (seq BIGINT PRIMARY KEY, kind VARCHAR(64), payload CLOB, appended_at DOUBLE)");
        }
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO journal_event VALUES (?, ?, '{}', ?)")) {
            for (long seq = 1; seq <= 50; seq++) {
                insert.setLong(1, seq);
                insert.setString(2, seq % 5 == 0 ? "claim_acquired" : "chat");
                insert.setDouble(3, seq);
                insert.addBatch();
            }
            insert.executeBatch();
        }
        return c;
    }

    private static List<Long> seqs(Connection c, String kind) throws SQLException {
        List<Long> out = new ArrayList<>();
        try (PreparedStatement q = c.prepareStatement("SELECT seq FROM journal_event WHERE kind = ? ORDER BY seq")) {
            q.setString(1, kind);
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    out.add(r.getLong(1));
                }
            }
        }
        return out;
    }

    @Test
    void deletesTheKindBelowTheCutAcrossWindowsAndAroundKeptSeqs() throws SQLException {
        try (Connection c = journal("delete")) {
            long deleted = JournalStore.deleteBelow(c, 1, 31, Set.of("chat"), new long[] {3, 17, 18, 29, 40}, 4);
            // chats below 31: 24, of which 3, 17, 18 and 29 are kept
            assertEquals(20, deleted);
            assertEquals(List.of(3L, 17L, 18L, 29L, 31L), seqs(c, "chat").subList(0, 5));
            assertEquals(List.of(5L, 10L, 15L, 20L, 25L, 30L, 35L, 40L, 45L, 50L), seqs(c, "claim_acquired"));
            assertEquals(0, JournalStore.deleteBelow(c, 1, 31, Set.of("chat"), new long[] {3, 17, 18, 29}, 4),
                    "a second run over the same stretch finds nothing new");
            assertEquals(2, JournalStore.deleteBelow(c, 1, 31, Set.of("chat"), new long[] {3, 29}, 1000),
                    "17 and 18 go once no longer kept");
        }
    }

    @Test
    void theNewestRowOfAKindIsFoundFromTheTop() throws SQLException {
        try (Connection c = journal("newest")) {
            assertEquals(49, JournalStore.lastSeqOf(c, Set.of("chat")));
            assertEquals(50, JournalStore.lastSeqOf(c, Set.of("claim_acquired", "chat")));
            assertEquals(0, JournalStore.lastSeqOf(c, Set.of("board_posted")));
        }
    }
}
