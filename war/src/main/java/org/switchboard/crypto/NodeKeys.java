package org.switchboard.crypto;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;

/**
 * The two public keys a REDSYN node registers: its Ed25519 signing key (32 raw bytes) and its P-256
 * encryption key (65-byte uncompressed point), converted between their wire form and JDK key objects,
 * plus Ed25519 signing and verification and the key fingerprint.
 */
public final class NodeKeys {

    /** Length of a raw Ed25519 public key. */
    public static final int ED25519_KEY_BYTES = 32;
    /** Length of an Ed25519 signature. */
    public static final int ED25519_SIGNATURE_BYTES = 64;
    /** Length of an uncompressed P-256 point: 0x04, X, Y. */
    public static final int P256_KEY_BYTES = 65;

    /** DER SubjectPublicKeyInfo header for Ed25519 (RFC 8410): SEQUENCE, AlgorithmIdentifier 1.3.101.112, BIT STRING. */
    private static final byte[] ED25519_SPKI_PREFIX = Hex.decode("302a300506032b6570032100");
    /** DER PKCS#8 header for an Ed25519 private key seed (RFC 8410 section 7). */
    private static final byte[] ED25519_PKCS8_PREFIX = Hex.decode("302e020100300506032b657004220420");

    private static final ECParameterSpec P256 = p256Parameters();
    private static final BigInteger P256_FIELD = new BigInteger(
            "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", 16);

    private NodeKeys() {
    }

    // ---- Ed25519 ----------------------------------------------------------------------------------

