package org.switchboard.crypto;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Lower-case hex and SHA-256 helpers used by fingerprints and files_sha256. */
public final class Hex {

    private static final HexFormat LOWER = HexFormat.of();
    /**
     * One engine per thread (MessageDigest is not thread-safe): a provider lookup per digest was a
     * measurable share of the hot paths that digest every frame (delivery digests, message nonces).
     */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-256", e);
        }
    });

    private Hex() {
    }

    /** Lower-case hex of the bytes. */
    public static String encode(byte[] bytes) {
        return LOWER.formatHex(bytes);
    }

    /** Bytes of a hex string (either case). */
    public static byte[] decode(String hex) {
        try {
            return LOWER.parseHex(hex);
        } catch (IllegalArgumentException e) {
            throw new CryptoFormatException("not hex: " + e.getMessage(), e);
        }
    }

    /** SHA-256 digest of the bytes. */
    public static byte[] sha256(byte[] bytes) {
        return SHA256.get().digest(bytes);
    }

    /**
     * The calling thread's SHA-256 engine, for a digest fed in parts: finish with {@code digest()}, which
     * resets it, before anything else on the thread digests.
     */
    public static MessageDigest sha256Engine() {
        return SHA256.get();
    }

    /** Lower-case hex of the SHA-256 digest of the bytes. */
    public static String sha256Hex(byte[] bytes) {
        return encode(sha256(bytes));
    }
}
