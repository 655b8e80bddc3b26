package org.switchboard.synapse.messageauth;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.IdentityHashMap;
import java.util.Map;
import javax.crypto.Mac;
import org.switchboard.synapse.wire.NonCanonicalException;

/**
 * Checks one frame's §6.3 {@code auth} object against the key file. The checks run in a fixed order,
 * so a frame gets the same result whatever the timing: {@code missing} (no {@code auth} object),
 * {@code unknown_key}, {@code revoked_key}, {@code sender_mismatch}, {@code bad_authentication} (a
 * malformed {@code auth} or a wrong MAC), {@code expired}, {@code sequence_mismatch},
 * {@code replayed}, {@code ok}. The MAC is checked before the clock and the replay cache, so a
 * forged frame can neither burn a nonce nor learn whether its timestamp would have passed.
 */
public final class MessageAuthVerifier {

    private static final int MAX_NONCE_CHARS = 256;

    private final MessageAuthKeys keys;
    private final ReplayWindow replay;
    // Mac is not thread-safe and costly to create (provider lookup, key schedule): one per thread per key
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

    /** One thread's initialised Macs (by key object) and canonical-bytes buffer. */
    private static final class Scratch {
        final Map<MessageAuthKeys.Key, Mac> macs = new IdentityHashMap<>();
        final MacInput.Buffer buffer = new MacInput.Buffer(1024);
    }

    /** A verifier of {@code keys}, admitting timestamps in {@code [now − window, now + skew]}. */
    public MessageAuthVerifier(MessageAuthKeys keys, NonceCache nonces, double windowSeconds, double skewSeconds) {
        this.keys = keys;
        this.replay = new ReplayWindow(nonces, windowSeconds, skewSeconds);
    }

    /** The result for {@code frame} (as received) sent on the socket bound to {@code boundSender}, at {@code now} (epoch s). */
    public String verify(JsonObject frame, String boundSender, double now) {
        if (!(frame.get("auth") instanceof JsonObject auth)) {
            return AuthResult.MISSING;
        }
        if (!(auth.get("kid") instanceof JsonString kidValue)) {
            return AuthResult.BAD_AUTHENTICATION;
        }
        MessageAuthKeys.Key key = keys.key(kidValue.getString());
        if (key == null) {
            return AuthResult.UNKNOWN_KEY;
        }
        if (key.revoked()) {
            return AuthResult.REVOKED_KEY;
        }
        if (!key.senders().contains(boundSender) || !sentBy(frame, boundSender)) {
            return AuthResult.SENDER_MISMATCH;
        }
        if (!"hmac-sha256".equals(string(auth, "alg")) || !(auth.get("value") instanceof JsonString value)
                || !(auth.get("nonce") instanceof JsonString nonce) || nonce.getString().isEmpty()
                || nonce.getString().length() > MAX_NONCE_CHARS
                || !(auth.get("timestamp") instanceof JsonNumber timestamp)) {
            return AuthResult.BAD_AUTHENTICATION;
        }
        Scratch s = scratch.get();
        Mac mac = s.macs.computeIfAbsent(key, k -> MacInput.newMac(k.secret()));
        try {
            // constant time over the expected length; a value of another length simply fails
            if (!MacInput.matches(mac, frame, value.getString(), s.buffer)) {
                return AuthResult.BAD_AUTHENTICATION;
            }
        } catch (NonCanonicalException e) {
            return AuthResult.BAD_AUTHENTICATION;
        }
        double ts = timestamp.doubleValue();
        if (!replay.admitsTimestamp(ts, now)) {
            return AuthResult.EXPIRED;
        }
        if (!ReplayWindow.sequenceWellFormed(auth.get("sequence"))) {
            return AuthResult.SEQUENCE_MISMATCH;
        }
        return replay.firstUse("hmac", key.kid(), boundSender, nonce.getString(), ts, now)
                ? AuthResult.OK : AuthResult.REPLAYED;
    }

    /** The frame's own {@code sender}, when it names one, is the bound name (trimmed as routing trims it). */
    static boolean sentBy(JsonObject frame, String boundSender) {
        JsonValue sender = frame.get("sender");
        return sender == null || (sender instanceof JsonString s && s.getString().trim().equals(boundSender));
    }

    private static String string(JsonObject object, String field) {
        return object.get(field) instanceof JsonString s ? s.getString() : null;
    }
}
