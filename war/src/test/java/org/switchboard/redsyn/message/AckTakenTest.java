package org.switchboard.redsyn.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.switchboard.schema.H2Scripts;

/**
 * The one-statement ack ({@link MessageEntity#ACK_TAKEN_SQL}), run on H2 with the migrated schema: it ends
 * only the named message when it is taken by the acking agent, plain (no event id, no files), and H2
 * finds the row by the message id's unique index.
 */
class AckTakenTest {

    private static void insert(Statement s, long seq, String id, long agent, int state, String eventId, Long files) throws SQLException {
        s.execute("INSERT INTO redsyn_message (seq, bodyjson, fromaddress, kind, messageid, thread, toaddress, toagentid, state, "
                + "leaseuntil, expiresat, eventid, filesbytes, waiting, deadline) VALUES (" + seq + ", '{}', 'a/b/c/d', 'request', '" + id
                + "', 't', 'a/b/c/e', " + agent + ", " + state + ", 7000, 9000, " + (eventId == null ? "NULL" : "'" + eventId + "'") + ", "
                + files + ", " + (state <= DeliveryState.TAKEN ? 1 : 0) + ", " + (state <= DeliveryState.TAKEN ? 7000 : "NULL") + ")");
    }

    /** The migrated schema with one message of each case: only the first, "taken", is the ack's to end. */
    private static void seedOneOfEachCase(Statement s) throws Exception {
        H2Scripts.applyThrough(s, 8);
        insert(s, 1, "taken", 3, DeliveryState.TAKEN, null, null);
        insert(s, 2, "other-agent", 4, DeliveryState.TAKEN, null, null);
        insert(s, 3, "queued", 3, DeliveryState.QUEUED, null, null);
        insert(s, 4, "done", 3, DeliveryState.DONE, null, null);
        insert(s, 5, "topic-copy", 3, DeliveryState.TAKEN, "e1", null);
        insert(s, 6, "with-files", 3, DeliveryState.TAKEN, null, 10L);
    }

    /** H2's plan for {@code update} uses the message id's unique index, not the agent's inbox index (all its history). */
    private static void assertFindsTheRowByItsMessageId(Statement s, String update) throws SQLException {
        try (ResultSet rs = s.executeQuery("EXPLAIN " + update)) {
            rs.next();
            String plan = rs.getString(1).toUpperCase(Locale.ROOT);
            assertTrue(plan.contains("REDSYN_MESSAGE_MESSAGEID_KEY"), plan);
        }
    }

    private static List<String> rows(Statement s) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT messageid, state, waiting, deadline, doneat FROM redsyn_message ORDER BY seq")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getInt(2) + " " + rs.getInt(3) + " " + rs.getObject(4) + " " + rs.getObject(5));
            }
        }
        return rows;
    }

    @Test
    void endsOnlyAPlainMessageTakenByTheAckingAgentAndFindsItByItsId() throws Exception {
        JdbcDataSource ds = H2Scripts.memory("ack-taken-sql");
        try (Connection c = ds.getConnection("sa", ""); Statement s = c.createStatement()) {
            seedOneOfEachCase(s);
            List<String> before = rows(s);
            try (PreparedStatement p = c.prepareStatement(MessageEntity.ACK_TAKEN_SQL)) {
                for (String id : List.of("other-agent", "queued", "done", "topic-copy", "with-files", "nope", "taken")) {
                    p.setObject(1, DeliveryState.DONE);
                    p.setObject(2, 8000L);
                    p.setObject(3, id);
                    p.setObject(4, 3L);
                    p.setObject(5, DeliveryState.TAKEN);
                    assertEquals(id.equals("taken") ? 1 : 0, p.executeUpdate(), id);
                }
            }
            assertEquals("taken 2 0 null 8000", rows(s).get(0), "done, out of the inbox and deadline indexes, with its time");
            assertEquals(before.subList(1, before.size()), rows(s).subList(1, before.size()), "every other case left to the read-then-update path");
            String explained = MessageEntity.ACK_TAKEN_SQL;
            for (String value : List.of("2", "8000", "'x'", "3", "1")) { // the id a string, as bound: else H2 cannot use its index
                explained = explained.replaceFirst("\\?", value);
            }
            assertFindsTheRowByItsMessageId(s, explained);
        }
    }
}
