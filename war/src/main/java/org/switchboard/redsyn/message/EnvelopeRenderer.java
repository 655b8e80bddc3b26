package org.switchboard.redsyn.message;

import org.switchboard.json.Jsons;

import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;

/** Renders a stored message as the delivered envelope, with {@code expires}, {@code attempts} and {@code signed}. */
public final class EnvelopeRenderer {

    private EnvelopeRenderer() {
    }

    /** The envelope as delivered. */
    public static JsonObject delivered(MessageEntity m) {
        return delivered(m.envelope());
    }

    /** The envelope as delivered, from its stored fields. */
    public static JsonObject delivered(StoredEnvelope m) {
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder()
                .add("v", 1)
                .add("id", m.wireId())
                .add("kind", m.kind())
                .add("from", m.fromAddress())
                .add("to", m.toAddress())
                .add("thread", m.thread());
        nullable(b, "reply_to", m.replyTo());
        if (m.ts() != null) {
            b.add("ts", m.ts());
        } else {
            b.addNull("ts");
        }
        b.add("ttl", m.ttl())
                .add("body", parse(m.bodyJson()))
                .add("refs", m.refsJson() == null ? JsonValue.EMPTY_JSON_ARRAY : parse(m.refsJson()));
        if (m.filesBytes() != null) {
            b.add("files", Jsons.PROVIDER.createObjectBuilder().add("bytes", m.filesBytes()).add("sha256", m.filesSha256()));
        }
        b.add("error", m.error())
                .add("expires", m.expiresAt() / 1000)
                .add("attempts", m.attempts())
                .add("signed", m.signed());
        if (m.topic() != null) {
            b.add("topic", m.topic());
        }
        if (m.sigJson() != null) {
            b.add("sig", parse(m.sigJson()));
        }
        return b.build();
    }

    private static void nullable(JsonObjectBuilder b, String name, String value) {
        if (value == null) {
            b.addNull(name);
        } else {
            b.add(name, value);
        }
    }

    /** Parses stored JSON. */
    public static JsonValue parse(String json) {
        try (JsonReader reader = Jsons.PROVIDER.createReader(new StringReader(json))) {
            return reader.readValue();
        }
    }
}
