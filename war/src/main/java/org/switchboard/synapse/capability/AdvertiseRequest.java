package org.switchboard.synapse.capability;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * A parsed {@code advertise} frame (synapse-advanced, capability cards); card fields already
 * normalised, malformed flags reported as the first refusal sentence.
 *
 * @param malformed      the refusal for the first malformed field ({@code persist}, {@code dispatchable},
 *                       {@code agent}, in that order), or null
 * @param persist        {@code persist} is true
 * @param dispatchable   {@code dispatchable} is not false
 * @param agent          trimmed {@code agent}, or null when absent (the sender's own card)
 * @param description    {@code description} if a string, else ""
 * @param skills         {@code skills} as strings
 * @param taskClasses    {@code task_classes} as strings
 * @param model          {@code model} if a string, else ""
 * @param manifestDigest {@code manifest_digest} if a string, else ""
 * @param contracts      normalised {@code contracts}
 * @param meta           {@code meta} if an object, else JSON null
 * @param signature      {@code signature} as sent, or JSON null
 */
public record AdvertiseRequest(String malformed, boolean persist, boolean dispatchable, String agent, String description,
                               JsonArray skills, JsonArray taskClasses, String model, String manifestDigest,
                               JsonArray contracts, JsonValue meta, JsonValue signature) {

    /** Parses an advertise frame. */
    public static AdvertiseRequest from(JsonObject frame) {
        JsonValue persistValue = frame.get("persist");
        JsonValue dispatchValue = frame.get("dispatchable");
        JsonValue agentValue = frame.get("agent");
        String agent = null;
        String malformed = null;
        if (!isAbsent(persistValue) && !isBoolean(persistValue)) {
            malformed = "Malformed frame: 'persist' must be a boolean.";
        } else if (!isAbsent(dispatchValue) && !isBoolean(dispatchValue)) {
            malformed = "Malformed frame: 'dispatchable' must be a boolean.";
        } else if (!isAbsent(agentValue)) {
            if (agentValue instanceof JsonString s && !s.getString().strip().isEmpty()) {
                agent = s.getString().strip();
            } else {
                malformed = "Malformed frame: 'agent' must be a string.";
            }
        }
        JsonValue meta = frame.get("meta");
        return new AdvertiseRequest(malformed,
                persistValue != null && persistValue.getValueType() == JsonValue.ValueType.TRUE,
                dispatchValue == null || dispatchValue.getValueType() != JsonValue.ValueType.FALSE,
                agent, text(frame.get("description")), Contracts.strings(frame.get("skills")),
                Contracts.strings(frame.get("task_classes")), text(frame.get("model")), text(frame.get("manifest_digest")),
                Contracts.normalise(frame.get("contracts")),
                meta != null && meta.getValueType() == JsonValue.ValueType.OBJECT ? meta : JsonValue.NULL,
                isAbsent(frame.get("signature")) ? JsonValue.NULL : frame.get("signature"));
    }

    private static String text(JsonValue v) {
        return v instanceof JsonString s ? s.getString() : "";
    }

    private static boolean isAbsent(JsonValue v) {
        return v == null || v.getValueType() == JsonValue.ValueType.NULL;
    }

    private static boolean isBoolean(JsonValue v) {
        return v != null && (v.getValueType() == JsonValue.ValueType.TRUE || v.getValueType() == JsonValue.ValueType.FALSE);
    }
}
