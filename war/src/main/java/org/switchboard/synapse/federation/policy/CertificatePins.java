package org.switchboard.synapse.federation.policy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.HexFormat;

/** Certificate pins as the federation settings write them: {@code sha256:} and the lowercase hex SHA-256 of the DER. */
public final class CertificatePins {

    /** The prefix every pin carries. */
    public static final String PREFIX = "sha256:";

    private CertificatePins() {
    }

    /** The pin of {@code certificate}: {@code sha256:<64 lowercase hex>} of its DER encoding. */
    public static String of(X509Certificate certificate) throws CertificateEncodingException {
        return PREFIX + HexFormat.of().formatHex(sha256(certificate.getEncoded()));
    }

    /** The pin of a certificate's DER bytes. */
    public static String ofDer(byte[] der) {
        return PREFIX + HexFormat.of().formatHex(sha256(der));
    }

    /**
     * True when {@code presented} is one of {@code pinned}. Every pin is compared in constant time and
     * all are compared, so the answer's timing does not say which pin came close.
     */
    public static boolean matches(String presented, Collection<String> pinned) {
        if (presented == null || pinned.isEmpty()) {
            return false;
        }
        byte[] p = presented.getBytes(StandardCharsets.US_ASCII);
        boolean match = false;
        for (String pin : pinned) {
            match |= MessageDigest.isEqual(p, pin.getBytes(StandardCharsets.US_ASCII));
        }
        return match;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
