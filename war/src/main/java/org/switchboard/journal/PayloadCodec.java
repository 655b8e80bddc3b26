package org.switchboard.journal;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import java.io.StringReader;

/** Turns journal payloads into stored text and back; stored text that is not a JSON object is corrupt. */
public final class PayloadCodec {

    private PayloadCodec() {
    }

    /** Compact JSON text of a payload. */
    public static String encode(JsonObject payload) {
        if (payload == null) {
            throw new IllegalArgumentException("journal payload must be a JSON object, not null");
        }
        return payload.toString();
    }

    /** Parses stored text; throws {@link CorruptPayloadException} (with a reason) when it is not exactly one JSON object. */
    public static JsonObject decode(String text) {
        if (text == null || text.isBlank()) {
            throw new CorruptPayloadException("empty payload");
        }
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            JsonValue value = reader.readValue();
            if (value.getValueType() != JsonValue.ValueType.OBJECT) {
                throw new CorruptPayloadException("payload is a JSON " + value.getValueType().name().toLowerCase() + ", not an object");
            }
            return value.asJsonObject();
        } catch (JsonParsingException e) {
            throw new CorruptPayloadException("payload is not valid JSON: " + e.getMessage());
        } catch (JsonException e) {
            throw new CorruptPayloadException("payload is not valid JSON: " + e.getMessage());
        }
    }

    /** A stored payload that cannot be decoded (§16.5 quarantine). */
    public static final class CorruptPayloadException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** Creates the exception with the reason recorded in the quarantine. */
        public CorruptPayloadException(String reason) {
            super(reason, null, false, false);
        }
    }
}
