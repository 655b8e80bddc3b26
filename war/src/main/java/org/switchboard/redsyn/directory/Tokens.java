package org.switchboard.redsyn.directory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import org.switchboard.crypto.Hex;

/** Node tokens: 32 random bytes shown once; only their SHA-256 is stored. */
public final class Tokens {

    private static final SecureRandom RANDOM = new SecureRandom();

    private Tokens() {
    }

    /** A new token, {@code rsn_} and 43 base64url characters. */
    public static String newToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return "rsn_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** What is stored and looked up: the hex SHA-256 of the token (tokens are random, so no salt is needed). */
    public static String hash(String token) {
        return Hex.sha256Hex(token.getBytes(StandardCharsets.UTF_8));
    }

    /** Compares two secrets in constant time. */
    public static boolean sameSecret(String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    /** A random id with a prefix, for relay-generated message ids. */
    public static String newId(String prefix) {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return prefix + HexFormat.of().formatHex(bytes);
    }
}
