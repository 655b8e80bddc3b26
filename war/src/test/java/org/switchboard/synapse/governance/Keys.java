package org.switchboard.synapse.governance;

import jakarta.json.JsonObject;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.util.Base64;
import org.switchboard.crypto.NodeKeys;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.identity.RegistrationProof;

/** A fixed Ed25519 key (seed bytes {@code first, first+1, …}) that signs v1 registration proofs, for the governance tests. */
final class Keys {

    final PrivateKey privateKey;
    final byte[] publicKey;

    Keys(int first) {
        byte[] seed = new byte[32];
        for (int i = 0; i < 32; i++) {
            seed[i] = (byte) (first + i);
        }
        privateKey = NodeKeys.ed25519PrivateKey(seed);
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
            generator.initialize(255, new SecureRandom() {
                @Override
                public void nextBytes(byte[] bytes) {
                    System.arraycopy(seed, 0, bytes, 0, bytes.length);
                }
            });
            publicKey = NodeKeys.ed25519Raw(generator.generateKeyPair().getPublic());
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    String publicBase64() {
        return Base64.getEncoder().encodeToString(publicKey);
    }

    /** {@code frame} with identity_public_key and a v1 signature by this key under {@code keyId}. */
    JsonObject sign(JsonObject frame, String keyId) {
        JsonObject unsigned = Jsons.PROVIDER.createObjectBuilder(frame).add("identity_public_key", publicBase64())
                .add("signature", Jsons.PROVIDER.createObjectBuilder().add("version", 1).add("key_id", keyId)
                        .add("algorithm", "ed25519")).build();
        byte[] sig = NodeKeys.sign(privateKey, RegistrationProof.signedBytes(unsigned));
        return Jsons.PROVIDER.createObjectBuilder(unsigned).add("signature", Jsons.PROVIDER.createObjectBuilder(
                unsigned.getJsonObject("signature")).add("value", Base64.getEncoder().encodeToString(sig))).build();
    }
}
