package org.switchboard.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The shared Ed25519 check: RFC 8032 vector 1, the domain prefix, and bad input answered false, never thrown. */
class Ed25519VerifierTest {

    private static final byte[] PUBLIC = Hex.decode("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
    private static final byte[] SIGNATURE = Hex.decode("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
            + "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b");

    @Test
    void rfc8032Vector1() {
        assertTrue(Ed25519Verifier.verify(PUBLIC, new byte[0], SIGNATURE));
        assertTrue(Ed25519Verifier.verify(PUBLIC, null, new byte[0], SIGNATURE), "no domain, no prefix");
        assertFalse(Ed25519Verifier.verify(PUBLIC, new byte[] {0}, SIGNATURE), "another message");
        byte[] flipped = SIGNATURE.clone();
        flipped[0] ^= 1;
        assertFalse(Ed25519Verifier.verify(PUBLIC, new byte[0], flipped));
        byte[] otherKey = PUBLIC.clone();
        otherKey[3] ^= 1;
        assertFalse(Ed25519Verifier.verify(otherKey, new byte[0], SIGNATURE));
    }

    @Test
    void domainPrefixIsAsciiThenZeroThenMessage() {
        byte[] prefixed = Ed25519Verifier.domainPrefixed("acme:v2", "{}".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(new byte[] {'a', 'c', 'm', 'e', ':', 'v', '2', 0, '{', '}'}, prefixed);
    }

    @Test
    void aDomainSeparatedSignatureVerifiesOnlyUnderItsDomain() {
        PrivateKey seed = NodeKeys.ed25519PrivateKey(Hex.decode(NodeKeysTest.RFC8032_SECRET));
        byte[] message = "{\"type\":\"chat\",\"text\":\"grüsse\"}".getBytes(StandardCharsets.UTF_8);
        byte[] signature = NodeKeys.sign(seed, Ed25519Verifier.domainPrefixed("d:1", message));
        assertTrue(Ed25519Verifier.verify(PUBLIC, "d:1", message, signature));
        assertFalse(Ed25519Verifier.verify(PUBLIC, "d:2", message, signature), "another domain");
        assertFalse(Ed25519Verifier.verify(PUBLIC, null, message, signature), "the prefix is covered");
        assertFalse(Ed25519Verifier.verify(PUBLIC, message, signature));
    }

    @Test
    void badInputIsFalseNotAnException() {
        assertFalse(Ed25519Verifier.verify(null, new byte[0], SIGNATURE));
        assertFalse(Ed25519Verifier.verify(Arrays.copyOf(PUBLIC, 31), new byte[0], SIGNATURE));
        assertFalse(Ed25519Verifier.verify(Arrays.copyOf(PUBLIC, 33), new byte[0], SIGNATURE));
        assertFalse(Ed25519Verifier.verify(PUBLIC, new byte[0], null));
        assertFalse(Ed25519Verifier.verify(PUBLIC, new byte[0], Arrays.copyOf(SIGNATURE, 63)));
        assertFalse(Ed25519Verifier.verify(PUBLIC, (byte[]) null, SIGNATURE));
        assertFalse(Ed25519Verifier.verify(PUBLIC, "d", null, SIGNATURE));
        byte[] notAPoint = new byte[32];
        Arrays.fill(notAPoint, (byte) 0xff);
        assertFalse(Ed25519Verifier.verify(notAPoint, new byte[0], SIGNATURE));
        assertFalse(Ed25519Verifier.verify(new byte[32], new byte[0], new byte[64]));
    }
}
