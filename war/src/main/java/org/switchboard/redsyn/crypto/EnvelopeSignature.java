package org.switchboard.redsyn.crypto;

import org.switchboard.json.Jsons;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.switchboard.crypto.NodeKeys;
import org.switchboard.crypto.Base64Url;
import org.switchboard.crypto.Hex;
import org.switchboard.crypto.CryptoFormatException;

/**
 * The REDSYN envelope signature (protocol document, "Firmas"): the exact payload a node signs, the
 * relay's check of an arriving {@code sig}, the {@code sig} object it delivers, the receiver's own
 * check, and signing for clients.
 *
 * <p>The signed payload is the RFC 8785 canonical JSON of exactly these twelve members:
 * {@code v, id, kind, from, to, thread, reply_to, ts, body, refs, files_sha256, error}. Text fields
 * that are missing or null become {@code ""}; {@code files_sha256} is the lower-case hex SHA-256 of the
 * zip's bytes (or {@code ""} without files) and replaces the zip. For the other members, which the
 * document leaves open when absent: {@code v} defaults to 1, {@code refs} to {@code []}, {@code error}
 * to {@code false}, {@code body} to {@code null}; {@code ts} is required.
 */
public final class EnvelopeSignature {

    /** The only signature algorithm of REDSYN v1. */
    public static final String ALG = "ed25519";
    /** How far ts may be from the relay's clock, either way, in seconds ("diez minutos"). */
    public static final long WINDOW_SECONDS = 600;
    /** The envelope members the signature covers, in the document's order. */
    public static final List<String> COVERED_FIELDS = List.of(
            "v", "id", "kind", "from", "to", "thread", "reply_to", "ts", "body", "refs", "files_sha256", "error");

    private static final List<String> TEXT_FIELDS = List.of("id", "kind", "from", "to", "thread", "reply_to");

    private EnvelopeSignature() {
    }

    // ---- the payload ------------------------------------------------------------------------------

    /**
     * The canonical JSON text a node signs for this envelope (UTF-8 encode it to get the signed bytes).
     *
     * @throws CryptoFormatException when a covered member has the wrong type or ts is missing
     */
    public static String signedPayload(JsonObject envelope) {
        return signedPayload(envelope, filesSha256(envelope));
    }

    /**
     * The canonical JSON text a node signs, with files_sha256 given by the caller (for a relay that has
     * already decoded and hashed the zip, or a receiver holding the delivered {@code files.sha256}).
     */
    public static String signedPayload(JsonObject envelope, String filesSha256) {
        Map<String, Object> payload = new LinkedHashMap<>();
        JsonValue v = present(envelope, "v");
        if (v != null && v.getValueType() != JsonValue.ValueType.NUMBER) {
            throw new CryptoFormatException("v must be a number");
        }
        payload.put("v", v == null ? 1 : v);
        for (String field : TEXT_FIELDS) {
            payload.put(field, text(envelope, field));
        }
        payload.put("ts", timestamp(envelope));
        JsonValue body = present(envelope, "body");
        payload.put("body", body == null ? JsonValue.NULL : body);
        JsonValue refs = present(envelope, "refs");
        if (refs != null && refs.getValueType() != JsonValue.ValueType.ARRAY) {
            throw new CryptoFormatException("refs must be an array");
        }
        payload.put("refs", refs == null ? List.of() : refs);
        payload.put("files_sha256", filesSha256 == null ? "" : filesSha256);
        JsonValue error = present(envelope, "error");
        if (error != null && error.getValueType() != JsonValue.ValueType.TRUE
                && error.getValueType() != JsonValue.ValueType.FALSE) {
            throw new CryptoFormatException("error must be true or false");
        }
        payload.put("error", error == null ? JsonValue.FALSE : error);
        return Rfc8785Json.canonicalizeTree(payload);
    }

    /**
     * The files_sha256 of an envelope: hex SHA-256 of the decoded {@code files.zip} when sending, the
     * {@code files.sha256} given when delivered, {@code ""} without files.
     */
    public static String filesSha256(JsonObject envelope) {
        JsonValue files = present(envelope, "files");
        if (files == null) {
            return "";
        }
        if (files.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new CryptoFormatException("files must be an object");
        }
        JsonObject filesObject = files.asJsonObject();
        JsonValue zip = present(filesObject, "zip");
        if (zip != null) {
            if (zip.getValueType() != JsonValue.ValueType.STRING) {
                throw new CryptoFormatException("files.zip must be base64 text");
            }
            return Hex.sha256Hex(decodeZip(((JsonString) zip).getString()));
        }
        JsonValue sha = present(filesObject, "sha256");
        if (sha != null && sha.getValueType() == JsonValue.ValueType.STRING) {
            return ((JsonString) sha).getString();
        }
        throw new CryptoFormatException("files needs zip (sending) or sha256 (delivered)");
    }

