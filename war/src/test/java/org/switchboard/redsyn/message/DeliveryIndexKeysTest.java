package org.switchboard.redsyn.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.NamedQuery;
import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.switchboard.schema.H2Scripts;

/**
 * The WAITING and DEADLINE keys of a message row (V7): kept in step with the state by the entity and by
 * every update statement, filled in for old rows by the migration, and used by H2 for the take and the
 * sweeps.
 */
class DeliveryIndexKeysTest {

    private static MessageEntity queued() {
        return new MessageEntity("m1", Kind.REQUEST, 1000).from(1, "acme/dev/joel/cli", null, 7L, "acme")
                .to(3, "acme/dev/ana/close#s9", 9L, 8, "acme")
                .content("t1", null, null, 60, "{\"type\":\"text/plain\",\"text\":\"x\"}", "[]", false, false);
    }

    @Test
    void theEntityKeepsItsKeysInStepWithItsState() {
        MessageEntity m = queued();
        m.indexKeys(); // what persist runs
        assertTrue(m.isWaiting());
        assertEquals(61_000L, m.getDeadline());
        m.finish(DeliveryState.DONE, 5000);
        assertFalse(m.isWaiting());
        assertNull(m.getDeadline());
        m.requeue();
        assertTrue(m.isWaiting());
        assertEquals(61_000L, m.getDeadline());
        m.closeByReply(6000);
        assertFalse(m.isWaiting());
        assertNull(m.getDeadline());
        MessageEntity done = queued();
        done.finish(DeliveryState.EXPIRED, 2000);
        done.indexKeys(); // a row persisted already final (none today) is not waiting either
        assertFalse(done.isWaiting());
        assertNull(done.getDeadline());
    }

    /** Every JPQL update of a message's state, by where it is declared (the SQL ones' effects are {@link GroupedStatementsTest}'s). */
    private static Map<String, String> stateUpdates() throws ReflectiveOperationException {
        Map<String, String> out = new TreeMap<>();
        for (NamedQuery q : MessageEntity.class.getAnnotationsByType(NamedQuery.class)) {
            out.put(q.name(), q.query());
        }
        out.put("InboxService.GIVE_BACK", constant("org.switchboard.redsyn.inbox.InboxService", "GIVE_BACK"));
        out.put("DeliveryStore.FINISH", constant("org.switchboard.redsyn.webhook.DeliveryStore", "FINISH"));
        out.values().removeIf(q -> !(q.startsWith("UPDATE MessageEntity") && q.contains("m.state =")));
        return out;
    }

    private static String constant(String type, String name) throws ReflectiveOperationException {
        Field f = Class.forName(type).getDeclaredField(name);
        f.setAccessible(true);
        return (String) f.get(null);
    }

    @Test
    void everyStateUpdateAlsoSetsTheDeadlineAndEveryFinalOneLeavesTheInbox() throws ReflectiveOperationException {
        Map<String, String> updates = stateUpdates();
        assertEquals(6, updates.size(), "the state updates found: " + updates.keySet());
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> u : updates.entrySet()) {
            String set = u.getValue().substring(0, u.getValue().indexOf(" WHERE "));
            if (!set.contains("m.deadline =")) {
                problems.add(u.getKey() + " changes the state without the deadline");
            }
            boolean toWaiting = set.contains("m.state = :queued") || set.contains("m.state = :taken");
            if (!toWaiting && !set.contains(MessageEntity.FINAL)) {
                problems.add(u.getKey() + " ends delivery without " + MessageEntity.FINAL);
            }
        }
        assertEquals(List.of(), problems);
    }

    private static void insert(Statement s, long seq, int state, long leaseUntil, long expiresAt) throws SQLException {
        s.execute("INSERT INTO redsyn_message (seq, bodyjson, fromaddress, kind, messageid, thread, toaddress, toagentid, state, "
                + "leaseuntil, expiresat) VALUES (" + seq + ", '{}', 'a/b/c/d', 'request', 'm" + seq + "', 't', 'a/b/c/e', 3, "
                + state + ", " + leaseUntil + ", " + expiresAt + ")");
    }

    private static String plan(Statement s, String query) throws SQLException {
        try (ResultSet rs = s.executeQuery("EXPLAIN " + query)) {
            rs.next();
            return rs.getString(1).toUpperCase(Locale.ROOT);
        }
    }

    @Test
    void theMigrationKeysOldRowsAndH2UsesTheNewIndexes() throws Exception {
        JdbcDataSource ds = H2Scripts.memory("delivery-keys");
        try (Connection c = ds.getConnection("sa", ""); Statement s = c.createStatement()) {
            H2Scripts.applyThrough(s, 5);
            insert(s, 1, DeliveryState.QUEUED, 0, 9000);
            insert(s, 2, DeliveryState.TAKEN, 7000, 9000);
            insert(s, 3, DeliveryState.DONE, 7000, 9000);
            H2Scripts.apply(s, 7);
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT seq, waiting, deadline FROM redsyn_message ORDER BY seq")) {
                while (rs.next()) {
                    rows.add(rs.getLong(1) + " " + rs.getInt(2) + " " + rs.getObject(3));
                }
            }
            assertEquals(List.of("1 1 9000", "2 1 7000", "3 0 null"), rows);
            assertTrue(plan(s, "SELECT seq FROM redsyn_message WHERE toagentid = 3 AND waiting = 1 ORDER BY seq")
                    .contains("REDSYN_MSG_WAITING"));
            assertTrue(plan(s, "SELECT seq FROM redsyn_message WHERE deadline > 0 AND deadline <= 8000 AND state = 1 ORDER BY deadline")
                    .contains("REDSYN_MSG_DEADLINE"));
        }
    }
}
