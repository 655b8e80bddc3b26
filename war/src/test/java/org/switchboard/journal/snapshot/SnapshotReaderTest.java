package org.switchboard.journal.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Snapshot parts written as rows and read back as a stream (issue 20). */
class SnapshotReaderTest {

    private static final String ROWS = SnapshotWriter.write(out -> {
        out.writeStartObject().writeKey("rows").writeStartArray();
        out.writeStartArray().write("a").write(1L).write(0.1).write(true);
        SnapshotWriter.text(out, null);
        out.write(Json.createObjectBuilder().add("type", "x").add("n", 12345678901234L).build()).writeEnd();
        out.writeStartArray().write("b\n\u0000\"").write(Long.MAX_VALUE).write(1_767_225_600.125).write(false).write("c")
                .write(Json.createObjectBuilder().build()).writeEnd();
        out.writeEnd().write("tail", 7).writeEnd();
    });

    private record Row(String name, long number, double time, boolean flag, String maybe, String object) {
    }

    private static List<Row> rows(String text) {
        return SnapshotReader.read("test", text, in -> {
            List<Row> rows = new ArrayList<>();
            in.startObject();
            in.key("rows");
            in.eachInArray(r -> {
                r.startArray();
                rows.add(new Row(r.string(), r.longValue(), r.doubleValue(), r.bool(), r.string(), r.object().toString()));
                assertEquals(false, r.more(), "a row ends after its fields");
            });
            in.key("tail");
            rows.add(new Row("tail", in.intValue(), 0, false, null, null));
            assertEquals(false, in.more());
            return rows;
        });
    }

    @Test
    void rowsReadBackAsTheyWereWritten() {
        List<Row> rows = rows(ROWS);
        assertEquals(new Row("a", 1, 0.1, true, null, "{\"type\":\"x\",\"n\":12345678901234}"), rows.get(0));
        assertEquals(new Row("b\n\u0000\"", Long.MAX_VALUE, 1_767_225_600.125, false, "c", "{}"), rows.get(1));
        assertEquals(7, rows.get(2).number());
        assertNull(rows.get(0).maybe());
    }

    @Test
    void textThatDoesNotFitTheLayoutFailsAsUnreadable() {
        for (String broken : List.of(ROWS.substring(0, ROWS.length() - 3), ROWS.replace("\"a\"", "2"),
                ROWS.replace("true", "\"yes\""), ROWS.replace("\"rows\"", "\"other\""), ROWS.replace("1,", "1.5,"),
                ROWS + "{}", "not json", "")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rows(broken), broken);
            assertTrue(e.getMessage().startsWith("test snapshot part"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> rows(null));
    }
}
