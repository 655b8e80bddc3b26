package org.switchboard.synapse.governance;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The request rules of {@code guard_denial} (synapse-advanced §7.5 step 3): a closed provider and
 * reason code, an integer path count 0…512, three lowercase SHA-256 digests, an empty payload and
 * an optional string {@code idem_key}. Stateless.
 */
public final class GuardDenialShape {

    static final Set<String> PROVIDERS = Set.of("claude", "codex", "gemini", "grok", "kimi", "opencode", "shell");
    static final Set<String> REASON_CODES = Set.of("GUARD_NO_CLAIM", "GUARD_NOT_EDITABLE", "GUARD_OWNERSHIP_AMBIGUOUS",
            "GUARD_STATE_UNREACHABLE", "GUARD_TARGET_INVALID");
    static final int MAX_PATHS = 512;
    static final int MAX_IDEM_KEY = 256;
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    private GuardDenialShape() {
    }

    /** Null when the frame is well formed; else the fault, naming the field. */
    public static String problem(JsonObject frame) {
        if (!(frame.get("provider") instanceof JsonString p) || !PROVIDERS.contains(p.getString())) {
            return "provider must be one of " + new java.util.TreeSet<>(PROVIDERS);
        }
        if (!(frame.get("reason_code") instanceof JsonString r) || !REASON_CODES.contains(r.getString())) {
            return "reason_code must be one of " + new java.util.TreeSet<>(REASON_CODES);
        }
        if (!(frame.get("path_count") instanceof JsonNumber n) || !n.isIntegral() || n.bigIntegerValue().bitLength() > 31
                || n.intValue() < 0 || n.intValue() > MAX_PATHS) {
            return "path_count must be an integer from 0 to " + MAX_PATHS;
        }
        for (String digest : new String[] {"actor_sha256", "call_sha256", "scope_sha256"}) {
            if (!(frame.get(digest) instanceof JsonString s) || !SHA256.matcher(s.getString()).matches()) {
                return digest + " must be 64 lowercase hex characters";
            }
        }
        JsonValue payload = frame.get("payload");
        if (payload != null && !(payload instanceof JsonString s && s.getString().isEmpty())
                && payload.getValueType() != JsonValue.ValueType.NULL) {
            return "payload must be empty (guard evidence is digest-only)";
        }
        JsonValue idem = frame.get("idem_key");
        if (idem != null && idem.getValueType() != JsonValue.ValueType.NULL
                && !(idem instanceof JsonString k && !k.getString().isEmpty() && k.getString().length() <= MAX_IDEM_KEY)) {
            return "idem_key must be a non-empty string of at most " + MAX_IDEM_KEY + " characters";
        }
        return null;
    }
}
