package org.switchboard.redsyn.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.switchboard.schema.H2Scripts;

/**
 * The event id and the sender's session of a message live in side tables (V8): every message insert
 * writes them, the migration fills them for old rows, and the ack and session queries find them by key.
 */
class MessageSideKeysTest {

    private static MessageEntity message(Long fromSession) {
        return new MessageEntity("m1", Kind.REQUEST, 1000).from(1, "acme/dev/joel/cli", fromSession, 7L, "acme")
                .to(3, "acme/dev/ana/close#s9", 9L, 8, "acme")
                .content("t1", null, null, 60, "{\"type\":\"text/plain\",\"text\":\"x\"}", "[]", false, false);
    }

    private static void setSeq(MessageEntity m, long seq) throws ReflectiveOperationException {
        Field f = MessageEntity.class.getDeclaredField("seq");
        f.setAccessible(true);
        f.set(m, seq);
    }

    @Test
    void aMessageGetsASideRowForEachKeyItHasAndNoneOtherwise() throws ReflectiveOperationException {
        MessageEntity plain = message(null);
        setSeq(plain, 40);
        assertEquals(List.of(), MessageSideKeys.rows(plain));

        MessageEntity copy = message(12L).event("m-pub", "topic:acme/dev/news");
        setSeq(copy, 41);
        List<Object> rows = MessageSideKeys.rows(copy);
        assertEquals(2, rows.size());
        MessageEventEntity event = (MessageEventEntity) rows.get(0);
        assertEquals("m-pub", event.eventId());
        assertEquals(41, event.seq());
        MessageFromSessionEntity session = (MessageFromSessionEntity) rows.get(1);
        assertEquals(12, session.sessionId());
        assertEquals(41, session.seq());
    }

    /** {@code em.persist(x)} where {@code x} is a message: a variable declared as one, or a notice being made. */
    private static final Pattern PERSIST = Pattern.compile("em\\.persist\\(\\s*([A-Za-z_][\\w.]*)");

    @Test
    void everyMessageInsertGoesThroughTheSideKeys() throws IOException {
        List<String> problems = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/org/switchboard/redsyn"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                if (file.getFileName().toString().equals("MessageSideKeys.java")) {
                    continue;
                }
                String source = Files.readString(file);
                Matcher m = PERSIST.matcher(source);
                while (m.find()) {
                    String argument = m.group(1);
                    boolean message = argument.startsWith("Notices.") || argument.equals("new MessageEntity")
                            || Pattern.compile("MessageEntity\\s+" + Pattern.quote(argument) + "\\b").matcher(source).find();
                    if (message) {
                        problems.add(file.getFileName() + ": em.persist(" + argument + ")");
                    }
                }
            }
        }
        assertEquals(List.of(), problems, "a message stored without its side keys");
    }

    private static void insert(Statement s, long seq, String eventId, Long fromSession) throws SQLException {
        s.execute("INSERT INTO redsyn_message (seq, bodyjson, fromaddress, kind, messageid, thread, toaddress, toagentid, state, "
                + "eventid, fromsessionid) VALUES (" + seq + ", '{}', 'a/b/c/d', 'request', 'm" + seq + "', 't', 'a/b/c/e', 3, 0, "
                + (eventId == null ? "NULL" : "'" + eventId + "'") + ", " + fromSession + ")");
    }

    private static List<String> rows(Statement s, String query) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getLong(2));
            }
        }
        return rows;
    }

    private static String plan(Statement s, String query) throws SQLException {
        try (ResultSet rs = s.executeQuery("EXPLAIN " + query)) {
            rs.next();
            return rs.getString(1).toUpperCase(Locale.ROOT);
        }
    }

    /** Whether H2 reads the side table first by its primary key's leading column, then each message by its seq. */
    private static boolean byKey(String plan, String side, String alias, String condition) {
        String compact = plan.replace("\"", "");
        return compact.contains("FROM PUBLIC." + side + " " + alias) && compact.contains("/* PUBLIC.PRIMARY_KEY_")
                && compact.contains(": " + condition) && compact.contains(": SEQ = " + alias + ".SEQ */");
    }

    @Test
    void theMigrationMovesOldKeysAndH2ReadsThemByKey() throws Exception {
        JdbcDataSource ds = H2Scripts.memory("side-keys");
        try (Connection c = ds.getConnection("sa", ""); Statement s = c.createStatement()) {
            H2Scripts.applyThrough(s, 7);
            insert(s, 1, null, null);
            insert(s, 2, "e-pub", null);
            insert(s, 3, null, 12L);
            insert(s, 4, "e-pub", 12L);
            H2Scripts.apply(s, 8);
            assertEquals(List.of("e-pub 2", "e-pub 4"), rows(s, "SELECT eventid, seq FROM redsyn_message_event ORDER BY seq"));
            assertEquals(List.of("12 3", "12 4"), rows(s, "SELECT sessionid, seq FROM redsyn_message_from_session ORDER BY seq"));
            String indexes = rows(s, "SELECT index_name, 0 FROM information_schema.indexes WHERE table_name = 'REDSYN_MESSAGE'").toString();
            assertFalse(indexes.contains("REDSYN_MSG_EVENT") || indexes.contains("REDSYN_MSG_FROMSESSION"), indexes);
            String ack = plan(s, "SELECT m.seq FROM redsyn_message m, redsyn_message_event e WHERE e.eventid IN ('e-pub', 'e-other') AND m.seq = e.seq");
            assertTrue(byKey(ack, "REDSYN_MESSAGE_EVENT", "E", "EVENTID IN("), ack);
            String page = plan(s, "SELECT m.seq FROM redsyn_message m, redsyn_message_from_session f WHERE f.sessionid = 12 AND m.seq = f.seq");
            assertTrue(byKey(page, "REDSYN_MESSAGE_FROM_SESSION", "F", "SESSIONID = CAST(12 AS BIGINT)"), page);
        }
    }
}
