package org.switchboard.crypto;

import java.util.Base64;

/** Base64url without padding (RFC 4648 section 5), the encoding of every REDSYN key and signature. */
public final class Base64Url {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private Base64Url() {
    }

    /** Encodes bytes as base64url with no '=' padding. */
    public static String encode(byte[] bytes) {
        return ENCODER.encodeToString(bytes);
    }

    /**
     * Decodes base64url text. Trailing '=' padding is tolerated (some clients send it); characters of the
     * standard alphabet ('+', '/') and whitespace are refused.
     */
    public static byte[] decode(String text) {
        if (text == null) {
            throw new CryptoFormatException("missing base64url value");
        }
        try {
            return DECODER.decode(text);
        } catch (IllegalArgumentException e) {
            throw new CryptoFormatException("not base64url: " + e.getMessage(), e);
        }
    }

    /** Decodes base64url text and checks the decoded length. */
    public static byte[] decode(String text, int expectedLength, String what) {
        byte[] bytes = decode(text);
        if (bytes.length != expectedLength) {
            throw new CryptoFormatException(what + " must be " + expectedLength + " bytes, got " + bytes.length);
        }
        return bytes;
    }
}
