package org.switchboard.synapse.federation.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.crypto.NodeKeys;
import org.switchboard.synapse.identity.RegistrationProof;

/** This hub's identity proof on peer registrations (§4.2 "verified identity-key registration", §6.5 v1 proof). */
class PeerIdentityTest {

    @TempDir
    Path dir;

    static byte[] seed(int first) {
        byte[] seed = new byte[32];
        for (int i = 0; i < 32; i++) {
            seed[i] = (byte) (first + i);
        }
        return seed;
    }

    /** The raw public key of a seed, derived the way the JDK does it. */
    static byte[] publicOf(byte[] seed) throws Exception {
        var generator = java.security.KeyPairGenerator.getInstance("Ed25519");
        generator.initialize(255, new java.security.SecureRandom() {
            @Override
            public void nextBytes(byte[] bytes) {
                System.arraycopy(seed, 0, bytes, 0, bytes.length);
            }
        });
        KeyPair pair = generator.generateKeyPair();
        return NodeKeys.ed25519Raw(pair.getPublic());
    }

    Path file(String content) throws IOException {
        Path f = dir.resolve("peer-identity.json");
        Files.deleteIfExists(f);
        Files.createFile(f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(f, content);
        return f;
    }

    static String json(String keyId, byte[] publicRaw, byte[] seed) {
        return "{\"key_id\":\"" + keyId + "\",\"public_key\":\"" + Base64.getEncoder().encodeToString(publicRaw)
                + "\",\"private_key\":\"" + Base64.getEncoder().encodeToString(seed) + "\"}";
    }

    @Test
    void theSignedRegistrationVerifiesAgainstThePublicKeyOnly() throws Exception {
        byte[] seed = seed(11);
        byte[] publicRaw = publicOf(seed);
        PeerIdentity identity = PeerIdentity.load(file(json("hub-b-2026", publicRaw, seed)));
        JsonObject registration = ForwardFrames.registration("hub-b", "peer-secret", 1_790_000_000.0);
        JsonObject signed = identity.sign(registration);
        assertEquals("hub-b-2026", signed.getJsonObject("signature").getString("key_id"));
        assertEquals("peer-secret", signed.getString("token"), "the token stays (it is inside the signature)");
        assertTrue(RegistrationProof.verifies(signed, publicRaw));
        assertFalse(RegistrationProof.verifies(signed, publicOf(seed(12))), "another key does not verify it");
        JsonObject tampered = Json.createObjectBuilder(signed).add("sender", "hub-x").build();
        assertFalse(RegistrationProof.verifies(tampered, publicRaw));
        // as the source hub reads it: off the wire, with a fractional timestamp
        JsonObject fractional = identity.sign(ForwardFrames.registration("hub-b", "peer-secret", 1_790_000_000.125));
        try (var reader = Json.createReader(new java.io.StringReader(fractional.toString()))) {
            assertTrue(RegistrationProof.verifies(reader.readObject(), publicRaw));
        }
    }

    @Test
    void aFaultyFileIsAStartupRefusalNamingTheKey() throws Exception {
        byte[] seed = seed(11);
        assertNull(PeerIdentity.fault(""));
        assertNull(PeerIdentity.fault(file(json("k", publicOf(seed), seed)).toString()));
        String mismatch = PeerIdentity.fault(file(json("k", publicOf(seed(12)), seed)).toString());
        assertTrue(mismatch.contains(PeerIdentity.KEY) && mismatch.contains("not the key"), mismatch);
        String unknown = PeerIdentity.fault(file("{\"key_id\":\"k\",\"public_key\":\"\",\"private_key\":\"\",\"x\":1}").toString());
        assertTrue(unknown.contains("unknown member"), unknown);
        String shortKey = PeerIdentity.fault(file(json("k", Arrays.copyOf(publicOf(seed), 31), seed)).toString());
        assertTrue(shortKey.contains("32 bytes"), shortKey);
        String secret = Base64.getEncoder().encodeToString(seed);
        assertFalse(mismatch.contains(secret), "the private key is never echoed");
        Path open = file(json("k", publicOf(seed), seed));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertTrue(PeerIdentity.fault(open.toString()).contains(PeerIdentity.KEY));
    }
}
