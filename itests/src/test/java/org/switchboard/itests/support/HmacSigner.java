package org.switchboard.itests.support;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.spi.JsonProvider;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A client's side of synapse-advanced §6.3 for one key: adds an {@code auth} object (fresh nonce,
 * sequence, timestamp) to a frame and MACs CJ-UTF8 of the frame without {@code auth.value} with
 * HMAC-SHA256, lowercase hex.
 */
public final class HmacSigner {

    /** Looked up once: {@code Json.*} finds the provider again on every call, which dominated a benchmark client. */
    private static final JsonProvider JSON = JsonProvider.provider();

    private static final AtomicLong NONCES = new AtomicLong();

    private final String kid;
    private final String secret;
    private final Mac mac;

    /** A signer for key {@code kid} holding {@code secret}. */
    public HmacSigner(String kid, String secret) {
        this.kid = kid;
        this.secret = secret;
        try {
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public String kid() {
        return kid;
    }

    public String secret() {
        return secret;
    }

    /** Lowercase hex HMAC-SHA256 of the UTF-8 of {@code text} under {@code secret}. */
    public static String hmac(String secret, String text) {
        return new HmacSigner("", secret).mac(text);
    }

    /** Lowercase hex HMAC-SHA256 of the UTF-8 of {@code text} under this key. */
    public synchronized String mac(String text) {
        return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** A nonce no other frame of this test JVM uses. */
    public static String freshNonce() {
        return "it-" + ProcessHandle.current().pid() + "-" + NONCES.incrementAndGet();
    }

    /** An {@code auth} object without {@code value}: this key, a fresh nonce and sequence, {@code timestamp}. */
    public JsonObjectBuilder auth(double timestamp) {
        long n = NONCES.incrementAndGet();
        JsonObjectBuilder auth = JSON.createObjectBuilder().add("alg", "hmac-sha256").add("kid", kid)
                .add("nonce", "it-" + ProcessHandle.current().pid() + "-" + n).add("sequence", n);
        // whole seconds go out as integers: CanonicalJson (like CJ-UTF8 here) has no fractions
        return timestamp == Math.rint(timestamp) ? auth.add("timestamp", (long) timestamp) : auth.add("timestamp", timestamp);
    }

    /** {@code unsigned} (which already carries {@code auth} without {@code value}) with its MAC as {@code auth.value}. */
    public JsonObject seal(JsonObject unsigned) {
        String value = mac(CanonicalJson.utf8(unsigned));
        return JSON.createObjectBuilder(unsigned)
                .add("auth", JSON.createObjectBuilder(unsigned.getJsonObject("auth")).add("value", value)).build();
    }

    /** {@code frame} from {@code sender}, signed now. */
    public JsonObject sign(JsonObjectBuilder frame, String sender) {
        return sign(frame, sender, System.currentTimeMillis() / 1000);
    }

    /** {@code frame} from {@code sender} with an {@code auth} at {@code timestamp} (epoch seconds), MAC'd. */
    public JsonObject sign(JsonObjectBuilder frame, String sender, long timestamp) {
        return seal(frame.add("sender", sender).add("auth", auth(timestamp)).build());
    }
}
