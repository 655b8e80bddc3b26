package org.switchboard.journal.snapshot;

import jakarta.json.JsonObject;
import org.switchboard.journal.PayloadCodec;

/** Reading a snapshot part written as one JSON object, failing as {@link SnapshotPart#restorePart} documents. */
public final class SnapshotText {

    private SnapshotText() {
    }

    /** The part's JSON object; {@link IllegalArgumentException} when {@code text} is not one. */
    public static JsonObject object(String text) {
        try {
            return PayloadCodec.decode(text);
        } catch (PayloadCodec.CorruptPayloadException e) {
            throw new IllegalArgumentException("snapshot part is not a JSON object: " + e.getMessage(), e);
        }
    }
}
