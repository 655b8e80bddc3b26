package org.switchboard.redsyn.crypto;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HKDF with HMAC-SHA256 (RFC 5869): extract a pseudorandom key, then expand it to the length asked. */
public final class Hkdf {

    private static final int HASH_BYTES = 32;

    private Hkdf() {
    }

    /** HKDF-Extract: PRK = HMAC-SHA256(salt, ikm); an empty or missing salt means 32 zero bytes. */
    public static byte[] extract(byte[] salt, byte[] ikm) {
        byte[] key = salt == null || salt.length == 0 ? new byte[HASH_BYTES] : salt;
        return hmac(key, ikm);
    }

    /** HKDF-Expand: T(1) | T(2) | ... truncated to {@code length} bytes, at most 255 * 32. */
    public static byte[] expand(byte[] prk, byte[] info, int length) {
        if (length < 0 || length > 255 * HASH_BYTES) {
            throw new IllegalArgumentException("HKDF-SHA256 output length must be 0 to " + 255 * HASH_BYTES);
        }
        byte[] infoBytes = info == null ? new byte[0] : info;
        byte[] out = new byte[length];
        byte[] previous = new byte[0];
        int written = 0;
        for (int counter = 1; written < length; counter++) {
            byte[] input = new byte[previous.length + infoBytes.length + 1];
            System.arraycopy(previous, 0, input, 0, previous.length);
            System.arraycopy(infoBytes, 0, input, previous.length, infoBytes.length);
            input[input.length - 1] = (byte) counter;
            previous = hmac(prk, input);
            int chunk = Math.min(HASH_BYTES, length - written);
            System.arraycopy(previous, 0, out, written, chunk);
            written += chunk;
        }
        return out;
    }

    /** Extract then expand: the output keying material. */
    public static byte[] derive(byte[] ikm, byte[] salt, byte[] info, int length) {
        return expand(extract(salt, ikm), info, length);
    }

    private static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK always has HmacSHA256", e);
        }
    }
}
