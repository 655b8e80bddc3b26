package org.switchboard.redsyn.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code Redsyn-Signature} header: {@code t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">},
 * keyed with the UTF-8 bytes of the agent's webhook secret.
 */
public final class WebhookSignature {

    /** The delivery header carrying the signature. */
    public static final String HEADER = "Redsyn-Signature";

    private static final SecureRandom RANDOM = new SecureRandom();

    private WebhookSignature() {
    }

    /** A new signing secret: {@code whsec_} and 43 base64url characters (32 random bytes). */
    public static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return "whsec_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The header value for a body sent at {@code unixSeconds}. */
    public static String header(String secret, long unixSeconds, String body) {
        return "t=" + unixSeconds + ",v1=" + hmacHex(secret, unixSeconds + "." + body);
    }

    /** Hex HMAC-SHA256 of {@code message} keyed with the UTF-8 bytes of {@code secret}. */
    public static String hmacHex(String secret, String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /**
     * What a receiver does: true when {@code header} carries a {@code v1} matching the body and a
     * {@code t} within {@code toleranceSeconds} of {@code nowSeconds}.
     */
    public static boolean verify(String secret, String header, String body, long nowSeconds, long toleranceSeconds) {
        if (header == null) {
            return false;
        }
        String t = null;
        String v1 = null;
        for (String part : header.split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                String name = part.substring(0, eq).trim();
                String value = part.substring(eq + 1).trim();
                if (name.equals("t")) {
                    t = value;
                } else if (name.equals("v1")) {
                    v1 = value;
                }
            }
        }
        if (t == null || v1 == null || !t.matches("[0-9]{1,12}")) {
            return false;
        }
        if (Math.abs(nowSeconds - Long.parseLong(t)) > toleranceSeconds) {
            return false;
        }
        byte[] expected = hmacHex(secret, t + "." + body).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, v1.getBytes(StandardCharsets.US_ASCII));
    }
}