    /** The zip bytes of {@code files.zip}: standard base64, padding optional; the url alphabet is also read. */
    public static byte[] decodeZip(String base64) {
        try {
            return Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException standardFailed) {
            try {
                return Base64.getUrlDecoder().decode(base64);
            } catch (IllegalArgumentException e) {
                throw new CryptoFormatException("files.zip is not base64", e);
            }
        }
    }

    // ---- the relay's check ------------------------------------------------------------------------

    /**
     * The relay's check of an arriving envelope: the sig must be by {@code registeredKey} (the base64url
     * key the sending node registered, or null if it has none), cover exactly what arrived, and carry a
     * ts within ten minutes of {@code nowEpochSeconds}.
     */
    public static SignatureCheck verify(JsonObject envelope, String registeredKey, long nowEpochSeconds) {
        return verify(envelope, registeredKey, nowEpochSeconds, null);
    }

    /**
     * As {@link #verify(JsonObject, String, long)}, with the files_sha256 the relay already computed
     * from the decoded zip (so a 5 MB zip is not decoded twice); null computes it from the envelope.
     */
    public static SignatureCheck verify(JsonObject envelope, String registeredKey, long nowEpochSeconds, String filesSha256) {
        JsonValue sigValue = present(envelope, "sig");
        if (sigValue == null) {
            return SignatureCheck.unsigned();
        }
        if (sigValue.getValueType() != JsonValue.ValueType.OBJECT) {
            return malformed("sig must be an object {\"alg\", \"key\", \"value\"}");
        }
        JsonObject sig = sigValue.asJsonObject();
        String alg = optionalString(sig, "alg");
        String key = optionalString(sig, "key");
        String value = optionalString(sig, "value");
        if (!ALG.equals(alg)) {
            return malformed("sig.alg must be \"ed25519\"");
        }
        if (key == null || value == null) {
            return malformed("sig needs key and value, base64url text");
        }
        if (registeredKey == null) {
            return SignatureCheck.refused(SignatureCheck.Outcome.NO_REGISTERED_KEY,
                    "this node has not registered a signing key: PUT /nodes/key first");
        }
        if (!NodeKeys.sameKey(key, registeredKey)) {
            return SignatureCheck.refused(SignatureCheck.Outcome.WRONG_KEY,
                    "sig.key is not the key this node registered");
        }
        String payload;
        long ts;
        try {
            ts = timestamp(envelope);
            payload = filesSha256 == null ? signedPayload(envelope) : signedPayload(envelope, filesSha256);
        } catch (CryptoFormatException e) {
            return malformed(e.getMessage());
        }
        if (Math.abs(nowEpochSeconds - ts) > WINDOW_SECONDS) {
            return SignatureCheck.refused(SignatureCheck.Outcome.STALE,
                    "ts " + ts + " is more than ten minutes from the relay's clock (" + nowEpochSeconds + ")");
        }
        byte[] signature;
        try {
            signature = Base64Url.decode(value, NodeKeys.ED25519_SIGNATURE_BYTES, "sig.value");
        } catch (CryptoFormatException e) {
            return malformed(e.getMessage());
        }
        String claimedPayload = optionalString(sig, "payload");
        if (claimedPayload != null && !claimedPayload.equals(payload)) {
            return SignatureCheck.refused(SignatureCheck.Outcome.BAD_SIGNATURE,
                    "sig.payload is not the canonical form of what arrived");
        }
        PublicKey publicKey;
        try {
            publicKey = NodeKeys.ed25519PublicKey(registeredKey);
        } catch (CryptoFormatException e) {
            return SignatureCheck.refused(SignatureCheck.Outcome.WRONG_KEY, "the registered key is not an ed25519 key");
        }
        if (!NodeKeys.verify(publicKey, payload.getBytes(StandardCharsets.UTF_8), signature)) {
            return SignatureCheck.refused(SignatureCheck.Outcome.BAD_SIGNATURE,
                    "the signature does not cover exactly what arrived");
        }
        return SignatureCheck.valid(payload, key, value);
    }

    /** The delivered {@code sig}: {alg, key, value, payload, node, fingerprint}. */
    public static JsonObject deliveredSig(String key, String value, String payload, String node, String fingerprint) {
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder()
                .add("alg", ALG).add("key", key).add("value", value).add("payload", payload);
        b.add("node", node == null ? "" : node);
        b.add("fingerprint", fingerprint == null ? NodeKeys.fingerprint(key) : fingerprint);
        return b.build();
    }

    // ---- the receiver's check ---------------------------------------------------------------------

