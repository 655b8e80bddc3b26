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
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder()
                .add("v", 1)
                .add("id", m.wireId())
                .add("kind", m.getKind().wire())
                .add("from", m.getFromAddress())
                .add("to", m.getToAddress())
                .add("thread", m.getThread());
        nullable(b, "reply_to", m.getReplyTo());
        if (m.getTs() != null) {
            b.add("ts", m.getTs());
        } else {
            b.addNull("ts");
        }
        b.add("ttl", m.getTtl())
                .add("body", parse(m.getBodyJson()))
                .add("refs", m.getRefsJson() == null ? JsonValue.EMPTY_JSON_ARRAY : parse(m.getRefsJson()));
        if (m.getFilesBytes() != null) {
            b.add("files", Jsons.PROVIDER.createObjectBuilder().add("bytes", m.getFilesBytes()).add("sha256", m.getFilesSha256()));
        }
        b.add("error", m.isError())
                .add("expires", m.getExpiresAt() / 1000)
                .add("attempts", m.getAttempts())
                .add("signed", m.isSigned());
        if (m.getTopic() != null) {
            b.add("topic", m.getTopic());
        }
        if (m.getSigJson() != null) {
            b.add("sig", parse(m.getSigJson()));
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
