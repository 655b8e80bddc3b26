package org.switchboard.synapse.identity;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.switchboard.crypto.Ed25519Verifier;
import org.switchboard.crypto.NodeKeys;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.wire.NonCanonicalException;
import org.switchboard.synapse.wire.SynapseCanonicalJson;

/**
 * The v1 registration proof of synapse-advanced §6.4/§6.5: an Ed25519 {@code signature} envelope
 * ({@code version: 1}, {@code algorithm: "ed25519"}, {@code key_id}, {@code value}) over the CJ-UTF8
 * form of the complete first frame, {@code token} included, with only {@code signature.value} removed
 * and no domain prefix. Stateless; never throws on bad input.
 */
public final class RegistrationProof {

    /** The envelope version of registration proofs. */
    public static final int VERSION = 1;

    private RegistrationProof() {
    }

    /** What a first frame's {@code signature} member holds, or why it is unusable. */
    public record Envelope(String keyId, byte[] value, String fault) {

        /** True when the envelope is well formed (the signature itself is not checked yet). */
        public boolean wellFormed() {
            return fault == null;
        }
    }

    /** True when the frame carries a {@code signature} member (well formed or not). */
    public static boolean signed(JsonObject frame) {
        return frame.containsKey("signature") && frame.get("signature").getValueType() != JsonValue.ValueType.NULL;
    }

    /** Reads the envelope; a malformed one comes back with {@link Envelope#fault()} set. */
    public static Envelope envelope(JsonObject frame) {
        JsonValue raw = frame.get("signature");
        if (!(raw instanceof JsonObject sig)) {
            return new Envelope(null, null, "signature is not an object");
        }
        String keyId = sig.get("key_id") instanceof JsonString s ? s.getString() : null;
        if (keyId == null || keyId.isBlank() || keyId.length() > 256) {
            return new Envelope(null, null, "signature.key_id is missing");
        }
        if (!(sig.get("version") instanceof JsonNumber version) || !version.isIntegral() || version.intValue() != VERSION) {
            return new Envelope(keyId, null, "signature.version must be 1");
        }
        if (!(sig.get("algorithm") instanceof JsonString alg) || !"ed25519".equals(alg.getString())) {
            return new Envelope(keyId, null, "signature.algorithm must be ed25519");
        }
        if (sig.containsKey("domain")) {
            return new Envelope(keyId, null, "a v1 registration proof has no domain");
        }
        byte[] value = sig.get("value") instanceof JsonString v ? base64(v.getString()) : null;
        if (value == null || value.length != NodeKeys.ED25519_SIGNATURE_BYTES) {
            return new Envelope(keyId, null, "signature.value is not a base64 Ed25519 signature");
        }
        return new Envelope(keyId, value, null);
    }

    /** The raw 32-byte key of {@code identity_public_key} (base64), or null when absent or malformed. */
    public static byte[] identityPublicKey(JsonObject frame) {
        if (!(frame.get("identity_public_key") instanceof JsonString s)) {
            return null;
        }
        byte[] raw = base64(s.getString());
        return raw != null && raw.length == NodeKeys.ED25519_KEY_BYTES ? raw : null;
    }

    /**
     * The signed bytes: CJ-UTF8 of the frame with {@code signature.value} removed; null when the frame
     * has no canonical form (e.g. a NaN-like number) or no signature object.
     */
    public static byte[] signedBytes(JsonObject frame) {
        if (!(frame.get("signature") instanceof JsonObject sig)) {
            return null;
        }
        JsonObject withoutValue = Jsons.PROVIDER.createObjectBuilder(frame)
                .add("signature", Jsons.PROVIDER.createObjectBuilder(sig).remove("value")).build();
        try {
            return SynapseCanonicalJson.utf8(withoutValue).getBytes(StandardCharsets.UTF_8);
        } catch (NonCanonicalException | ArithmeticException e) {
            return null;
        }
    }

    /** True when the frame's signature is a valid v1 proof by {@code rawPublicKey} (32 bytes). */
    public static boolean verifies(JsonObject frame, byte[] rawPublicKey) {
        Envelope envelope = envelope(frame);
        if (!envelope.wellFormed() || rawPublicKey == null) {
            return false;
        }
        return Ed25519Verifier.verify(rawPublicKey, signedBytes(frame), envelope.value());
    }

    /** Standard or URL-safe base64, padding optional; null when not base64. */
    static byte[] base64(String text) {
        if (text == null || text.isEmpty() || text.length() > 1024) {
            return null;
        }
        try {
            boolean url = text.indexOf('-') >= 0 || text.indexOf('_') >= 0;
            return (url ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