    /** An Ed25519 public key from its 32 raw bytes. */
    public static PublicKey ed25519PublicKey(byte[] raw) {
        if (raw == null || raw.length != ED25519_KEY_BYTES) {
            throw new CryptoFormatException("an ed25519 public key is " + ED25519_KEY_BYTES + " bytes");
        }
        try {
            return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(concat(ED25519_SPKI_PREFIX, raw)));
        } catch (GeneralSecurityException e) {
            throw new CryptoFormatException("not an ed25519 public key", e);
        }
    }

    /** An Ed25519 public key from its base64url text (the form of public_key and sig.key). */
    public static PublicKey ed25519PublicKey(String base64url) {
        return ed25519PublicKey(Base64Url.decode(base64url, ED25519_KEY_BYTES, "an ed25519 public key"));
    }

    /** The 32 raw bytes of an Ed25519 public key. */
    public static byte[] ed25519Raw(PublicKey key) {
        byte[] der = key.getEncoded();
        if (!"Ed25519".equalsIgnoreCase(key.getAlgorithm()) && !"EdDSA".equalsIgnoreCase(key.getAlgorithm())
                || der.length != ED25519_SPKI_PREFIX.length + ED25519_KEY_BYTES
                || !Arrays.equals(der, 0, ED25519_SPKI_PREFIX.length, ED25519_SPKI_PREFIX, 0, ED25519_SPKI_PREFIX.length)) {
            throw new CryptoFormatException("not an ed25519 public key");
        }
        return Arrays.copyOfRange(der, ED25519_SPKI_PREFIX.length, der.length);
    }

    /** The base64url text of an Ed25519 public key, as a node registers it. */
    public static String ed25519Text(PublicKey key) {
        return Base64Url.encode(ed25519Raw(key));
    }

    /** An Ed25519 private key from its 32-byte seed (the "secret key" of RFC 8032). */
    public static PrivateKey ed25519PrivateKey(byte[] seed) {
        if (seed == null || seed.length != 32) {
            throw new CryptoFormatException("an ed25519 seed is 32 bytes");
        }
        try {
            return KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(concat(ED25519_PKCS8_PREFIX, seed)));
        } catch (GeneralSecurityException e) {
            throw new CryptoFormatException("not an ed25519 seed", e);
        }
    }

    /** A fresh Ed25519 key pair (what a node generates on its own machine). */
    public static KeyPair newEd25519KeyPair() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no Ed25519", e);
        }
    }

    /** The 64-byte Ed25519 signature of the message. */
    public static byte[] sign(PrivateKey key, byte[] message) {
        try {
            Signature signer = Signature.getInstance("Ed25519");
            signer.initSign(key);
            signer.update(message);
            return signer.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ed25519 signing failed", e);
        }
    }

    /** Whether the signature is a valid Ed25519 signature of the message by the key; never throws on bad input. */
    public static boolean verify(PublicKey key, byte[] message, byte[] signature) {
        if (signature == null || signature.length != ED25519_SIGNATURE_BYTES) {
            return false;
        }
        try {
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(key);
            verifier.update(message);
            return verifier.verify(signature);
        } catch (SignatureException | InvalidKeyException e) {
            return false; // a key or signature that does not decode is simply not a valid signature
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no Ed25519", e);
        }
    }

    /**
     * The fingerprint of a node: lower-case hex SHA-256 of the 32 raw bytes of its Ed25519 signing key.
     * The protocol document names the field without defining it; this is Switchboard's definition.
     */
    public static String fingerprint(byte[] rawSigningKey) {
        if (rawSigningKey.length != ED25519_KEY_BYTES) {
            throw new CryptoFormatException("an ed25519 public key is " + ED25519_KEY_BYTES + " bytes");
        }
        return Hex.sha256Hex(rawSigningKey);
    }

    /** The fingerprint (see {@link #fingerprint(byte[])}) of a base64url signing key. */
    public static String fingerprint(String signingKeyBase64url) {
        return fingerprint(Base64Url.decode(signingKeyBase64url, ED25519_KEY_BYTES, "an ed25519 public key"));
    }

    /** Whether two base64url keys denote the same bytes (so padding differences do not matter). */
    public static boolean sameKey(String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        try {
            return java.security.MessageDigest.isEqual(Base64Url.decode(a), Base64Url.decode(b));
        } catch (CryptoFormatException e) {
            return false;
        }
    }

    // ---- P-256 ------------------------------------------------------------------------------------

    /**
     * A P-256 public key from its 65-byte uncompressed encoding (0x04 || X || Y), checked to be a point
     * on the curve so that no invalid-curve point reaches an ECDH.
     */
    public static ECPublicKey p256PublicKey(byte[] uncompressed) {
        if (uncompressed == null || uncompressed.length != P256_KEY_BYTES || uncompressed[0] != 0x04) {
            throw new CryptoFormatException("a P-256 public key is 65 bytes, uncompressed (starting 0x04)");
        }
        BigInteger x = new BigInteger(1, Arrays.copyOfRange(uncompressed, 1, 33));
        BigInteger y = new BigInteger(1, Arrays.copyOfRange(uncompressed, 33, 65));
        if (!onCurve(x, y)) {
            throw new CryptoFormatException("the P-256 public key is not a point on the curve");
        }
        try {
            return (ECPublicKey) KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(new ECPoint(x, y), P256));
        } catch (GeneralSecurityException e) {
            throw new CryptoFormatException("not a P-256 public key", e);
        }
    }

    /** A P-256 public key from its base64url text (the form of enc_key, reply_key and epk). */
    public static ECPublicKey p256PublicKey(String base64url) {
        return p256PublicKey(Base64Url.decode(base64url, P256_KEY_BYTES, "a P-256 public key"));
    }

    /** The 65-byte uncompressed encoding of a P-256 public key. */
    public static byte[] p256Raw(ECPublicKey key) {
        byte[] out = new byte[P256_KEY_BYTES];
        out[0] = 0x04;
        putFixed(key.getW().getAffineX(), out, 1);
        putFixed(key.getW().getAffineY(), out, 33);
        return out;
    }

    /** The base64url text of a P-256 public key. */
    public static String p256Text(ECPublicKey key) {
        return Base64Url.encode(p256Raw(key));
    }

    /** A fresh P-256 key pair (a node's encryption key, or a message's ephemeral key). */
    public static KeyPair newP256KeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no P-256", e);
        }
    }

    private static boolean onCurve(BigInteger x, BigInteger y) {
        if (x.compareTo(P256_FIELD) >= 0 || y.compareTo(P256_FIELD) >= 0) {
            return false;
        }
        BigInteger a = P256.getCurve().getA();
        BigInteger b = P256.getCurve().getB();
        BigInteger left = y.multiply(y).mod(P256_FIELD);
        BigInteger right = x.pow(3).add(a.multiply(x)).add(b).mod(P256_FIELD);
        return left.equals(right);
    }

    private static void putFixed(BigInteger value, byte[] out, int offset) {
        byte[] bytes = value.toByteArray(); // big-endian, maybe with a leading sign byte or shorter than 32
        int length = Math.min(bytes.length, 32);
        System.arraycopy(bytes, bytes.length - length, out, offset + 32 - length, length);
    }

    private static ECParameterSpec p256Parameters() {
        try {
            AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
            parameters.init(new ECGenParameterSpec("secp256r1"));
            return parameters.getParameterSpec(ECParameterSpec.class);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no P-256", e);
        }
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
