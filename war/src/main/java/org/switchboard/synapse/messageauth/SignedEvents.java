package org.switchboard.synapse.messageauth;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.switchboard.crypto.Ed25519Verifier;
import org.switchboard.synapse.wire.NonCanonicalException;
import org.switchboard.synapse.wire.SynapseCanonicalJson;

/**
 * Verifies the Ed25519 {@code signature} envelope of §6.4. Signed bytes: CJ-UTF8 of the frame with
 * only {@code signature.value} removed; version 2 prefixes {@code ASCII(domain) || 0x00}, version 1
 * (registration proofs, §6.5) has neither domain nor prefix. Results in the §6.4 order:
 * {@code missing_signature}, {@code unknown_key}, {@code revoked_key}, {@code expired},
 * {@code sender_mismatch}, {@code project_scope_mismatch}, {@code invalid_domain},
 * {@code bad_signature}, {@code sequence_mismatch}, {@code replayed}, {@code valid}.
 */
public final class SignedEvents {

    private static final int MAX_DOMAIN_BYTES = 128;

    private final SignedEventTrust trust;
    private final ReplayWindow replay;

    /** A verifier against {@code trust}, admitting {@code signed_at} in {@code [now − window, now + skew]}. */
    public SignedEvents(SignedEventTrust trust, NonceCache nonces, double windowSeconds, double skewSeconds) {
        this.trust = trust;
        this.replay = new ReplayWindow(nonces, windowSeconds, skewSeconds);
    }

    /** The §6.4 result for a version-2 signed event {@code frame} on the socket bound to {@code boundSender}. */
    public String verify(JsonObject frame, String boundSender, double now) {
        if (!(frame.get("signature") instanceof JsonObject sig)) {
            return AuthResult.MISSING_SIGNATURE;
        }
        if (!(sig.get("key_id") instanceof JsonString keyId)) {
            return AuthResult.UNKNOWN_KEY;
        }
        SignedEventTrust.Entry entry = trust.entry(keyId.getString());
        if (entry == null) {
            return AuthResult.UNKNOWN_KEY;
        }
        if (entry.revoked()) {
            return AuthResult.REVOKED_KEY;
        }
        if (!(sig.get("signed_at") instanceof JsonNumber signedAtValue)) {
            return AuthResult.EXPIRED;
        }
        double signedAt = signedAtValue.doubleValue();
        boolean keyExpired = !Double.isNaN(entry.expiresAt()) && now >= entry.expiresAt();
        if (keyExpired || !replay.admitsTimestamp(signedAt, now)) {
            return AuthResult.EXPIRED;
        }
        if (!entry.senders().contains(boundSender) || !MessageAuthVerifier.sentBy(frame, boundSender)) {
            return AuthResult.SENDER_MISMATCH;
        }
        if (!entry.projects().isEmpty() && !(frame.get("project") instanceof JsonString project
                && entry.projects().contains(project.getString()))) {
            return AuthResult.PROJECT_SCOPE_MISMATCH;
        }
        if (!(sig.get("version") instanceof JsonNumber version) || !version.isIntegral() || version.intValue() != 2
                || !(sig.get("domain") instanceof JsonString domain) || !printableAscii(domain.getString())) {
            return AuthResult.INVALID_DOMAIN;
        }
        if (!"ed25519".equals(sig.get("algorithm") instanceof JsonString a ? a.getString() : null)
                || !verifyBytes(frame, entry.publicKey(), domain.getString())) {
            return AuthResult.BAD_SIGNATURE;
        }
        if (!ReplayWindow.sequenceWellFormed(sig.get("sequence"))) {
            return AuthResult.SEQUENCE_MISMATCH;
        }
        if (!(sig.get("nonce") instanceof JsonString nonce) || nonce.getString().isEmpty()) {
            return AuthResult.REPLAYED; // without a nonce the event cannot be told from a replay of itself
        }
        return replay.firstUse("ed25519", entry.keyId(), boundSender, nonce.getString(), signedAt, now)
                ? AuthResult.VALID : AuthResult.REPLAYED;
    }

    /**
     * True when {@code frame}'s version-1 {@code signature} (no domain, no prefix) verifies under the
     * raw 32-byte Ed25519 {@code publicKey}. Only the cryptographic check: trust, expiry and replay
     * are the caller's (the identity-binding layer, §6.5).
     */
    public static boolean verifyV1(JsonObject frame, byte[] publicKey) {
        return verifyBytes(frame, publicKey, null);
    }

    /** The bytes a signature covers; {@code domain} null for version 1. */
    public static byte[] signedBytes(JsonObject frame, String domain) {
        byte[] canonical = SynapseCanonicalJson.utf8(MacInput.withoutMember(frame, "signature", "value"))
                .getBytes(StandardCharsets.UTF_8);
        return domain == null ? canonical : Ed25519Verifier.domainPrefixed(domain, canonical);
    }

    private static boolean verifyBytes(JsonObject frame, byte[] publicKey, String domain) {
        if (!(frame.get("signature") instanceof JsonObject sig) || !(sig.get("value") instanceof JsonString value)) {
            return false;
        }
        try {
            return Ed25519Verifier.verify(publicKey, signedBytes(frame, domain), Base64.getDecoder().decode(value.getString()));
        } catch (IllegalArgumentException | NonCanonicalException e) {
            return false;
        }
    }

    private static boolean printableAscii(String text) {
        if (text.isEmpty() || text.length() > MAX_DOMAIN_BYTES) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }
}
