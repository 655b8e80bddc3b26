package org.switchboard.synapse.resource;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * One offered resource (synapse-core §12).
 *
 * @param agent     offering agent
 * @param kind      trimmed kind
 * @param name      trimmed name
 * @param capacity  ≥ 1
 * @param meta      free object
 * @param offeredAt last refresh
 */
public record ResourceOffer(String agent, String kind, String name, long capacity, JsonObject meta, double offeredAt) {

    /** {@code <agent>:<kind>:<name>}. */
    public String key() {
        return agent + ":" + kind + ":" + name;
    }

    /** Journal payload {@code {agent, kind, name, capacity, meta, offered_at}}. */
    public JsonObject payload() {
        return PROVIDER.createObjectBuilder().add("agent", agent).add("kind", kind).add("name", name)
                .add("capacity", capacity).add("meta", meta).add("offered_at", offeredAt).build();
    }

    /** Reads a journal payload; null when agent, kind or name is missing. */
    public static ResourceOffer fromPayload(JsonObject p) {
        String agent = p.get("agent") instanceof JsonString s ? s.getString() : "";
        String kind = p.get("kind") instanceof JsonString s ? s.getString() : "";
        String name = p.get("name") instanceof JsonString s ? s.getString() : "";
        if (agent.isEmpty() || kind.isEmpty() || name.isEmpty()) {
            return null;
        }
        long capacity = p.get("capacity") instanceof JsonNumber n && n.isIntegral() ? Math.max(1, n.longValue()) : 1;
        JsonObject meta = p.get("meta") != null && p.get("meta").getValueType() == JsonValue.ValueType.OBJECT
                ? p.getJsonObject("meta") : JsonValue.EMPTY_JSON_OBJECT;
        double at = p.get("offered_at") instanceof JsonNumber n ? n.doubleValue() : 0;
        return new ResourceOffer(agent, kind, name, capacity, meta, at);
    }
}
