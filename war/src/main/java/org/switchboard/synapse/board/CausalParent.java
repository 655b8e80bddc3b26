package org.switchboard.synapse.board;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validation of {@code causal_parent} on ledger writes (synapse-core §10.7, synapse-advanced §11):
 * exactly {@code hub_id}, {@code seq}, {@code event_fingerprint}. Stateless.
 */
public final class CausalParent {

    private static final Set<String> KEYS = Set.of("hub_id", "seq", "event_fingerprint");
    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{64}");

    private CausalParent() {
    }

    /**
     * The refusal reason for a present {@code causal_parent}, or null when it is absent/null or
     * valid. The handler sends {@code "Malformed frame: " + reason}.
     */
    public static String problem(JsonValue value) {
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            return "causal_parent must be an object";
        }
        JsonObject o = value.asJsonObject();
        if (!KEYS.containsAll(o.keySet())) {
            return "causal_parent has unexpected fields";
        }
        if (!(o.get("hub_id") instanceof JsonString hub) || hub.getString().isEmpty()
                || hub.getString().getBytes(StandardCharsets.UTF_8).length > 512) {
            return "causal_parent.hub_id is invalid";
        }
        if (!(o.get("seq") instanceof JsonNumber seq) || !seq.isIntegral() || seq.bigDecimalValue().signum() <= 0) {
            return "causal_parent.seq must be a positive integer";
        }
        if (!(o.get("event_fingerprint") instanceof JsonString fp) || !FINGERPRINT.matcher(fp.getString()).matches()) {
            return "causal_parent.event_fingerprint must be 64 lowercase hex digits";
        }
        return null;
    }
}
