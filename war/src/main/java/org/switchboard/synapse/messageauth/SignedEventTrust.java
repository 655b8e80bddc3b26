package org.switchboard.synapse.messageauth;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.switchboard.synapse.security.PolicyFileException;
import org.switchboard.synapse.security.PolicyFiles;

/**
 * The Ed25519 signed-event trust bundle of §6.4, {@code {"keys":[{key_id, public_key, senders,
 * projects?, expires_at?, revoked?}]}}: raw 32-byte public keys (base64) bound to senders. Loaded
 * strictly like the HMAC key file (unknown fields, empty senders, bad keys, duplicate ids refused).
 */
public final class SignedEventTrust {

    /** Configuration key of the file. */
    public static final String CONFIG_KEY = "hub.signed-event-trust";

    private static final Set<String> KEY_FIELDS = Set.of("key_id", "public_key", "senders", "projects",
            "expires_at", "revoked");

    /** One trusted key; {@code projects} empty = any project; {@code expiresAt} NaN = never. */
    public record Entry(String keyId, byte[] publicKey, Set<String> senders, Set<String> projects,
                        double expiresAt, boolean revoked) {
    }

    private final Map<String, Entry> byId;

    private SignedEventTrust(Map<String, Entry> byId) {
        this.byId = Map.copyOf(byId);
    }

    /** A bundle built in code (tests). */
    public static SignedEventTrust of(Entry... entries) {
        Map<String, Entry> map = new LinkedHashMap<>();
        for (Entry e : entries) {
            map.put(e.keyId(), e);
        }
        return new SignedEventTrust(map);
    }

    /** Loads the bundle at {@code path}; throws {@link PolicyFileException} naming {@link #CONFIG_KEY}. */
    public static SignedEventTrust load(Path path) {
        return parse(PolicyFiles.readObject(CONFIG_KEY, path));
    }

    static SignedEventTrust parse(JsonObject document) {
        if (document.size() != 1 || !(document.get("keys") instanceof JsonArray keys) || keys.isEmpty()) {
            throw fault("the file must be {\"keys\": [...]} with at least one key");
        }
        Map<String, Entry> map = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            String where = "keys[" + i + "]";
            if (!(keys.get(i) instanceof JsonObject entry)) {
                throw fault(where + " is not an object");
            }
            for (String field : entry.keySet()) {
                if (!KEY_FIELDS.contains(field)) {
                    throw fault(where + " has an unknown field");
                }
            }
            if (!(entry.get("key_id") instanceof JsonString id) || id.getString().isEmpty()) {
                throw fault(where + ": \"key_id\" must be a non-empty string");
            }
            byte[] publicKey;
            try {
                publicKey = entry.get("public_key") instanceof JsonString pk ? Base64.getDecoder().decode(pk.getString()) : null;
            } catch (IllegalArgumentException e) {
                publicKey = null;
            }
            if (publicKey == null || publicKey.length != 32) {
                throw fault(where + ": \"public_key\" must be a base64 raw 32-byte Ed25519 key");
            }
            Set<String> senders = strings(entry.get("senders"), where + ": \"senders\"", false);
            Set<String> projects = strings(entry.get("projects"), where + ": \"projects\"", true);
            double expiresAt = Double.NaN;
            if (entry.containsKey("expires_at")) {
                if (!(entry.get("expires_at") instanceof JsonNumber n)) {
                    throw fault(where + ": \"expires_at\" must be a number (epoch seconds)");
                }
                expiresAt = n.doubleValue();
            }
            JsonValue revoked = entry.getOrDefault("revoked", JsonValue.FALSE);
            if (revoked != JsonValue.TRUE && revoked != JsonValue.FALSE) {
                throw fault(where + ": \"revoked\" must be true or false");
            }
            if (map.containsKey(id.getString())) {
                throw fault(where + ": duplicate key_id");
            }
            map.put(id.getString(), new Entry(id.getString(), publicKey, senders, projects, expiresAt,
                    revoked == JsonValue.TRUE));
        }
        return new SignedEventTrust(map);
    }

    /** The entry named {@code keyId}, or null. */
    public Entry entry(String keyId) {
        return byId.get(keyId);
    }

    private static Set<String> strings(JsonValue value, String what, boolean optional) {
        if (value == null && optional) {
            return Set.of();
        }
        if (!(value instanceof JsonArray array) || array.isEmpty()) {
            throw fault(what + " must be a non-empty array of strings");
        }
        Set<String> out = new LinkedHashSet<>();
        for (JsonValue v : array) {
            if (!(v instanceof JsonString s) || s.getString().isBlank()) {
                throw fault(what + " must be a non-empty array of strings");
            }
            out.add(s.getString());
        }
        return Set.copyOf(out);
    }

    private static PolicyFileException fault(String text) {
        return new PolicyFileException(CONFIG_KEY, text);
    }
}
