package org.switchboard.itests.redsyn.crypto;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * RFC 8785 canonical JSON, written for the test client independently of the relay's code. It covers
 * what REDSYN envelopes in these tests hold: strings, whole numbers, booleans, null, arrays, objects.
 */
final class Jcs {

    private Jcs() {
    }

    static String of(JsonValue v) {
        StringBuilder out = new StringBuilder();
        write(v, out);
        return out.toString();
    }

    private static void write(JsonValue v, StringBuilder out) {
        switch (v.getValueType()) {
            case NULL -> out.append("null");
            case TRUE -> out.append("true");
            case FALSE -> out.append("false");
            case STRING -> string(((JsonString) v).getString(), out);
            case NUMBER -> {
                JsonNumber n = (JsonNumber) v;
                if (!n.isIntegral() || n.bigDecimalValue().abs().doubleValue() > 9.007199254740992E15) {
                    throw new IllegalArgumentException("the test client only canonicalises safe integers: " + n);
                }
                out.append(n.bigDecimalValue().toBigIntegerExact());
            }
            case ARRAY -> {
                out.append('[');
                JsonArray a = (JsonArray) v;
                for (int i = 0; i < a.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(a.get(i), out);
                }
                out.append(']');
            }
            case OBJECT -> {
                JsonObject o = (JsonObject) v;
                List<String> names = new ArrayList<>(o.keySet());
                names.sort(String::compareTo); // UTF-16 code unit order, as RFC 8785 section 3.2.3 asks
                out.append('{');
                boolean first = true;
                for (String name : names) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    string(name, out);
                    out.append(':');
                    write(o.get(name), out);
                }
                out.append('}');
            }
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
