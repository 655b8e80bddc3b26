package org.switchboard.journal.snapshot;

import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import java.io.StringReader;
import java.util.concurrent.locks.Lock;
import java.util.function.Consumer;
import java.util.function.Function;
import org.switchboard.json.Jsons;

/**
 * Reading a snapshot part written as one JSON object, failing as {@link SnapshotPart#restorePart} documents,
 * and the loops every part's reader runs over it.
 */
public final class SnapshotText {

    private SnapshotText() {
    }

    /** The part's JSON object; {@link IllegalArgumentException} when {@code text} is not one. */
    public static JsonObject object(String text) {
        if (text == null) {
            throw new IllegalArgumentException("snapshot part missing");
        }
        try (var reader = Jsons.PROVIDER.createReaderFactory(Jsons.LONG_NUMBERS).createReader(new StringReader(text))) {
            return reader.readObject();
        } catch (JsonParsingException e) {
            throw new IllegalArgumentException("snapshot part is not a JSON object: " + e.getMessage(), e);
        } catch (JsonException | IllegalStateException e) {
            throw new IllegalArgumentException("snapshot part is not a JSON object: " + e.getMessage(), e);
        }
    }

    /**
     * Hands each element of the array {@code name} in {@code part} to {@code each} as an object, in order.
     * A missing array fails with {@link NullPointerException}, an element that is no object with
     * {@link ClassCastException}, as the readers' own loops did (each reader maps them to its message).
     */
    public static void eachObject(JsonObject part, String name, Consumer<JsonObject> each) {
        for (JsonValue value : part.getJsonArray(name)) {
            each.accept(value.asJsonObject());
        }
    }

    /**
     * As {@link #eachObject}, with each object first turned into an entry by {@code read}; an object it
     * cannot read ({@code null}) fails with {@link IllegalArgumentException}{@code (whenUnreadable)}.
     */
    public static <T> void eachObject(JsonObject part, String name, Function<JsonObject, T> read, String whenUnreadable,
            Consumer<T> each) {
        eachObject(part, name, o -> {
            T entry = read.apply(o);
            if (entry == null) {
                throw new IllegalArgumentException(whenUnreadable);
            }
            each.accept(entry);
        });
    }

    /** As {@link #eachObject}, for parts that write each entry as an array (compact rows). */
    public static void eachArray(JsonObject part, String name, Consumer<JsonArray> each) {
        for (JsonValue value : part.getJsonArray(name)) {
            each.accept(value.asJsonArray());
        }
    }

    /** Runs {@code body} holding {@code lock}: a reader fills its holder under the holder's own write lock. */
    public static void locked(Lock lock, Runnable body) {
        lock.lock();
        try {
            body.run();
        } finally {
            lock.unlock();
        }
    }
}
