package org.switchboard.synapse.messageauth;

import jakarta.json.JsonNumber;
import jakarta.json.JsonValue;

/**
 * The replay controls §6.3 (HMAC {@code auth}) and §6.4 (Ed25519 {@code signature}) share: the
 * timestamp window {@code [now − window, now + skew]}, the shape of the optional {@code sequence},
 * and the one-time admission of {@code (scheme, key id, sender, nonce)} kept until the timestamp
 * leaves the window. Each verifier keeps its own check order; this holds only what is the same.
 */
final class ReplayWindow {

    private final NonceCache nonces;
    private final double windowSeconds;
    private final double skewSeconds;

    ReplayWindow(NonceCache nonces, double windowSeconds, double skewSeconds) {
        this.nonces = nonces;
        this.windowSeconds = windowSeconds;
        this.skewSeconds = skewSeconds;
    }

    /** True when {@code timestamp} (epoch s) lies in {@code [now − window, now + skew]} (false for NaN). */
    boolean admitsTimestamp(double timestamp, double now) {
        return timestamp >= now - windowSeconds && timestamp <= now + skewSeconds;
    }

    /** True when {@code sequence} is absent or a non-negative integer (authenticated metadata, not a floor). */
    static boolean sequenceWellFormed(JsonValue sequence) {
        return sequence == null || sequence instanceof JsonNumber n && n.isIntegral() && n.bigIntegerValue().signum() >= 0;
    }

    /**
     * True when the identity is seen for the first time (and now recorded, durably when the cache has
     * a store); false for a replay or a cache full of live entries (§6.3: refuse, never evict).
     */
    boolean firstUse(String scheme, String keyId, String sender, String nonce, double timestamp, double now) {
        String id = NonceCache.id(scheme, keyId, sender, nonce);
        return nonces.admit(id, timestamp + windowSeconds + skewSeconds, now) == NonceCache.Admission.ADMITTED;
    }
}
