package org.switchboard.synapse.messageauth;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.wire.SynapseCanonicalJson;

/**
 * The bytes a §6.3 MAC covers: the frame exactly as received, as CJ-UTF8 (keys sorted at every
 * level, compact separators, non-ASCII raw), with only {@code auth.value} removed; and the
 * HMAC-SHA256 over them in lowercase hex.
 */
public final class MacInput {

    private MacInput() {
    }

    /** The canonical text the MAC covers; throws {@link org.switchboard.synapse.wire.NonCanonicalException} if not representable. */
    public static String text(JsonObject frame) {
        return SynapseCanonicalJson.utf8(withoutMember(frame, "auth", "value"));
    }

    /** The UTF-8 bytes of {@link #text}. */
    public static byte[] bytes(JsonObject frame) {
        return text(frame).getBytes(StandardCharsets.UTF_8);
    }

    /** Lowercase hex HMAC-SHA256 of {@code input} under {@code secret}. */
    public static String hmacHex(byte[] secret, byte[] input) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(input));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** {@code frame} with {@code member} removed from its object {@code envelope} (a copy; other members kept). */
    static JsonObject withoutMember(JsonObject frame, String envelope, String member) {
        if (!(frame.get(envelope) instanceof JsonObject inner) || !inner.containsKey(member)) {
            return frame;
        }
        JsonObjectBuilder innerCopy = Jsons.PROVIDER.createObjectBuilder(inner);
        innerCopy.remove(member);
        return Jsons.PROVIDER.createObjectBuilder(frame).add(envelope, innerCopy).build();
    }
}
