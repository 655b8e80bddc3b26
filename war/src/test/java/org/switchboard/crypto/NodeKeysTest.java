package org.switchboard.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Key encodings, Ed25519 against RFC 8032, P-256 point checks, base64url and fingerprints. */
public class NodeKeysTest {

    // RFC 8032 section 7.1, TEST 1: secret key, public key, empty message, signature.
    public static final String RFC8032_SECRET = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
    static final String RFC8032_PUBLIC = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
    static final String RFC8032_SIGNATURE = "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
            + "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b";
    /** The RFC 8032 public key in base64url, computed with coreutils (xxd | base64 | tr). */
    public static final String RFC8032_PUBLIC_B64URL = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";

    @Test
    void rfc8032Vector1VerifiesFromRawPublicKey() {
        PublicKey key = NodeKeys.ed25519PublicKey(Hex.decode(RFC8032_PUBLIC));
        assertTrue(NodeKeys.verify(key, new byte[0], Hex.decode(RFC8032_SIGNATURE)));
        assertFalse(NodeKeys.verify(key, new byte[] {0}, Hex.decode(RFC8032_SIGNATURE)));
        byte[] flipped = Hex.decode(RFC8032_SIGNATURE);
        flipped[5] ^= 1;
        assertFalse(NodeKeys.verify(key, new byte[0], flipped));
    }

    @Test
    void rfc8032Vector1SignsFromSeed() {
        byte[] signature = NodeKeys.sign(NodeKeys.ed25519PrivateKey(Hex.decode(RFC8032_SECRET)), new byte[0]);
        assertEquals(RFC8032_SIGNATURE, Hex.encode(signature));
    }

    @Test
    void ed25519RawAndTextRoundTrip() {
        PublicKey key = NodeKeys.ed25519PublicKey(RFC8032_PUBLIC_B64URL);
        assertEquals(RFC8032_PUBLIC, Hex.encode(NodeKeys.ed25519Raw(key)));
        assertEquals(RFC8032_PUBLIC_B64URL, NodeKeys.ed25519Text(key));

        KeyPair generated = NodeKeys.newEd25519KeyPair();
        String text = NodeKeys.ed25519Text(generated.getPublic());
        assertEquals(43, text.length());
        PublicKey parsed = NodeKeys.ed25519PublicKey(text);
        byte[] message = "hello".getBytes();
        assertTrue(NodeKeys.verify(parsed, message, NodeKeys.sign(generated.getPrivate(), message)));
        assertArrayEquals(generated.getPublic().getEncoded(), parsed.getEncoded());
    }

    @Test
    void ed25519WrongLengthsAreRefused() {
        assertThrows(CryptoFormatException.class, () -> NodeKeys.ed25519PublicKey(new byte[31]));
        assertThrows(CryptoFormatException.class, () -> NodeKeys.ed25519PublicKey(Base64Url.encode(new byte[33])));
        PublicKey key = NodeKeys.ed25519PublicKey(RFC8032_PUBLIC_B64URL);
        assertFalse(NodeKeys.verify(key, new byte[0], Arrays.copyOf(Hex.decode(RFC8032_SIGNATURE), 63)));
    }

    @Test
    void fingerprintIsSha256HexOfRawSigningKey() {
        // Expected value computed with coreutils: xxd -r -p | sha256sum
        assertEquals("21fe31dfa154a261626bf854046fd2271b7bed4b6abe45aa58877ef47f9721b9",
                NodeKeys.fingerprint(RFC8032_PUBLIC_B64URL));
    }

    @Test
    void base64urlHasNoPaddingAndRefusesStandardAlphabet() {
        assertEquals("-_8", Base64Url.encode(new byte[] {(byte) 0xfb, (byte) 0xff}));
        assertArrayEquals(new byte[] {(byte) 0xfb, (byte) 0xff}, Base64Url.decode("-_8"));
        assertArrayEquals(new byte[] {(byte) 0xfb, (byte) 0xff}, Base64Url.decode("-_8="));
        assertThrows(CryptoFormatException.class, () -> Base64Url.decode("+/8"));
        assertThrows(CryptoFormatException.class, () -> Base64Url.decode("ab c"));
        assertTrue(NodeKeys.sameKey(RFC8032_PUBLIC_B64URL, RFC8032_PUBLIC_B64URL + "="));
        assertFalse(NodeKeys.sameKey(RFC8032_PUBLIC_B64URL, NodeKeys.ed25519Text(NodeKeys.newEd25519KeyPair().getPublic())));
    }

    @Test
    void p256RoundTripsThroughUncompressedPoint() {
        for (int i = 0; i < 20; i++) {
            ECPublicKey key = (ECPublicKey) NodeKeys.newP256KeyPair().getPublic();
            byte[] raw = NodeKeys.p256Raw(key);
            assertEquals(65, raw.length);
            assertEquals(0x04, raw[0]);
            ECPublicKey parsed = NodeKeys.p256PublicKey(raw);
            assertEquals(key.getW(), parsed.getW());
            assertEquals(key, NodeKeys.p256PublicKey(NodeKeys.p256Text(key)));
        }
    }

    @Test
    void p256OffCurveAndBadEncodingsAreRefused() {
        byte[] raw = NodeKeys.p256Raw((ECPublicKey) NodeKeys.newP256KeyPair().getPublic());
        byte[] offCurve = raw.clone();
        offCurve[64] ^= 1;
        assertThrows(CryptoFormatException.class, () -> NodeKeys.p256PublicKey(offCurve));
        byte[] compressedTag = raw.clone();
        compressedTag[0] = 0x02;
        assertThrows(CryptoFormatException.class, () -> NodeKeys.p256PublicKey(compressedTag));
        assertThrows(CryptoFormatException.class, () -> NodeKeys.p256PublicKey(Arrays.copyOf(raw, 64)));
        byte[] beyondField = new byte[65];
        Arrays.fill(beyondField, (byte) 0xff);
        beyondField[0] = 0x04;
        assertThrows(CryptoFormatException.class, () -> NodeKeys.p256PublicKey(beyondField));
    }
}
