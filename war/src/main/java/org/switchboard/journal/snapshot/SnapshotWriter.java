package org.switchboard.journal.snapshot;

import jakarta.json.stream.JsonGenerator;
import java.io.StringWriter;
import java.util.function.Consumer;
import org.switchboard.json.Jsons;

/**
 * Writing a snapshot part as JSON through a streaming generator (issue 20): large parts are written
 * row by row instead of being built as a tree first; {@link SnapshotReader} reads them back.
 */
public final class SnapshotWriter {

    private SnapshotWriter() {
    }

    /** The text {@code body} writes: exactly one JSON value. */
    public static String write(Consumer<JsonGenerator> body) {
        StringWriter text = new StringWriter(1 << 16);
        try (JsonGenerator out = Jsons.PROVIDER.createGenerator(text)) {
            body.accept(out);
        }
        return text.toString();
    }

    /** Writes each of {@code values} in turn, as {@link #text(JsonGenerator, String)} does (a row's text fields). */
    public static void texts(JsonGenerator out, String... values) {
        for (String value : values) {
            text(out, value);
        }
    }

    /** Writes {@code value}, or JSON null for null. */
    public static void text(JsonGenerator out, String value) {
        if (value == null) {
            out.writeNull();
        } else {
            out.write(value);
        }
    }
}
