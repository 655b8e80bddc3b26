package org.switchboard.synapse.resource;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigInteger;

/**
 * A parsed {@code resource_offer} frame (synapse-advanced, resources).
 *
 * @param kind     trimmed {@code kind} (or {@code resource_kind}), "" when missing
 * @param name     trimmed {@code name} (or {@code resource_name}), "" when missing
 * @param capacity integral {@code capacity} clamped to 1..Long.MAX_VALUE, else 1
 * @param meta     the {@code meta} object, or an empty one
 */
public record ResourceOfferRequest(String kind, String name, long capacity, JsonObject meta) {

    /** Parses an offer frame. */
    public static ResourceOfferRequest from(JsonObject frame) {
        long capacity = 1;
        if (frame.get("capacity") instanceof JsonNumber n && n.isIntegral()) {
            BigInteger v = n.bigIntegerValue();
            capacity = v.compareTo(BigInteger.ONE) < 0 ? 1 : v.min(BigInteger.valueOf(Long.MAX_VALUE)).longValue();
        }
        JsonObject meta = frame.get("meta") != null && frame.get("meta").getValueType() == JsonValue.ValueType.OBJECT
                ? frame.getJsonObject("meta") : JsonValue.EMPTY_JSON_OBJECT;
        return new ResourceOfferRequest(text(frame, "kind", "resource_kind"), text(frame, "name", "resource_name"),
                capacity, meta);
    }

    private static String text(JsonObject frame, String key, String alias) {
        JsonValue v = frame.get(key);
        if (v == null || v.getValueType() == JsonValue.ValueType.NULL) {
            v = frame.get(alias);
        }
        return v instanceof JsonString s ? s.getString().strip() : "";
    }
}
