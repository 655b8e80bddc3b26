package org.switchboard.synapse.messageauth;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.switchboard.synapse.security.PolicyFileException;
import org.switchboard.synapse.security.PolicyFiles;

/**
 * The HMAC key file of §6.3, {@code {"keys":[{"kid","secret","senders":[...],"revoked"?}]}}, loaded
 * strictly: unknown fields, an empty sender list, an empty secret or a duplicate kid refuse the file.
 * Faults name the key and the entry's index, never a secret.
 */
public final class MessageAuthKeys {

    /** Configuration key of the file. */
    public static final String CONFIG_KEY = "hub.message-auth.key-file";

    private static final Set<String> TOP_FIELDS = Set.of("keys");
    private static final Set<String> KEY_FIELDS = Set.of("kid", "secret", "senders", "revoked");

    /** One key: the secret's bytes (UTF-8 of the configured string) bound to its senders. */
    public record Key(String kid, byte[] secret, Set<String> senders, boolean revoked) {
        @Override
        public String toString() {
            return "Key[" + kid + ", senders=" + senders + ", revoked=" + revoked + "]"; // never the secret
        }
    }

    private final Map<String, Key> byKid;

    private MessageAuthKeys(Map<String, Key> byKid) {
        this.byKid = Map.copyOf(byKid);
    }

    /** Keys built in code (tests). */
    public static MessageAuthKeys of(Key... keys) {
        Map<String, Key> map = new LinkedHashMap<>();
        for (Key key : keys) {
            map.put(key.kid(), key);
        }
        return new MessageAuthKeys(map);
    }

    /** Loads the file at {@code path}; throws {@link PolicyFileException} naming {@link #CONFIG_KEY}. */
    public static MessageAuthKeys load(Path path) {
        return parse(PolicyFiles.readObject(CONFIG_KEY, path));
    }

    /** Validates an already-read document. */
    static MessageAuthKeys parse(JsonObject document) {
        unknownFields(document, TOP_FIELDS, "the file");
        if (!(document.get("keys") instanceof JsonArray keys) || keys.isEmpty()) {
            throw fault("\"keys\" must be a non-empty array");
        }
        Map<String, Key> map = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            String where = "keys[" + i + "]";
            if (!(keys.get(i) instanceof JsonObject entry)) {
                throw fault(where + " is not an object");
            }
            unknownFields(entry, KEY_FIELDS, where);
            String kid = text(entry, "kid", where);
            String secret = text(entry, "secret", where);
            if (!(entry.get("senders") instanceof JsonArray senderArray) || senderArray.isEmpty()) {
                throw fault(where + ": \"senders\" must list at least one sender (an empty list fails closed)");
            }
            Set<String> senders = new LinkedHashSet<>();
            for (JsonValue s : senderArray) {
                if (!(s instanceof JsonString str) || str.getString().isBlank()) {
                    throw fault(where + ": every sender must be a non-empty string");
                }
                senders.add(str.getString());
            }
            JsonValue revoked = entry.getOrDefault("revoked", JsonValue.FALSE);
            if (revoked != JsonValue.TRUE && revoked != JsonValue.FALSE) {
                throw fault(where + ": \"revoked\" must be true or false");
            }
            if (map.containsKey(kid)) {
                throw fault(where + ": duplicate kid");
            }
            map.put(kid, new Key(kid, secret.getBytes(StandardCharsets.UTF_8), Set.copyOf(senders),
                    revoked == JsonValue.TRUE));
        }
        return new MessageAuthKeys(map);
    }

    /** The key named {@code kid}, or null. */
    public Key key(String kid) {
        return byKid.get(kid);
    }

    /** How many keys are configured. */
    public int size() {
        return byKid.size();
    }

    private static String text(JsonObject entry, String field, String where) {
        if (!(entry.get(field) instanceof JsonString s) || s.getString().isEmpty()) {
            throw fault(where + ": \"" + field + "\" must be a non-empty string");
        }
        return s.getString();
    }

    private static void unknownFields(JsonObject object, Set<String> allowed, String where) {
        for (String field : object.keySet()) {
            if (!allowed.contains(field)) {
                // a field name is the operator's text, not a secret; still bound its length
                throw fault(where + " has an unknown field \"" + field.substring(0, Math.min(field.length(), 40)) + "\"");
            }
        }
    }

    private static PolicyFileException fault(String text) {
        return new PolicyFileException(CONFIG_KEY, text);
    }
}
