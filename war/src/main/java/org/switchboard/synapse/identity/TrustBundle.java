package org.switchboard.synapse.identity;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.switchboard.synapse.security.PolicyFileException;
import org.switchboard.synapse.security.PolicyFiles;

/**
 * The operator's identity trust bundle ({@code hub.identity-trust}, synapse-advanced §6.5):
 * {@code {"keys":[{key_id, public_key, senders, projects?, expires_at?, revoked?}]}}. Loading is
 * strict: an unknown member, a duplicate key id, a key that is not 32 raw bytes or an empty sender
 * list refuses the whole file (a hub never starts half-locked). Immutable.
 */
public final class TrustBundle {

    /** The configuration key the bundle is read from. */
    public static final String KEY = "hub.identity-trust";

    private static final Set<String> MEMBERS = Set.of("key_id", "public_key", "senders", "projects", "expires_at", "revoked");

    /** One trusted registration key. */
    public record Entry(String keyId, byte[] publicKey, Set<String> senders, Set<String> projects,
                        Double expiresAt, boolean revoked) {
    }

    private final Map<String, Entry> entries;

    private TrustBundle(Map<String, Entry> entries) {
        this.entries = Map.copyOf(entries);
    }

    /** Reads and checks the file at {@code path} (via {@link PolicyFiles}); refuses with {@link PolicyFileException}. */
    public static TrustBundle load(Path path) {
        return parse(PolicyFiles.readObject(KEY, path));
    }

    /** Checks an already read bundle object; refusals name the entry index, never key material. */
    public static TrustBundle parse(JsonObject root) {
        for (String member : root.keySet()) {
            if (!"keys".equals(member)) {
                throw refusal("unknown member '" + member + "' (only \"keys\")");
            }
        }
        if (!(root.get("keys") instanceof JsonArray keys) || keys.isEmpty()) {
            throw refusal("\"keys\" must be a non-empty array");
        }
        Map<String, Entry> entries = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            Entry entry = entry(i, keys.get(i));
            if (entries.putIfAbsent(entry.keyId(), entry) != null) {
                throw refusal("keys[" + i + "]: key_id appears twice");
            }
        }
        return new TrustBundle(entries);
    }

    private static Entry entry(int i, JsonValue value) {
        String where = "keys[" + i + "]";
        if (!(value instanceof JsonObject key)) {
            throw refusal(where + " is not an object");
        }
        for (String member : key.keySet()) {
            if (!MEMBERS.contains(member)) {
                throw refusal(where + ": unknown member '" + member + "'");
            }
        }
        String keyId = key.get("key_id") instanceof JsonString s ? s.getString().trim() : "";
        if (keyId.isEmpty()) {
            throw refusal(where + ": key_id is required");
        }
        byte[] raw = key.get("public_key") instanceof JsonString s ? RegistrationProof.base64(s.getString()) : null;
        if (raw == null || raw.length != 32) {
            throw refusal(where + ": public_key must be base64 of 32 raw Ed25519 bytes");
        }
        Set<String> senders = strings(where, "senders", key.get("senders"));
        if (senders == null || senders.isEmpty()) {
            throw refusal(where + ": senders must be a non-empty array of names (an empty list would fail closed)");
        }
        Set<String> projects = key.containsKey("projects") ? strings(where, "projects", key.get("projects")) : Set.of();
        if (projects == null) {
            throw refusal(where + ": projects must be an array of strings");
        }
        Double expiresAt = null;
        if (key.containsKey("expires_at")) {
            if (!(key.get("expires_at") instanceof JsonNumber n)) {
                throw refusal(where + ": expires_at must be a number (epoch seconds)");
            }
            expiresAt = n.doubleValue();
        }
        boolean revoked = false;
        if (key.containsKey("revoked")) {
            JsonValue r = key.get("revoked");
            if (r != JsonValue.TRUE && r != JsonValue.FALSE) {
                throw refusal(where + ": revoked must be true or false");
            }
            revoked = r == JsonValue.TRUE;
        }
        return new Entry(keyId, raw, senders, projects, expiresAt, revoked);
    }

    private static Set<String> strings(String where, String member, JsonValue value) {
        if (!(value instanceof JsonArray array)) {
            return null;
        }
        Set<String> out = new HashSet<>();
        for (JsonValue v : array) {
            if (!(v instanceof JsonString s) || s.getString().isBlank()) {
                throw refusal(where + ": " + member + " must hold non-empty strings");
            }
            out.add(s.getString().trim());
        }
        return Set.copyOf(out);
    }

    private static PolicyFileException refusal(String fault) {
        return new PolicyFileException(KEY, fault);
    }

    /** A bundle of already checked entries (the operator bundle merged with the enrolment overlay, §7.2). */
    public static TrustBundle of(java.util.Collection<Entry> entries) {
        Map<String, Entry> map = new LinkedHashMap<>();
        for (Entry entry : entries) {
            map.putIfAbsent(entry.keyId(), entry);
        }
        return new TrustBundle(map);
    }

    /** Every entry, in file order. */
    public java.util.Collection<Entry> entries() {
        return entries.values();
    }

    /** True when some entry (revoked or not) may register {@code name}. */
    public boolean covers(String name) {
        return entries.values().stream().anyMatch(e -> e.senders().contains(name));
    }

    /** The entry for {@code keyId}, or null. */
    public Entry get(String keyId) {
        return keyId == null ? null : entries.get(keyId);
    }

    /** Number of keys. */
    public int size() {
        return entries.size();
    }
}
