package org.switchboard.synapse.identity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.switchboard.crypto.NodeKeys;
import org.switchboard.json.Jsons;

/**
 * The v1 registration proof against published vectors: key = Ed25519 seed 0x01..0x20, frame with
 * non-ASCII text (ë, ß, an astral emoji) and a token; the signed bytes are CJ-UTF8 with only
 * {@code signature.value} removed, token included.
 */
class RegistrationProofTest {

    static final String PUBLIC_KEY = "ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=";
    static final String SIGNED_TEXT = "{\"identity_public_key\":\"ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=\","
            + "\"payload\":\"grüße 🚀\",\"sender\":\"ACME/zoë\",\"signature\":{\"algorithm\":\"ed25519\","
            + "\"key_id\":\"acme:zoe:1\",\"signed_at\":1790000000.0,\"version\":1},\"target\":\"all\",\"token\":\"t0k\","
            + "\"type\":\"heartbeat\"}";
    static final String SIGNATURE = "pGrQvr+Cmj7/gGW8J56LIVF+iFM+ws+IkWqOj6SuzUPQn6eC4GX0eY0TPaPzfzzXT1MqA0xJJrYGnXRKwhu/AQ==";

    /** The vector frame as a client sends it (members in another order, value present). */
    static JsonObject vectorFrame(String token, String signatureValue) {
        return TestKeys.json("{\"type\":\"heartbeat\",\"sender\":\"ACME/zoë\",\"target\":\"all\",\"token\":\"" + token
                + "\",\"payload\":\"grüße 🚀\",\"identity_public_key\":\"" + PUBLIC_KEY + "\",\"signature\":{\"version\":1,"
                + "\"key_id\":\"acme:zoe:1\",\"algorithm\":\"ed25519\",\"signed_at\":1790000000.0,\"value\":\""
                + signatureValue + "\"}}");
    }

    @Test
    void theFixedKeyAndSignedBytesMatchThePublishedVector() {
        TestKeys keys = new TestKeys(1);
        assertEquals(PUBLIC_KEY, keys.publicBase64());
        byte[] signed = RegistrationProof.signedBytes(vectorFrame("t0k", SIGNATURE));
        assertEquals(SIGNED_TEXT, new String(signed, StandardCharsets.UTF_8));
        // Ed25519 is deterministic: the published signature is the one the fixed key makes
        assertEquals(SIGNATURE, Base64.getEncoder().encodeToString(NodeKeys.sign(keys.privateKey, signed)));
    }

    @Test
    void thePublishedSignatureVerifiesAndAnyChangeBreaksIt() {
        byte[] key = Base64.getDecoder().decode(PUBLIC_KEY);
        assertTrue(RegistrationProof.verifies(vectorFrame("t0k", SIGNATURE), key));
        assertFalse(RegistrationProof.verifies(vectorFrame("t0K", SIGNATURE), key), "the token is covered");
        JsonObject frame = vectorFrame("t0k", SIGNATURE);
        assertFalse(RegistrationProof.verifies(Jsons.PROVIDER.createObjectBuilder(frame).add("payload", "grüsse 🚀").build(), key));
        assertFalse(RegistrationProof.verifies(Jsons.PROVIDER.createObjectBuilder(frame).add("extra", 1).build(), key));
        assertFalse(RegistrationProof.verifies(frame, new TestKeys(2).publicKey), "another key");
        byte[] sig = Base64.getDecoder().decode(SIGNATURE);
        sig[0] ^= 1;
        assertFalse(RegistrationProof.verifies(vectorFrame("t0k", Base64.getEncoder().encodeToString(sig)), key));
    }

    @Test
    void urlSafeAndUnpaddedBase64AreAccepted() {
        String url = Base64.getUrlEncoder().withoutPadding().encodeToString(Base64.getDecoder().decode(SIGNATURE));
        assertTrue(RegistrationProof.verifies(vectorFrame("t0k", url), Base64.getDecoder().decode(PUBLIC_KEY)));
    }

    @Test
    void malformedEnvelopesAreNamedAndNeverVerify() {
        byte[] key = Base64.getDecoder().decode(PUBLIC_KEY);
        String[][] cases = {
                {"\"nope\"", "signature is not an object"},
                {"{\"version\":1,\"algorithm\":\"ed25519\",\"value\":\"" + SIGNATURE + "\"}", "signature.key_id is missing"},
                {"{\"version\":2,\"key_id\":\"k\",\"algorithm\":\"ed25519\",\"value\":\"" + SIGNATURE + "\"}", "signature.version must be 1"},
                {"{\"version\":1,\"key_id\":\"k\",\"algorithm\":\"rsa\",\"value\":\"" + SIGNATURE + "\"}", "signature.algorithm must be ed25519"},
                {"{\"version\":1,\"key_id\":\"k\",\"algorithm\":\"ed25519\",\"domain\":\"x\",\"value\":\"" + SIGNATURE + "\"}",
                        "a v1 registration proof has no domain"},
                {"{\"version\":1,\"key_id\":\"k\",\"algorithm\":\"ed25519\",\"value\":\"!!\"}",
                        "signature.value is not a base64 Ed25519 signature"},
                {"{\"version\":1,\"key_id\":\"k\",\"algorithm\":\"ed25519\",\"value\":\"AAAA\"}",
                        "signature.value is not a base64 Ed25519 signature"},
        };
        for (String[] c : cases) {
            JsonObject frame = TestKeys.json("{\"type\":\"heartbeat\",\"sender\":\"a\",\"signature\":" + c[0] + "}");
            assertEquals(c[1], RegistrationProof.envelope(frame).fault(), c[0]);
            assertFalse(RegistrationProof.verifies(frame, key), c[0]);
        }
    }

    @Test
    void identityPublicKeyMustBe32RawBytes() {
        assertArrayEquals(new TestKeys(1).publicKey, RegistrationProof.identityPublicKey(vectorFrame("t", SIGNATURE)));
        assertNull(RegistrationProof.identityPublicKey(TestKeys.json("{\"identity_public_key\":\"AAAA\"}")));
        assertNull(RegistrationProof.identityPublicKey(TestKeys.json("{\"identity_public_key\":5}")));
        assertNull(RegistrationProof.identityPublicKey(TestKeys.json("{}")));
    }
}
