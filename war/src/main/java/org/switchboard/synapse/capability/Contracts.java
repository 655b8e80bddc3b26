package org.switchboard.synapse.capability;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Normalisation of advertised task contracts (synapse-core §11.1): a list of objects, one object,
 * or a map {@code task_class → object}; malformed entries are ignored, first entry per class wins.
 * Stateless.
 */
public final class Contracts {

    private Contracts() {
    }

    /** The normalised {@code contracts} array. */
    public static JsonArray normalise(JsonValue value) {
        Map<String, JsonObject> byClass = new LinkedHashMap<>();
        if (value instanceof JsonArray list) {
            for (JsonValue entry : list) {
                add(byClass, entry, null);
            }
        } else if (value != null && value.getValueType() == JsonValue.ValueType.OBJECT) {
            JsonObject o = value.asJsonObject();
            if (o.containsKey("task_class") || o.containsKey("task")) {
                add(byClass, o, null);
            } else {
                for (Map.Entry<String, JsonValue> e : o.entrySet()) {
                    add(byClass, e.getValue(), e.getKey());
                }
            }
        }
        JsonArrayBuilder out = PROVIDER.createArrayBuilder();
        byClass.values().forEach(out::add);
        return out.build();
    }

    private static void add(Map<String, JsonObject> byClass, JsonValue entry, String mapKey) {
        if (entry == null || entry.getValueType() != JsonValue.ValueType.OBJECT) {
            return;
        }
        JsonObject o = entry.asJsonObject();
        String cls = text(o.get("task_class"));
        if (cls.isEmpty()) {
            cls = text(o.get("task"));
        }
        if (cls.isEmpty() && mapKey != null) {
            cls = mapKey.strip();
        }
        if (cls.isEmpty() || byClass.containsKey(cls)) {
            return;
        }
        byClass.put(cls, PROVIDER.createObjectBuilder()
                .add("task_class", cls)
                .add("input_schema", object(o.containsKey("input_schema") ? o.get("input_schema") : o.get("inputs")))
                .add("output_schema", object(o.containsKey("output_schema") ? o.get("output_schema") : o.get("outputs")))
                .add("preconditions", strings(o.get("preconditions")))
                .add("postconditions", strings(o.get("postconditions")))
                .build());
    }

    private static String text(JsonValue v) {
        return v instanceof JsonString s ? s.getString().strip() : "";
    }

    private static JsonObject object(JsonValue v) {
        return v != null && v.getValueType() == JsonValue.ValueType.OBJECT ? v.asJsonObject() : JsonValue.EMPTY_JSON_OBJECT;
    }

    /** Keeps the string items of a list; anything else is {@code []}. */
    static JsonArray strings(JsonValue v) {
        JsonArrayBuilder b = PROVIDER.createArrayBuilder();
        if (v instanceof JsonArray a) {
            for (JsonValue item : a) {
                if (item instanceof JsonString s) {
                    b.add(s.getString());
                }
            }
        }
        return b.build();
    }
}
