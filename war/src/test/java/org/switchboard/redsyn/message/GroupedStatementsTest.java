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
 * The statements the relay writer runs, on H2 with the migrated schema. The ack
 * ({@link MessageEntity#ACK_TAKEN_SQL}) ends only the named message when it is taken by the acking agent,
 * plain (no event id, no files), found by the message id's unique index. The lease
 * ({@link MessageEntity#LEASE_SQL}) takes only a queued message or one whose lease has run out, and only
 * while its attempts are those the take read.
 */
class GroupedStatementsTest {

    private static void insert(Statement s, long seq, String id, long agent, int state, String eventId, Long files) throws SQLException {
        s.execute("INSERT INTO redsyn_message (seq, bodyjson, fromaddress, kind, messageid, thread, toaddress, toagentid, state, "
                + "leaseuntil, expiresat, eventid, filesbytes, waiting, deadline, attempts) VALUES (" + seq + ", '{}', 'a/b/c/d', 'request', '" + id
                + "', 't', 'a/b/c/e', " + agent + ", " + state + ", 7000, 9000, " + (eventId == null ? "NULL" : "'" + eventId + "'") + ", "
                + files + ", " + (state <= DeliveryState.TAKEN ? 1 : 0) + ", " + (state <= DeliveryState.TAKEN ? 7000 : "NULL") + ", 1)");
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
        String plan = plan(s, update);
        assertTrue(plan.contains("REDSYN_MESSAGE_MESSAGEID_KEY"), plan);
    }

    /** H2's plan for {@code update}, upper case. */
    private static String plan(Statement s, String update) throws SQLException {
        try (ResultSet rs = s.executeQuery("EXPLAIN " + update)) {
            rs.next();
            return rs.getString(1).toUpperCase(Locale.ROOT);
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

    @Test
    void leasesAQueuedMessageOrOneWhoseLeaseRanOutAndCountsTheAttempt() throws Exception {
        JdbcDataSource ds = H2Scripts.memory("lease-sql");
        try (Connection c = ds.getConnection("sa", ""); Statement s = c.createStatement()) {
            H2Scripts.applyThrough(s, 8);
            insert(s, 1, "queued", 3, DeliveryState.QUEUED, null, null);
            insert(s, 2, "lease-ran-out", 3, DeliveryState.TAKEN, null, null); // leased until 7000
            insert(s, 3, "lease-running", 3, DeliveryState.TAKEN, null, null);
            insert(s, 4, "done", 3, DeliveryState.DONE, null, null);
            try (PreparedStatement p = c.prepareStatement(MessageEntity.LEASE_SQL)) {
                assertEquals(1, lease(p, 1, 7000), "queued");
                assertEquals(1, lease(p, 2, 7000), "a lease ending at 7000 has run out at 7000");
                assertEquals(0, lease(p, 3, 6999), "a running lease is not taken over");
                assertEquals(0, lease(p, 4, 7000), "done");
                assertEquals(0, lease(p, 1, 7000), "the second of two racing takes");
                assertEquals(0, lease(p, 2, 1, 40_000), "its lease ran out again, but the take read it before the other lease: attempts differ");
            }
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT messageid, state, waiting, deadline, leaseuntil, attempts, takenby FROM redsyn_message ORDER BY seq")) {
                while (rs.next()) {
                    rows.add(rs.getString(1) + " " + rs.getInt(2) + " " + rs.getInt(3) + " " + rs.getObject(4) + " " + rs.getObject(5) + " "
                            + rs.getInt(6) + " " + rs.getString(7));
                }
            }
            assertEquals(List.of("queued 1 1 37000 37000 2 n1", "lease-ran-out 1 1 37000 37000 2 n1", "lease-running 1 1 7000 7000 1 null",
                    "done 2 0 null 7000 1 null"), rows, "taken, still waiting, its deadline the lease's end, one more attempt, by its node");
            String explained = MessageEntity.LEASE_SQL;
            for (String value : List.of("1", "37000", "37000", "'n1'", "9", "1", "0", "1", "7000")) {
                explained = explained.replaceFirst("\\?", value);
            }
            assertTrue(plan(s, explained).contains("PRIMARY_KEY"), explained);
        }
    }

    /** Runs the lease of {@code seq} (read with 1 attempt) at {@code now} for 30 s by node n1; its row count. */
    private static int lease(PreparedStatement p, long seq, long now) throws SQLException {
        return lease(p, seq, 1, now);
    }

    private static int lease(PreparedStatement p, long seq, int attemptsRead, long now) throws SQLException {
        List<Object> values = List.of(DeliveryState.TAKEN, now + 30_000, now + 30_000, "n1", seq, attemptsRead, DeliveryState.QUEUED,
                DeliveryState.TAKEN, now);
        for (int i = 0; i < values.size(); i++) {
            p.setObject(i + 1, values.get(i));
        }
        return p.executeUpdate();
    }
}
