package org.switchboard.synapse.wire;

import org.switchboard.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;

/** Typed reads of optional frame fields with the spec's typing rules (booleans are never integers). */
public final class JsonFields {

    private JsonFields() {
    }

    /** The string value, or null when absent, null or not a string. */
    public static String string(JsonObject frame, String key) {
        JsonValue value = frame.get(key);
        return value instanceof JsonString s ? s.getString() : null;
    }

    /** True only for a literal JSON {@code true}. */
    public static boolean isTrue(JsonObject frame, String key) {
        return frame.get(key) == JsonValue.TRUE;
    }

    /** The integral value as a long, or null when absent, boolean, fractional or out of long range. */
    public static Long integer(JsonObject frame, String key) {
        JsonValue value = frame.get(key);
        if (value instanceof JsonNumber number && number.isIntegral()) {
            try {
                return number.bigIntegerValueExact().longValueExact();
            } catch (ArithmeticException e) {
                return null;
            }
        }
        return null;
    }

    /** A finite non-boolean number, or null. */
    public static Double number(JsonObject frame, String key) {
        JsonValue value = frame.get(key);
        if (value instanceof JsonNumber number) {
            double d = number.doubleValue();
            return Double.isFinite(d) ? d : null;
        }
        return null;
    }

    /** Declared roles: only a JSON array is honoured; non-string or blank entries dropped; order kept, duplicates removed. */
    public static List<String> roles(JsonValue value) {
        if (!(value instanceof JsonArray array)) {
            return null;
        }
        LinkedHashSet<String> roles = new LinkedHashSet<>();
        for (JsonValue item : array) {
            if (item instanceof JsonString s && !s.getString().isBlank()) {
                roles.add(s.getString().trim());
            }
        }
        return List.copyOf(roles);
    }

    /** A JSON array of the given strings in iteration order. */
    public static JsonArray array(Collection<String> values) {
        JsonArrayBuilder builder = Jsons.PROVIDER.createArrayBuilder();
        for (String value : values) {
            builder.add(value);
        }
        return builder.build();
    }

    /** A JSON array of the given strings, sorted. */
    public static JsonArray sortedArray(Collection<String> values) {
        List<String> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return array(sorted);
    }
}
