package org.switchboard.redsyn.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.persistence.Column;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.store.RelayWriter;
import org.switchboard.schema.H2Scripts;

/**
 * A request's rows in SQL, run as the relay writer runs them on H2 with the migrated schema: the message row
 * holds every mapped field of the entity as JPA would have stored it, with its side rows; the session, the
 * thread's mapping and the files land where the JPA entities read them; a unit that fails writes nothing.
 */
class RequestRowsTest {

    /** A request with every field set to something that is not its default. */
    private static MessageEntity request(long seq) {
        MessageEntity m = new MessageEntity("m-" + seq, Kind.REQUEST, 1_000)
                .from(1, "acme/dev/joel/cli#s7", 7L, 70L, "acme")
                .to(3, "acme/dev/ana/close#s9", 9L, 8, "acme2")
                .content("t1", "m-asked", 555L, 60, "{\"type\":\"text/plain\",\"text\":\"x\"}", "[\"r\"]", true, true)
                .files(4, "abcd")
                .signature(true, "{\"sig\":1}")
                .event("e-pub", "topic:acme/dev/news");
        m.assignSeq(seq);
        return m;
    }

    /** The column a field of the entity is stored in: its {@code @Column} name, else its own name. */
    private static String column(Field f) {
        Column c = f.getAnnotation(Column.class);
        return (c != null && !c.name().isEmpty() ? c.name() : f.getName()).toUpperCase(Locale.ROOT);
    }

    private static List<Field> mappedFields() {
        List<Field> fields = new ArrayList<>();
        for (Field f : MessageEntity.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) && !Modifier.isTransient(f.getModifiers())) {
                f.setAccessible(true);
                fields.add(f);
            }
        }
        return fields;
    }

    @Test
    void theInsertNamesEveryMappedColumnOnce() {
        String sql = MessageEntity.INSERT_SQL;
        String columns = sql.substring(sql.indexOf('(') + 1, sql.indexOf(')'));
        List<String> named = Arrays.stream(columns.split(",")).map(String::trim).toList();
        TreeSet<String> mapped = new TreeSet<>();
        mappedFields().forEach(f -> mapped.add(column(f)));
        assertEquals(mapped, new TreeSet<>(named));
        assertEquals(named.size(), mapped.size(), "no column twice");
        assertEquals(named.size(), sql.chars().filter(ch -> ch == '?').count(), "one parameter per column");
        assertEquals(named.size(), request(1).insertParams().size());
    }

    @Test
    void aRequestsRowsLandAsTheEntitiesReadThem() throws Exception {
        JdbcDataSource ds = H2Scripts.memory("request-rows");
        try (Connection c = ds.getConnection("sa", ""); Statement s = c.createStatement()) {
            H2Scripts.applyThrough(s, 8);
            MessageEntity m = request(42);
            byte[] zip = {1, 2, 3, 4};
            RequestRows rows = new RequestRows().openSession(9, 3, "t1", 1_000).mapThread(3, "t1", 9)
                    .files("m-42", "acme", zip).message(m);
            int[] counts = RelayWriter.commit(c, rows.statements());
            assertArrayEquals(new int[] {1, 1, 1, 1, 1, 1}, counts, "session, mapping, files, message, its two side rows");

            try (ResultSet rs = s.executeQuery("SELECT * FROM redsyn_message WHERE seq = 42")) {
                rs.next();
                for (Field f : mappedFields()) {
                    Object expected = f.get(m);
                    Object stored = rs.getObject(column(f));
                    if (expected instanceof Number n) {
                        assertNotNull(stored, f.getName());
                        assertEquals(n.longValue(), ((Number) stored).longValue(), f.getName());
                    } else {
                        assertEquals(expected, stored, f.getName());
                    }
                }
                assertEquals(1, rs.getInt("WAITING"), "queued: in the inbox index");
                assertEquals(61_000L, rs.getLong("DEADLINE"), "queued: swept at its TTL's end");
            }
            assertEquals("e-pub 42", one(s, "SELECT eventid || ' ' || seq FROM redsyn_message_event"));
            assertEquals("7 42", one(s, "SELECT sessionid || ' ' || seq FROM redsyn_message_from_session"));
            assertEquals("9 3 t1 null FALSE 1000", one(s, "SELECT id || ' ' || agentid || ' ' || thread || ' ' || COALESCE(title, 'null') "
                    + "|| ' ' || closed || ' ' || createdat FROM redsyn_session"));
            assertEquals("3:t1 9", one(s, "SELECT agentthread || ' ' || sessionid FROM redsyn_thread_session"));
            try (ResultSet rs = s.executeQuery("SELECT org, bytes, zip FROM redsyn_file WHERE messageid = 'm-42'")) {
                rs.next();
                assertEquals("acme", rs.getString(1));
                assertEquals(4, rs.getLong(2));
                assertArrayEquals(zip, rs.getBytes(3));
            }

            assertArrayEquals(new int[] {1}, RelayWriter.commit(c, new RequestRows().moveThread(3, "t1", 11).statements()));
            assertEquals("3:t1 11", one(s, "SELECT agentthread || ' ' || sessionid FROM redsyn_thread_session"));

            // a second request on a thread a concurrent send mapped first: the unit fails and writes nothing
            MessageEntity late = request(43);
            RequestRows racing = new RequestRows().openSession(10, 3, "t1", 2_000).mapThread(3, "t1", 10).message(late);
            assertThrows(SQLException.class, () -> RelayWriter.commit(c, racing.statements()));
            assertEquals("1 1", one(s, "SELECT (SELECT COUNT(*) FROM redsyn_message) || ' ' || (SELECT COUNT(*) FROM redsyn_session)"));
        }
    }

    @Test
    void aMessageWithoutItsSeqHasNoRow() {
        MessageEntity m = new MessageEntity("m-1", Kind.REQUEST, 1_000);
        assertThrows(IllegalStateException.class, m::insertParams);
    }

    private static String one(Statement s, String query) throws SQLException {
        try (ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