    /**
     * The receiver's own check of a delivered envelope, trusting nothing the relay says: sig.value must
     * verify over the UTF-8 bytes of sig.payload with sig.key, and the payload must say the same id,
     * kind and body as the envelope (and the same files_sha256 as {@code files.sha256}, when files came).
     *
     * @return the base64url key that signed it, or empty when there is no signature or it does not hold
     */
    public static Optional<String> signedBy(JsonObject delivered) {
        JsonValue sigValue = present(delivered, "sig");
        if (sigValue == null || sigValue.getValueType() != JsonValue.ValueType.OBJECT) {
            return Optional.empty();
        }
        JsonObject sig = sigValue.asJsonObject();
        String key = optionalString(sig, "key");
        String value = optionalString(sig, "value");
        String payload = optionalString(sig, "payload");
        if (!ALG.equals(optionalString(sig, "alg")) || key == null || value == null || payload == null) {
            return Optional.empty();
        }
        try {
            PublicKey publicKey = NodeKeys.ed25519PublicKey(key);
            byte[] signature = Base64Url.decode(value);
            if (!NodeKeys.verify(publicKey, payload.getBytes(StandardCharsets.UTF_8), signature)) {
                return Optional.empty();
            }
            Object parsed = Rfc8785Json.parse(payload);
            if (!(parsed instanceof Map)) {
                return Optional.empty();
            }
            Map<?, ?> p = (Map<?, ?>) parsed;
            boolean same = text(delivered, "id").equals(p.get("id"))
                    && text(delivered, "kind").equals(p.get("kind"))
                    && Rfc8785Json.canonicalizeTree(p.get("body")).equals(Rfc8785Json.canonicalizeTree(
                            present(delivered, "body") == null ? JsonValue.NULL : delivered.get("body")));
            JsonValue files = present(delivered, "files");
            if (same && files != null && files.getValueType() == JsonValue.ValueType.OBJECT
                    && present(files.asJsonObject(), "sha256") != null) {
                same = filesSha256(delivered).equals(p.get("files_sha256"));
            }
            return same ? Optional.of(key) : Optional.empty();
        } catch (CryptoFormatException e) {
            return Optional.empty();
        }
    }

    // ---- signing (clients) ------------------------------------------------------------------------

    /** The {@code sig} object {alg, key, value} a client attaches: Ed25519 over the signed payload. */
    public static JsonObject sign(JsonObject envelope, PrivateKey privateKey, PublicKey publicKey) {
        String payload = signedPayload(envelope);
        byte[] signature = NodeKeys.sign(privateKey, payload.getBytes(StandardCharsets.UTF_8));
        return Jsons.PROVIDER.createObjectBuilder()
                .add("alg", ALG)
                .add("key", NodeKeys.ed25519Text(publicKey))
                .add("value", Base64Url.encode(signature))
                .build();
    }

    /** The envelope with its {@code sig} member set (replacing any previous one). */
    public static JsonObject withSignature(JsonObject envelope, PrivateKey privateKey, PublicKey publicKey) {
        JsonObject sig = sign(envelope, privateKey, publicKey);
        return Jsons.PROVIDER.createObjectBuilder(envelope).add("sig", sig).build();
    }

    // ---- helpers ----------------------------------------------------------------------------------

    private static SignatureCheck malformed(String message) {
        return SignatureCheck.refused(SignatureCheck.Outcome.MALFORMED, message);
    }

    /** The member, or null when it is missing or JSON null. */
    static JsonValue present(JsonObject object, String name) {
        JsonValue value = object.get(name);
        return value == null || value.getValueType() == JsonValue.ValueType.NULL ? null : value;
    }

    private static String optionalString(JsonObject object, String name) {
        JsonValue value = present(object, name);
        return value != null && value.getValueType() == JsonValue.ValueType.STRING ? ((JsonString) value).getString() : null;
    }

    private static String text(JsonObject envelope, String field) {
        JsonValue value = present(envelope, field);
        if (value == null) {
            return "";
        }
        if (value.getValueType() != JsonValue.ValueType.STRING) {
            throw new CryptoFormatException(field + " must be text");
        }
        return ((JsonString) value).getString();
    }

    private static long timestamp(JsonObject envelope) {
        JsonValue ts = present(envelope, "ts");
        if (ts == null) {
            throw new CryptoFormatException("a signed envelope needs ts, in Unix seconds");
        }
        if (ts.getValueType() != JsonValue.ValueType.NUMBER) {
            throw new CryptoFormatException("ts must be a number of Unix seconds");
        }
        BigDecimal seconds = ((JsonNumber) ts).bigDecimalValue();
        try {
            return seconds.longValueExact();
        } catch (ArithmeticException e) {
            throw new CryptoFormatException("ts must be whole Unix seconds");
        }
    }
}
