package org.switchboard.itests.support;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.util.Arrays;

/** Deterministic Ed25519 keys for tests that sign registrations: the same seed always gives the same key. */
public final class FixedEd25519 {

    private FixedEd25519() {
    }

    /** The 32-byte seed {@code first, first+1, …, first+31}. */
    public static byte[] seed(int first) {
        byte[] seed = new byte[32];
        for (int i = 0; i < 32; i++) {
            seed[i] = (byte) (first + i);
        }
        return seed;
    }

    /** The key pair whose private key is {@code seed} (the JDK draws the seed from the given randomness). */
    public static KeyPair pair(byte[] seed) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
            generator.initialize(255, new SecureRandom() {
                @Override
                public void nextBytes(byte[] bytes) {
                    System.arraycopy(seed, 0, bytes, 0, bytes.length);
                }
            });
            return generator.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The raw 32-byte public key (the end of its X.509 encoding). */
    public static byte[] rawPublic(KeyPair pair) {
        byte[] der = pair.getPublic().getEncoded();
        return Arrays.copyOfRange(der, der.length - 32, der.length);
    }
}
