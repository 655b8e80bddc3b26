package org.switchboard.synapse.capability;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.switchboard.crypto.NodeKeys;
import org.switchboard.synapse.wire.SynapseCanonicalJson;

/**
 * Verifies Ed25519-signed capability cards against an operator card trust bundle
 * (synapse-advanced §6.8), in the spec's order, and keeps the bounded per-(agent, key) history
 * that catches replayed sequences and silent capability downgrades. The result is advisory: it
 * is projected on the card and never grants authority.
 *
 * <p>Bundle: {@code {"keys":[{"key_id", "public_key" (base64 raw 32-byte Ed25519), "agents":[..],
 * "projects":[..], "expires_at"?, "revoked"?}]}}; {@code agents} and {@code projects} are
 * mandatory and non-empty, entries are exact names (no wildcards). Not thread-safe: the
 * {@link CapabilityRegistry} calls it under its own lock.
 */
public final class SignedCardVerifier implements CardVerifier {

    /** Domain prefix of {@code card_digest}. */
    static final String DIGEST_DOMAIN = "SYNAPSE-CAPABILITY-CARD-DIGEST-V1";
    /** Domain prefix of the signed bytes. */
    static final String SIGNATURE_DOMAIN = "SYNAPSE-CAPABILITY-CARD-SIGNATURE-V1";
    /** Default bound of the (agent, key) history. */
    public static final int DEFAULT_HISTORY = 4096;
    /** DER prefix that turns a raw 32-byte Ed25519 key into an X.509 SubjectPublicKeyInfo. */
    private static final HexFormat HEX = HexFormat.of();

    /** One trusted signing key. */
    record TrustedKey(String keyId, PublicKey key, Set<String> agents, Set<String> projects, Double expiresAt,
                      boolean revoked) {
    }

    /** What the hub last accepted under one (agent, key). */
    private record Seen(long sequence, Set<String> capabilities) {
    }

    private final Map<String, TrustedKey> keys;
    private final double skewSeconds;
    private final int historyLimit;
    private final Map<String, Seen> history = new HashMap<>();

    SignedCardVerifier(Map<String, TrustedKey> keys, double skewSeconds, int historyLimit) {
        this.keys = Map.copyOf(keys);
        this.skewSeconds = skewSeconds;
        this.historyLimit = historyLimit;
    }

