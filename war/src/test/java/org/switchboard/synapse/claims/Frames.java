package org.switchboard.synapse.claims;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;

/** Test helper: JSON literals written with single quotes. */
final class Frames {

    private Frames() {
    }

    static JsonObject json(String singleQuoted) {
        try (JsonReader r = Json.createReader(new StringReader(singleQuoted.replace('\'', '"')))) {
            return r.readObject();
        }
    }
}
