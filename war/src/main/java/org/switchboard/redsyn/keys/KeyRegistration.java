package org.switchboard.redsyn.keys;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.crypto.EncryptionKeys;
import org.switchboard.redsyn.crypto.NodeKeyCheck;
import org.switchboard.crypto.NodeKeys;

/**
 * The rules of {@code PUT /nodes/key}: the keys must be well formed ({@code enc_sig} by the signing
 * key), and a node that already has a different signing key replaces it only with {@code "rotate": true}.
 */
public final class KeyRegistration {

    /** What a {@code PUT /nodes/key} body asks for. */
    public record Request(String publicKey, String encKey, String encSig, boolean rotate) {
    }

    /**
     * The keys to store, as sent (enc_sig signs the text of enc_key, so it is kept verbatim).
     *
     * @param encKey  null when the node registers no encryption key
     * @param rotated true when this replaced a different signing key
     */
    public record Keys(String signingKey, String encKey, String encSig, String fingerprint, boolean rotated) {
    }

    private KeyRegistration() {
    }

    /** Reads the body; a member of the wrong type is refused with 422. */
    public static Request parse(JsonObject body) {
        if (body == null) {
            throw RedsynException.unprocessable("the body {\"public_key\": …} is required");
        }
        JsonValue rotate = body.get("rotate");
        if (rotate != null && rotate != JsonValue.NULL && rotate != JsonValue.TRUE && rotate != JsonValue.FALSE) {
            throw RedsynException.unprocessable("rotate must be true or false");
        }
        return new Request(text(body, "public_key"), text(body, "enc_key"), text(body, "enc_sig"), rotate == JsonValue.TRUE);
    }

    /**
     * Decides a registration.
     *
     * @param storedSigningKey the node's current signing key, or null when it has none
     * @throws RedsynException 422 for a malformed key or an enc_sig that does not verify; 409 when a
     *                         different key is already registered and {@code rotate} is not true
     */
    public static Keys decide(String storedSigningKey, Request request) {
        NodeKeyCheck check = EncryptionKeys.checkRegistration(request.publicKey(), request.encKey(), request.encSig());
        if (!check.ok()) {
            throw RedsynException.unprocessable(check.error());
        }
        boolean replacing = storedSigningKey != null && !NodeKeys.sameKey(storedSigningKey, request.publicKey());
        if (replacing && !request.rotate()) {
            throw RedsynException.conflict("this node already has a different signing key; replacing it needs \"rotate\": true");
        }
        return new Keys(request.publicKey(), request.encKey(), request.encKey() == null ? null : request.encSig(),
                check.fingerprint(), replacing);
    }

    private static String text(JsonObject body, String name) {
        JsonValue value = body.get(name);
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (!(value instanceof JsonString s)) {
            throw RedsynException.unprocessable(name + " must be base64url text");
        }
        return s.getString().isEmpty() ? null : s.getString();
    }
}