    /** Reads a bundle file; throws {@link IllegalArgumentException} naming the first bad entry. */
    public static SignedCardVerifier load(Path file, double skewSeconds) throws IOException {
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
             JsonReader reader = PROVIDER.createReader(in)) {
            return fromBundle(reader.readObject(), skewSeconds, DEFAULT_HISTORY);
        }
    }

    /** Builds a verifier from a parsed bundle. */
    public static SignedCardVerifier fromBundle(JsonObject bundle, double skewSeconds, int historyLimit) {
        if (!(bundle.get("keys") instanceof jakarta.json.JsonArray entries)) {
            throw new IllegalArgumentException("card trust bundle needs a 'keys' array");
        }
        Map<String, TrustedKey> keys = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            if (!(entries.get(i) instanceof JsonObject entry)) {
                throw new IllegalArgumentException("card trust bundle key #" + i + " is not an object");
            }
            String keyId = entry.get("key_id") instanceof JsonString s ? s.getString() : "";
            if (keyId.isEmpty() || keys.containsKey(keyId)) {
                throw new IllegalArgumentException("card trust bundle key #" + i + ": missing or duplicate key_id");
            }
            Set<String> agents = names(entry.get("agents"));
            Set<String> projects = names(entry.get("projects"));
            if (agents.isEmpty() || projects.isEmpty()) {
                throw new IllegalArgumentException("card trust bundle key '" + keyId + "': agents and projects are mandatory");
            }
            PublicKey key;
            try {
                key = NodeKeys.ed25519PublicKey(decodeBase64(entry.get("public_key") instanceof JsonString s ? s.getString() : ""));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("card trust bundle key '" + keyId + "': public_key is not a raw Ed25519 key");
            }
            Double expiresAt = entry.get("expires_at") instanceof JsonNumber n ? n.doubleValue() : null;
            keys.put(keyId, new TrustedKey(keyId, key, agents, projects, expiresAt, entry.get("revoked") == JsonValue.TRUE));
        }
        return new SignedCardVerifier(keys, skewSeconds, historyLimit);
    }

    @Override
    public JsonObject verify(JsonObject card, double now) {
        JsonValue signatureValue = card.get("signature");
        if (signatureValue == null || signatureValue.getValueType() == JsonValue.ValueType.NULL) {
            return result("missing_signature", "unsigned card").build();
        }
        if (!(signatureValue instanceof JsonObject signature)) {
            return result("bad_signature", "signature is not an object").build();
        }
        String keyId = signature.get("key_id") instanceof JsonString s ? s.getString() : null;
        TrustedKey key = keyId == null ? null : keys.get(keyId);
        if (key == null) {
            JsonObjectBuilder b = result("unknown_key", "key is not in the card trust bundle");
            return (keyId == null ? b : b.add("key_id", keyId)).build();
        }
        if (key.revoked()) {
            return result("revoked_key", "key is revoked").add("key_id", keyId).build();
        }
        if (key.expiresAt() != null && now > key.expiresAt()) {
            return result("expired", "key expired").add("key_id", keyId).build();
        }
        String agent = card.getString("agent", "");
        if (!key.agents().contains(agent)) {
            return result("agent_mismatch", "key does not cover agent '" + agent + "'").add("key_id", keyId).build();
        }
        String project = card.getString("project", "");
        if (!key.projects().contains(project)) {
            return result("project_scope_mismatch", "key does not cover project '" + project + "'").add("key_id", keyId).build();
        }
        Double signedAt = number(signature.get("signed_at"));
        Double expiresAt = number(signature.get("expires_at"));
        String cardDigest = signature.get("card_digest") instanceof JsonString s ? s.getString() : "";
        if (!isInteger(signature.get("version"), 1) || !"ed25519".equals(stringOf(signature.get("algorithm")))
                || signedAt == null || expiresAt == null || expiresAt < signedAt
                || !cardDigest.matches("[0-9a-f]{64}") || !(signature.get("value") instanceof JsonString)) {
            return result("bad_signature", "malformed signature envelope").add("key_id", keyId).build();
        }
        Long sequence = sequence(signature.get("sequence"));
        if (sequence == null) {
            return result("sequence_mismatch", "sequence must be a non-negative integer").add("key_id", keyId).build();
        }
        JsonObjectBuilder detail = PROVIDER.createObjectBuilder().add("key_id", keyId).add("sequence", sequence)
                .add("card_digest", cardDigest).add("signed_at", signedAt).add("expires_at", expiresAt);
        if (now < signedAt - skewSeconds || now > expiresAt + skewSeconds) {
            return result("expired", "outside the signature's validity window").addAll(detail).build();
        }
        if (!cardDigest.equals(cardDigest(card))) {
            return result("bad_signature", "card_digest does not match the card").addAll(detail).build();
        }
        if (!signatureVerifies(key.key(), card, signature)) {
            return result("bad_signature", "Ed25519 signature does not verify").addAll(detail).build();
        }
        String slot = agent + '\u0000' + keyId;
        Set<String> capabilities = capabilities(card);
        Seen seen = history.get(slot);
        if (seen != null && sequence <= seen.sequence()) {
            return result("sequence_mismatch", "sequence " + sequence + " is not above " + seen.sequence())
                    .addAll(detail).build();
        }
        if (seen != null && !capabilities.containsAll(seen.capabilities())) {
            return result("capability_downgrade", "a skill, task class or contract was removed").addAll(detail).build();
        }
        if (seen == null && history.size() >= historyLimit) {
            return result("history_full", "signed-card history is full").addAll(detail).build();
        }
        history.put(slot, new Seen(sequence, capabilities));
        return result("valid", "signature verified").addAll(detail).build();
    }

    /** {@code card_digest}: SHA-256 over the digest domain, NUL, and CJ-UTF8 of the card without its signature. */
    static String cardDigest(JsonObject card) {
        JsonObject unsigned = PROVIDER.createObjectBuilder(card).remove("signature").build();
        return HEX.formatHex(sha256(domain(DIGEST_DOMAIN, SynapseCanonicalJson.utf8(unsigned))));
    }

    /** The signed bytes: the signature domain, NUL, and CJ-UTF8 of the card whose signature lacks {@code value}. */
    static byte[] signedBytes(JsonObject card, JsonObject signature) {
        JsonObject withoutValue = PROVIDER.createObjectBuilder(signature).remove("value").build();
        JsonObject signedCard = PROVIDER.createObjectBuilder(card).add("signature", withoutValue).build();
        return domain(SIGNATURE_DOMAIN, SynapseCanonicalJson.utf8(signedCard));
    }

    private static boolean signatureVerifies(PublicKey key, JsonObject card, JsonObject signature) {
        try {
            byte[] value = decodeBase64(((JsonString) signature.get("value")).getString());
            return NodeKeys.verify(key, signedBytes(card, signature), value);
        } catch (IllegalArgumentException | org.switchboard.synapse.wire.NonCanonicalException e) {
            return false;
        }
    }

    /** Standard or URL-safe base64, padding optional. */
    static byte[] decodeBase64(String text) {
        String t = text.strip().replace('-', '+').replace('_', '/');
        while (t.length() % 4 != 0) {
            t += "=";
        }
        return Base64.getDecoder().decode(t);
    }

    private static Set<String> capabilities(JsonObject card) {
        Set<String> out = new HashSet<>();
        addStrings(card.get("skills"), "skill:", out);
        addStrings(card.get("task_classes"), "task_class:", out);
        if (card.get("contracts") instanceof jakarta.json.JsonArray contracts) {
            for (JsonValue c : contracts) {
                if (c instanceof JsonObject o && o.get("task_class") instanceof JsonString s) {
                    out.add("contract:" + s.getString());
                }
            }
        }
        return out;
    }

    private static void addStrings(JsonValue list, String prefix, Set<String> out) {
        if (list instanceof jakarta.json.JsonArray array) {
            for (JsonValue v : array) {
                if (v instanceof JsonString s) {
                    out.add(prefix + s.getString());
                }
            }
        }
    }

    private static Set<String> names(JsonValue list) {
        Set<String> out = new LinkedHashSet<>();
        if (list instanceof jakarta.json.JsonArray array) {
            for (JsonValue v : array) {
                if (v instanceof JsonString s && !s.getString().isBlank() && !s.getString().contains("*")) {
                    out.add(s.getString());
                }
            }
        }
        return out;
    }

    private static JsonObjectBuilder result(String result, String detail) {
        return PROVIDER.createObjectBuilder().add("detail", detail).add("result", result);
    }

    private static Double number(JsonValue v) {
        return v instanceof JsonNumber n && Double.isFinite(n.doubleValue()) ? n.doubleValue() : null;
    }

    private static String stringOf(JsonValue v) {
        return v instanceof JsonString s ? s.getString() : null;
    }

    private static boolean isInteger(JsonValue v, long expected) {
        if (!(v instanceof JsonNumber n)) {
            return false;
        }
        BigDecimal d = n.bigDecimalValue();
        return d.stripTrailingZeros().scale() <= 0 && d.compareTo(BigDecimal.valueOf(expected)) == 0;
    }

    private static Long sequence(JsonValue v) {
        if (!(v instanceof JsonNumber n) || !n.isIntegral() || n.bigDecimalValue().signum() < 0) {
            return null;
        }
        try {
            return n.bigIntegerValueExact().longValueExact();
        } catch (ArithmeticException e) {
            return null;
        }
    }

    private static byte[] domain(String domain, String canonical) {
        byte[] prefix = domain.getBytes(StandardCharsets.US_ASCII);
        byte[] body = canonical.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[prefix.length + 1 + body.length];
        System.arraycopy(prefix, 0, out, 0, prefix.length);
        System.arraycopy(body, 0, out, prefix.length + 1, body.length);
        return out;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }

    /** Key ids in the bundle (for the start-up log line). */
    public List<String> keyIds() {
        return keys.keySet().stream().sorted().toList();
    }
}
