package org.switchboard.itests.support;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import java.util.Map;
import java.util.TreeMap;

/**
 * A client's CJ-UTF8 (synapse-advanced §1.3) for the values the tests send: keys sorted at every
 * level, compact separators, non-ASCII raw, integers only (a fraction throws ArithmeticException).
 */
public final class CanonicalJson {

    /** Looked up once: {@code Json.*} finds the provider again on every call, which dominated a benchmark client. */
    private static final JsonProvider JSON = JsonProvider.provider();

    private CanonicalJson() {
    }

    /** The canonical text of {@code value}. */
    public static String utf8(JsonValue value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(JsonValue value, StringBuilder out) {
        switch (value.getValueType()) {
            case OBJECT -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<String, JsonValue> e : new TreeMap<>(value.asJsonObject()).entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    out.append(JSON.createValue(e.getKey())).append(':');
                    write(e.getValue(), out);
                }
                out.append('}');
            }
            case ARRAY -> {
                out.append('[');
                JsonArray array = value.asJsonArray();
                for (int i = 0; i < array.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(array.get(i), out);
                }
                out.append(']');
            }
            case NUMBER -> out.append(((JsonNumber) value).bigIntegerValueExact());
            case STRING -> out.append(JSON.createValue(((JsonString) value).getString()));
            default -> out.append(value);
        }
    }
}
