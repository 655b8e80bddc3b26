package org.switchboard.journal.snapshot;

import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.stream.JsonParsingException;
import java.io.StringReader;
import org.switchboard.json.Jsons;

/** Reading a snapshot part written as one JSON object, failing as {@link SnapshotPart#restorePart} documents. */
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
}
