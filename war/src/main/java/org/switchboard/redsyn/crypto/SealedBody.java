package org.switchboard.redsyn.crypto;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Optional;
import org.switchboard.crypto.NodeKeys;
import org.switchboard.crypto.Base64Url;
import org.switchboard.crypto.CryptoFormatException;

/**
 * The relay's view of an end-to-end encrypted body: it recognises one and checks its outer shape, and
 * never decrypts. The shape, from the protocol document:
 * {@code {"type": "application/redsyn+encrypted", "enc": {"v": 1, "alg": "P256-HKDF-SHA256-A256GCM",
 * "epk", "nonce", "ct", "files_nonce"}}}.
 */
public final class SealedBody {

    /** The body type of a sealed message. */
    public static final String TYPE = "application/redsyn+encrypted";
    /** The only algorithm suite of enc v1. */
    public static final String ALG = "P256-HKDF-SHA256-A256GCM";
    /** AES-GCM nonce length. */
    public static final int NONCE_BYTES = 12;
    /** AES-GCM tag length; every ciphertext is at least this long. */
    public static final int TAG_BYTES = 16;

    private SealedBody() {
    }

    /** Whether the body declares itself encrypted ({@code type} is application/redsyn+encrypted). */
    public static boolean isEncrypted(JsonValue body) {
        if (body == null || body.getValueType() != JsonValue.ValueType.OBJECT) {
            return false;
        }
        JsonValue type = body.asJsonObject().get("type");
        return type instanceof JsonString && TYPE.equals(((JsonString) type).getString());
    }

    /**
     * What is wrong with an encrypted body's shape, or empty when it is well formed: enc.v is 1, alg is
     * the documented suite, epk a 65-byte P-256 point on the curve, nonce 12 bytes, ct at least the
     * 16-byte tag, and files_nonce 12 bytes exactly when the envelope carries files (else "" or absent).
     *
     * @param filesPresent whether the envelope carries {@code files}
     */
    public static Optional<String> problem(JsonValue body, boolean filesPresent) {
        return check(body, filesPresent);
    }

    /** Like {@link #problem(JsonValue, boolean)} without relating files_nonce to the envelope's files. */
    public static Optional<String> problem(JsonValue body) {
        return check(body, null);
    }

    private static Optional<String> check(JsonValue body, Boolean filesPresent) {
        if (!isEncrypted(body)) {
            return Optional.of("body.type must be " + TYPE);
        }
        JsonValue encValue = body.asJsonObject().get("enc");
        if (encValue == null || encValue.getValueType() != JsonValue.ValueType.OBJECT) {
            return Optional.of("an encrypted body needs enc {v, alg, epk, nonce, ct, files_nonce}");
        }
        JsonObject enc = encValue.asJsonObject();
        JsonValue v = enc.get("v");
        if (!(v instanceof JsonNumber) || !((JsonNumber) v).bigDecimalValue().stripTrailingZeros().equals(java.math.BigDecimal.ONE)) {
            return Optional.of("enc.v must be 1");
        }
        if (!ALG.equals(string(enc, "alg"))) {
            return Optional.of("enc.alg must be " + ALG);
        }
        try {
            String epk = require(enc, "epk");
            try {
                NodeKeys.p256PublicKey(epk);
            } catch (CryptoFormatException e) {
                return Optional.of("enc.epk: " + e.getMessage());
            }
            Base64Url.decode(require(enc, "nonce"), NONCE_BYTES, "enc.nonce");
            if (Base64Url.decode(require(enc, "ct")).length < TAG_BYTES) {
                return Optional.of("enc.ct is shorter than the AES-GCM tag");
            }
            String filesNonce = string(enc, "files_nonce");
            boolean hasFilesNonce = filesNonce != null && !filesNonce.isEmpty();
            if (Boolean.TRUE.equals(filesPresent) && !hasFilesNonce) {
                return Optional.of("sealed files need enc.files_nonce");
            }
            if (Boolean.FALSE.equals(filesPresent) && hasFilesNonce) {
                return Optional.of("enc.files_nonce must be empty without files");
            }
            if (hasFilesNonce) {
                Base64Url.decode(filesNonce, NONCE_BYTES, "enc.files_nonce");
            }
        } catch (CryptoFormatException e) {
            return Optional.of(e.getMessage());
        }
        return Optional.empty();
    }

    private static String require(JsonObject enc, String name) {
        String value = string(enc, name);
        if (value == null) {
            throw new CryptoFormatException("enc." + name + " is required, base64url");
        }
        return value;
    }

    private static String string(JsonObject object, String name) {
        JsonValue value = object.get(name);
        return value instanceof JsonString ? ((JsonString) value).getString() : null;
    }
}
