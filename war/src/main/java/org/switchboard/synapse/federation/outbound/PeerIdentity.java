package org.switchboard.synapse.federation.outbound;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Base64;
import java.util.Set;
import org.switchboard.crypto.CryptoFormatException;
import org.switchboard.crypto.NodeKeys;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.identity.RegistrationProof;
import org.switchboard.synapse.security.PolicyFileException;
import org.switchboard.synapse.security.PolicyFiles;

/**
 * This hub's own identity key for its peer registrations (synapse-advanced §4.2: a peer proves itself
 * for attachment reads by "a verified identity-key registration"; §6.5 v1 proof): signs the first
 * frame of every peer connection so a source hub that requires identity binding can check it against
 * its trust bundle. Loaded from {@code hub.message-peer-identity-key}, an owner-only JSON file
 * {@code {"key_id", "public_key", "private_key"}} (base64 of the 32-byte key and 32-byte seed); the
 * pair must match. The private key never leaves this object.
 */
public final class PeerIdentity {

    /** The configuration key of the file. */
    public static final String KEY = "hub.message-peer-identity-key";
    private static final Set<String> FIELDS = Set.of("key_id", "public_key", "private_key");

    private final String keyId;
    private final String publicBase64;
    private final PrivateKey privateKey;

    private PeerIdentity(String keyId, String publicBase64, PrivateKey privateKey) {
        this.keyId = keyId;
        this.publicBase64 = publicBase64;
        this.privateKey = privateKey;
    }

    /** Reads the file strictly; a fault is a {@link PolicyFileException} naming {@link #KEY} (never the key material). */
    public static PeerIdentity load(Path path) {
        JsonObject o = PolicyFiles.readObject(KEY, path);
        for (String field : o.keySet()) {
            if (!FIELDS.contains(field)) {
                throw new PolicyFileException(KEY, "unknown member '" + field + "'");
            }
        }
        String keyId = o.get("key_id") instanceof JsonString s ? s.getString() : "";
        if (keyId.isBlank() || keyId.length() > 256) {
            throw new PolicyFileException(KEY, "key_id must be a non-empty string of at most 256 characters");
        }
        byte[] publicRaw = base64(o, "public_key");
        byte[] seed = base64(o, "private_key");
        try {
            PublicKey publicKey = NodeKeys.ed25519PublicKey(publicRaw);
            PrivateKey privateKey = NodeKeys.ed25519PrivateKey(seed);
            byte[] probe = "switchboard peer identity".getBytes(StandardCharsets.UTF_8);
            if (!NodeKeys.verify(publicKey, probe, NodeKeys.sign(privateKey, probe))) {
                throw new PolicyFileException(KEY, "public_key is not the key of private_key");
            }
            return new PeerIdentity(keyId, Base64.getEncoder().encodeToString(publicRaw), privateKey);
        } catch (CryptoFormatException e) {
            throw new PolicyFileException(KEY, "public_key and private_key must be base64 of 32 bytes each (Ed25519)");
        }
    }

    /** The start-up refusal line for the configured file, or null when unset or sound. */
    public static String fault(String configured) {
        if (configured == null || configured.isBlank()) {
            return null;
        }
        try {
            load(Path.of(configured.strip()));
            return null;
        } catch (PolicyFileException e) {
            return "SYNAPSE refuses to serve: " + e.getMessage();
        }
    }

    private static byte[] base64(JsonObject o, String field) {
        try {
            return o.get(field) instanceof JsonString s ? Base64.getDecoder().decode(s.getString()) : new byte[0];
        } catch (IllegalArgumentException e) {
            return new byte[0];
        }
    }

    /** The key id the source hub's trust bundle lists for this hub. */
    public String keyId() {
        return keyId;
    }

    /**
     * The registration with a v1 proof: {@code identity_public_key} and an Ed25519 {@code signature}
     * over the CJ-UTF8 form of the whole frame (token included) without {@code signature.value}.
     */
    public JsonObject sign(JsonObject registration) {
        JsonObject unsigned = Jsons.PROVIDER.createObjectBuilder(registration).add("identity_public_key", publicBase64)
                .add("signature", Jsons.PROVIDER.createObjectBuilder().add("version", RegistrationProof.VERSION)
                        .add("key_id", keyId).add("algorithm", "ed25519")).build();
        byte[] bytes = RegistrationProof.signedBytes(unsigned);
        if (bytes == null) {
            throw new IllegalStateException("registration has no canonical form");
        }
        String value = Base64.getEncoder().encodeToString(NodeKeys.sign(privateKey, bytes));
        return Jsons.PROVIDER.createObjectBuilder(unsigned).add("signature", Jsons.PROVIDER.createObjectBuilder(
                unsigned.getJsonObject("signature")).add("value", value)).build();
    }
}
