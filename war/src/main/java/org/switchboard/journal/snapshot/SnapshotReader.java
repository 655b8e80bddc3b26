package org.switchboard.journal.snapshot;

import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import java.io.StringReader;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.switchboard.json.Jsons;

/**
 * A streaming reader of a snapshot part written as JSON rows (issue 20): values are taken one by one
 * from the text, so a part of tens of megabytes is restored without first building its whole tree
 * (which cost most of the restore's time in garbage collection). Every failure surfaces as
 * {@link IllegalArgumentException}, as {@link SnapshotPart#restorePart} documents.
 */
public final class SnapshotReader {

    private static final JsonParserFactory PARSERS = Jsons.PROVIDER.createParserFactory(Jsons.LONG_NUMBERS);

    private final JsonParser parser;
    /** One event of look-ahead; the parser's current event is this one while it is set. */
    private JsonParser.Event peeked;

    private SnapshotReader(JsonParser parser) {
        this.parser = parser;
    }

    /**
     * Reads {@code text} with {@code body}, which must consume exactly one JSON value; any parse or shape
     * error (including trailing text) becomes an {@link IllegalArgumentException} naming {@code part}.
     */
    public static <T> T read(String part, String text, Function<SnapshotReader, T> body) {
        if (text == null) {
            throw new IllegalArgumentException(part + " snapshot part missing");
        }
        try (JsonParser parser = PARSERS.createParser(new StringReader(text))) {
            SnapshotReader reader = new SnapshotReader(parser);
            T result = body.apply(reader);
            if (reader.peeked != null || parser.hasNext()) {
                throw new IllegalArgumentException("text after the part's value");
            }
            return result;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(part + " snapshot part: " + e.getMessage(), e);
        } catch (JsonException | IllegalStateException | NoSuchElementException | ClassCastException
                 | NullPointerException | ArithmeticException e) {
            throw new IllegalArgumentException(part + " snapshot part: " + e, e);
        }
    }

    private JsonParser.Event next() {
        if (peeked != null) {
            JsonParser.Event event = peeked;
            peeked = null;
            return event;
        }
        if (!parser.hasNext()) {
            throw new IllegalArgumentException("the part ends early");
        }
        return parser.next();
    }

    private JsonParser.Event expect(JsonParser.Event wanted) {
        JsonParser.Event event = next();
        if (event != wanted) {
            throw new IllegalArgumentException("expected " + wanted + ", found " + event);
        }
        return event;
    }

    /** Enters an object. */
    public void startObject() {
        expect(JsonParser.Event.START_OBJECT);
    }

    /** Enters an array. */
    public void startArray() {
        expect(JsonParser.Event.START_ARRAY);
    }

    /**
     * True when the current array or object has another element (for an object: a key, read with
     * {@link #key}); false after consuming its end.
     */
    public boolean more() {
        if (peeked == null) {
            if (!parser.hasNext()) {
                throw new IllegalArgumentException("the part ends early");
            }
            peeked = parser.next();
        }
        if (peeked == JsonParser.Event.END_ARRAY || peeked == JsonParser.Event.END_OBJECT) {
            peeked = null;
            return false;
        }
        return true;
    }

    /** The next key of the current object. */
    public String key() {
        expect(JsonParser.Event.KEY_NAME);
        return parser.getString();
    }

    /** Expects the key {@code name} next (a part's fixed layout). */
    public void key(String name) {
        String found = key();
        if (!name.equals(found)) {
            throw new IllegalArgumentException("expected key " + name + ", found " + found);
        }
    }

    /** A string value, or null for JSON null. */
    public String string() {
        JsonParser.Event event = next();
        if (event == JsonParser.Event.VALUE_NULL) {
            return null;
        }
        if (event != JsonParser.Event.VALUE_STRING) {
            throw new IllegalArgumentException("expected a string, found " + event);
        }
        return parser.getString();
    }

    /** An integral number that fits a long. */
    public long longValue() {
        expect(JsonParser.Event.VALUE_NUMBER);
        if (!parser.isIntegralNumber()) {
            throw new IllegalArgumentException("expected an integer, found " + parser.getString());
        }
        return parser.getBigDecimal().longValueExact();
    }

    /** An integral number that fits an int. */
    public int intValue() {
        return Math.toIntExact(longValue());
    }

    /** A number as a double (as {@code JsonNumber.doubleValue()} reads it). */
    public double doubleValue() {
        expect(JsonParser.Event.VALUE_NUMBER);
        return parser.getBigDecimal().doubleValue();
    }

    /** A boolean. */
    public boolean bool() {
        JsonParser.Event event = next();
        if (event == JsonParser.Event.VALUE_TRUE) {
            return true;
        }
        if (event == JsonParser.Event.VALUE_FALSE) {
            return false;
        }
        throw new IllegalArgumentException("expected a boolean, found " + event);
    }

    /** A whole JSON object value (e.g. a stored response frame), built as a tree. */
    public JsonObject object() {
        expect(JsonParser.Event.START_OBJECT);
        return parser.getObject();
    }

    /** Hands every element of the array that comes next to {@code each} (which reads exactly one value). */
    public void eachInArray(Consumer<SnapshotReader> each) {
        startArray();
        while (more()) {
            each.accept(this);
        }
    }
}
