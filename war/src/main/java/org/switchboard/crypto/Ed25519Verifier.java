package org.switchboard.crypto;

import java.nio.charset.StandardCharsets;

/**
 * The one Ed25519 signature check of the code base: a raw 32-byte public key, the signed bytes
 * (optionally behind a domain prefix {@code ASCII(domain) || 0x00}) and a 64-byte signature in,
 * a yes or no out. Never throws on bad input: a key or signature that does not decode simply
 * does not verify.
 */
public final class Ed25519Verifier {

    private Ed25519Verifier() {
    }

    /** True when {@code signature} is a valid Ed25519 signature of {@code message} by {@code rawPublicKey}. */
    public static boolean verify(byte[] rawPublicKey, byte[] message, byte[] signature) {
        if (rawPublicKey == null || rawPublicKey.length != NodeKeys.ED25519_KEY_BYTES || message == null) {
            return false;
        }
        try {
            return NodeKeys.verify(NodeKeys.ed25519PublicKey(rawPublicKey), message, signature);
        } catch (CryptoFormatException e) {
            return false; // 32 bytes that are not a point on the curve: not a key, so no valid signature
        }
    }

    /** As {@link #verify(byte[], byte[], byte[])} over {@link #domainPrefixed}; {@code domain} null means no prefix. */
    public static boolean verify(byte[] rawPublicKey, String domain, byte[] message, byte[] signature) {
        return message != null && verify(rawPublicKey, domain == null ? message : domainPrefixed(domain, message), signature);
    }

    /** {@code ASCII(domain) || 0x00 || message}: what a domain-separated signature covers. */
    public static byte[] domainPrefixed(String domain, byte[] message) {
        byte[] prefix = domain.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[prefix.length + 1 + message.length];
        System.arraycopy(prefix, 0, out, 0, prefix.length);
        System.arraycopy(message, 0, out, prefix.length + 1, message.length);
        return out;
    }
}
