package org.switchboard.synapse.query;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.json.JsonWriter;
import java.io.Writer;
import java.util.Map;
import org.switchboard.json.Jsons;

/**
 * Keeps a snapshot object ({@code who_snapshot}, {@code state_snapshot.snapshot}) within a byte budget:
 * when it is larger, the entries of its array and object members are kept in order while they fit
 * and the rest are left out (each member keeps its name and type), and {@code truncated: true} is
 * added. Sizes are measured by writing to a counter that stops at the budget, so an oversized snapshot
 * is never encoded whole.
 */
public final class SnapshotTrim {

    private SnapshotTrim() {
    }

    /** {@code snapshot} itself when it fits {@code budget} bytes, else a trimmed copy marked {@code truncated}. */
    public static JsonObject fit(JsonObject snapshot, long budget) {
        if (size(snapshot, budget) <= budget) {
            return snapshot;
        }
        // what the snapshot takes with every array/object member emptied, plus the marker
        JsonObjectBuilder skeleton = Jsons.PROVIDER.createObjectBuilder();
        for (Map.Entry<String, JsonValue> member : snapshot.entrySet()) {
            skeleton.add(member.getKey(), empty(member.getValue()));
        }
        skeleton.add("truncated", true);
        long left = budget - size(skeleton.build(), budget);
        JsonObjectBuilder out = Jsons.PROVIDER.createObjectBuilder();
        for (Map.Entry<String, JsonValue> member : snapshot.entrySet()) {
            JsonValue value = member.getValue();
            if (value instanceof JsonArray array) {
                JsonArrayBuilder kept = Jsons.PROVIDER.createArrayBuilder();
                for (JsonValue item : array) {
                    long cost = size(item, left) + 1;
                    if (cost > left) {
                        break;
                    }
                    left -= cost;
                    kept.add(item);
                }
                out.add(member.getKey(), kept);
            } else if (value instanceof JsonObject object) {
                JsonObjectBuilder kept = Jsons.PROVIDER.createObjectBuilder();
                for (Map.Entry<String, JsonValue> entry : object.entrySet()) {
                    long cost = size(entry.getValue(), left) + Jsons.PROVIDER.createValue(entry.getKey()).toString().length() + 2;
                    if (cost > left) {
                        break;
                    }
                    left -= cost;
                    kept.add(entry.getKey(), entry.getValue());
                }
                out.add(member.getKey(), kept);
            } else {
                out.add(member.getKey(), value);
            }
        }
        return out.add("truncated", true).build();
    }

    private static JsonValue empty(JsonValue value) {
        if (value instanceof JsonArray) {
            return JsonValue.EMPTY_JSON_ARRAY;
        }
        if (value instanceof JsonObject) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        return value;
    }

    /** UTF-8 size of {@code value} encoded, or some number above {@code limit} once it is known to exceed it. */
    static long size(JsonValue value, long limit) {
        Counter counter = new Counter(limit);
        try (JsonWriter writer = Jsons.PROVIDER.createWriter(counter)) {
            writer.write(value);
        } catch (RuntimeException e) {
            if (counter.count <= limit) {
                throw e;
            }
        }
        return counter.count;
    }

    /** A writer that only counts UTF-8 bytes, and gives up past its limit. */
    private static final class Counter extends Writer {
        private final long limit;
        private long count;

        Counter(long limit) {
            this.limit = limit;
        }

        @Override
        public void write(char[] chars, int offset, int length) {
            for (int i = offset; i < offset + length; i++) {
                char c = chars[i];
                count += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
            }
            if (count > limit) {
                throw new Exceeded();
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }

        /** Thrown (without a stack trace) to stop writing. */
        private static final class Exceeded extends RuntimeException {
            private static final long serialVersionUID = 1L;

            Exceeded() {
                super(null, null, false, false);
            }
        }
    }
}
