package org.switchboard.journal;

import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import java.io.StringReader;
import org.switchboard.json.Jsons;
import java.util.NoSuchElementException;

/** Turns journal payloads into stored text and back; stored text that is not a JSON object is corrupt. */
public final class PayloadCodec {

    // Json.createParser looks the provider up through ServiceLoader on every call, which in the
    // server's web-app class loader costs more than the parse; one factory serves all threads.
    private static final JsonParserFactory PARSERS = JsonProvider.provider().createParserFactory(Jsons.LONG_NUMBERS);

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
        try (JsonParser parser = PARSERS.createParser(new StringReader(text))) {
            JsonParser.Event first = parser.next();
            if (first != JsonParser.Event.START_OBJECT) {
                throw new CorruptPayloadException("payload is not a JSON object (starts with " + first + ")");
            }
            JsonObject payload = parser.getObject();
            if (parser.hasNext()) {
                throw new CorruptPayloadException("payload has content after the JSON object");
            }
            return payload;
        } catch (JsonException | NoSuchElementException | IllegalStateException e) {
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
