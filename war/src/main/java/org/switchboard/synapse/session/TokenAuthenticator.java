package org.switchboard.synapse.session;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.switchboard.synapse.wire.HubStrings;

/** Connect-token check of a secured hub (§4.3): constant-time compare against the shared token. */
public final class TokenAuthenticator {

    private final byte[] token;

    /** Authenticator for the configured shared token (empty = open hub). */
    public TokenAuthenticator(String token) {
        this.token = token == null ? new byte[0] : token.getBytes(StandardCharsets.UTF_8);
    }

    public boolean secured() {
        return token.length > 0;
    }

    /** Null when accepted; otherwise the {@code auth_denied} payload. */
    public String refusal(String presented) {
        if (presented == null || presented.isEmpty()) {
            return HubStrings.TOKEN_REQUIRED;
        }
        if (!MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8))) {
            return HubStrings.TOKEN_INVALID;
        }
        return null;
    }

    /** Quota principal derived from the credential, never from the sender name. */
    public static String principalFor(String presented) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(presented.getBytes(StandardCharsets.UTF_8));
            return "auth-token:" + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
