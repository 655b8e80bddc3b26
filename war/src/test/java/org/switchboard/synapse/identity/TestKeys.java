package org.switchboard.synapse.identity;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.StringReader;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.util.Base64;
import org.switchboard.crypto.NodeKeys;
import org.switchboard.json.Jsons;

/** Fixed Ed25519 keys (seed bytes {@code first, first+1, …}) and a v1 registration-proof signer for the tests. */
public final class TestKeys {

    final byte[] seed = new byte[32];
    final PrivateKey privateKey;
    public final byte[] publicKey;

    public TestKeys(int first) {
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

    public String publicBase64() {
        return Base64.getEncoder().encodeToString(publicKey);
    }

    /** {@code frame} plus identity_public_key and a v1 signature by this key under {@code keyId}. */
    public JsonObject sign(JsonObject frame, String keyId) {
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder(frame).add("identity_public_key", publicBase64())
                .add("signature", Jsons.PROVIDER.createObjectBuilder().add("version", 1).add("key_id", keyId)
                        .add("algorithm", "ed25519"));
        JsonObject unsigned = b.build();
        byte[] sig = NodeKeys.sign(privateKey, RegistrationProof.signedBytes(unsigned));
        JsonObject signature = Jsons.PROVIDER.createObjectBuilder(unsigned.getJsonObject("signature"))
                .add("value", Base64.getEncoder().encodeToString(sig)).build();
        return Jsons.PROVIDER.createObjectBuilder(unsigned).add("signature", signature).build();
    }

    static JsonObject json(String text) {
        return Jsons.PROVIDER.createReader(new StringReader(text)).readObject();
    }

    static JsonObject heartbeat(String sender) {
        return json("{\"type\":\"heartbeat\",\"sender\":\"" + sender + "\",\"target\":\"all\",\"payload\":\"hi\"}");
    }
}
