package org.switchboard.redsyn.crypto;

import org.switchboard.json.Jsons;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.security.PrivateKey;
import java.security.PublicKey;
import org.switchboard.crypto.NodeKeys;
import org.switchboard.crypto.Base64Url;
import org.switchboard.crypto.CryptoFormatException;

/**
 * A node's P-256 encryption key and its {@code enc_sig} (protocol document, "Cifrado de extremo a
 * extremo", Claves): the node signs {@code 'redsyn-enc-v1:' + enc_key} with its Ed25519 key.
 *
 * <p>The signed message is text: the UTF-8 (here: ASCII) bytes of the prefix {@code redsyn-enc-v1:}
 * followed by the base64url text of enc_key exactly as sent, not the 65 decoded key bytes. The
 * relay must therefore store enc_key verbatim and hand back the same text.
 */
public final class EncryptionKeys {

    /** The prefix of the message enc_sig signs. */
    public static final String ENC_SIG_PREFIX = "redsyn-enc-v1:";

    private EncryptionKeys() {
    }

    /** The exact bytes enc_sig signs: UTF-8 of {@code "redsyn-enc-v1:" + encKey}. */
    public static byte[] encSigMessage(String encKey) {
        return (ENC_SIG_PREFIX + encKey).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A node's enc_sig for its enc_key (base64url of the Ed25519 signature). */
    public static String signEncKey(PrivateKey signingKey, String encKey) {
        return Base64Url.encode(NodeKeys.sign(signingKey, encSigMessage(encKey)));
    }

    /** Whether enc_sig is the signature of {@code 'redsyn-enc-v1:' + encKey} by the base64url signing key. */
    public static boolean verifyEncSig(String signingKey, String encKey, String encSig) {
        if (signingKey == null || encKey == null || encSig == null) {
            return false;
        }
        try {
            PublicKey key = NodeKeys.ed25519PublicKey(signingKey);
            return NodeKeys.verify(key, encSigMessage(encKey), Base64Url.decode(encSig));
        } catch (CryptoFormatException e) {
            return false;
        }
    }

    /**
     * The relay's check of the keys in {@code PUT /nodes/key}: public_key must be a 32-byte Ed25519 key;
     * enc_key and enc_sig come together or not at all; enc_key must be a 65-byte uncompressed P-256
     * point on the curve; enc_sig must verify with public_key. Whether a replacement needs
     * {@code "rotate": true} is the caller's rule (it knows what is stored).
     *
     * @param publicKey the signing key the enc_sig is checked with: the one in the body, or the node's
     *                  registered key when the body only brings an encryption key
     */
    public static NodeKeyCheck checkRegistration(String publicKey, String encKey, String encSig) {
        if (publicKey == null || publicKey.isEmpty()) {
            return NodeKeyCheck.refused("public_key is required: an ed25519 public key, 32 bytes, base64url");
        }
        try {
            NodeKeys.ed25519PublicKey(publicKey);
        } catch (CryptoFormatException e) {
            return NodeKeyCheck.refused("public_key: " + e.getMessage());
        }
        if (encKey == null && encSig == null) {
            return NodeKeyCheck.accepted(NodeKeys.fingerprint(publicKey));
        }
        if (encKey == null || encSig == null) {
            return NodeKeyCheck.refused("enc_key and enc_sig go together");
        }
        try {
            NodeKeys.p256PublicKey(encKey);
        } catch (CryptoFormatException e) {
            return NodeKeyCheck.refused("enc_key: " + e.getMessage());
        }
        if (!verifyEncSig(publicKey, encKey, encSig)) {
            return NodeKeyCheck.refused("enc_sig is not the ed25519 signature of 'redsyn-enc-v1:' + enc_key by public_key");
        }
        return NodeKeyCheck.accepted(NodeKeys.fingerprint(publicKey));
    }

    /** The {@code GET /agents/…/key} answer: {node, signing_key, enc_key, enc_sig, fingerprint}. */
    public static JsonObject agentKey(String node, String signingKey, String encKey, String encSig) {
        return Jsons.PROVIDER.createObjectBuilder()
                .add("node", node)
                .add("signing_key", signingKey)
                .add("enc_key", encKey)
                .add("enc_sig", encSig)
                .add("fingerprint", NodeKeys.fingerprint(signingKey))
                .build();
    }

    /**
     * A sender's check of a {@code GET /agents/…/key} answer: enc_sig verifies with signing_key, and the
     * fingerprint is that of signing_key. Pinning signing_key per person is the caller's business.
     */
    public static boolean verifyAgentKey(JsonObject answer) {
        String signingKey = string(answer, "signing_key");
        String encKey = string(answer, "enc_key");
        String encSig = string(answer, "enc_sig");
        String fingerprint = string(answer, "fingerprint");
        if (!verifyEncSig(signingKey, encKey, encSig)) {
            return false;
        }
        try {
            NodeKeys.p256PublicKey(encKey);
            return fingerprint == null || fingerprint.equals(NodeKeys.fingerprint(signingKey));
        } catch (CryptoFormatException e) {
            return false;
        }
    }

    private static String string(JsonObject object, String name) {
        JsonValue value = object.get(name);
        return value instanceof JsonString ? ((JsonString) value).getString() : null;
    }
}
