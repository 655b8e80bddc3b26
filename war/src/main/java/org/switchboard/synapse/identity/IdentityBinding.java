package org.switchboard.synapse.identity;

import jakarta.json.JsonObject;
import java.util.Arrays;
import org.switchboard.synapse.messageauth.AuthResult;

/**
 * The identity-proof rules of a first frame (synapse-advanced §6.5), in plain Java: verification
 * against the operator trust bundle, TOFU pins when there is no bundle, and the "proven requester"
 * query the governed verbs (§7) use. Which of the three modes applies is fixed at construction.
 * Result strings are §6.4's ({@link AuthResult}), plus {@code pin_mismatch} for a TOFU refusal.
 */
public final class IdentityBinding {

    /** Close code of every identity refusal (§1.5). */
    public static final int CLOSE_CODE = 4013;
    /** Close reason of a pin refusal. */
    public static final String REASON_PIN_MISMATCH = "identity pin mismatch";
    /** Close reason of every other identity refusal. */
    public static final String REASON_BINDING_FAILED = "identity binding failed";
    /** The governed verb that releases a pin (§7.1), named in pin refusals. */
    public static final String RECLAIM_VERB = "identity_pin_reclaim";

    /** How a first frame fared: accepted, or refused with a result string, close reason and text. */
    public record Decision(boolean accepted, String result, String reason, String text, String observedKeyId,
                           boolean pinCreated) {

        static Decision accept(boolean pinCreated) {
            return new Decision(true, AuthResult.OK, null, null, null, pinCreated);
        }

        static Decision bindingFailed(String result, String text, String observedKeyId) {
            return new Decision(false, result, REASON_BINDING_FAILED, text, observedKeyId, false);
        }

        /** True for a refusal because the name's pin holds another key (or none was shown). */
        public boolean pinMismatch() {
            return REASON_PIN_MISMATCH.equals(reason);
        }
    }

    private final TrustBundle operatorBundle;
    // the operator bundle plus enrolled keys (§7.2): swapped whole, read once per registration
    private volatile TrustBundle bundle;
    private final String bundleFault;
    private final boolean required;
    private final IdentityPins pins;

    /**
     * Rules over {@code bundle} (null: none configured); {@code bundleFault} non-null means a bundle
     * was configured but refused, and every registration then fails closed; {@code pins} null turns
     * TOFU off; {@code required} is {@code hub.require-identity-binding}.
     */
    public IdentityBinding(TrustBundle bundle, String bundleFault, boolean required, IdentityPins pins) {
        this.operatorBundle = bundle;
        this.bundle = bundle;
        this.bundleFault = bundleFault;
        this.required = required;
        this.pins = pins;
    }

    /** True when the bundle decides (a bundle is configured, or binding is required, or the file was refused). */
    private boolean bundleMode() {
        return bundle != null || bundleFault != null || required;
    }

    /** The decision for the first frame {@code frame} (still carrying {@code token}) of {@code sender}. */
    public Decision check(String sender, JsonObject frame, double now) {
        if (bundleMode()) {
            return checkBundle(sender, frame, now);
        }
        if (pins == null) {
            return Decision.accept(false); // no bundle, pins off: registration proofs are not consulted
        }
        return checkPin(sender, frame, now);
    }

    private Decision checkBundle(String sender, JsonObject frame, double now) {
        TrustBundle bundle = this.bundle;
        if (bundleFault != null || bundle == null) {
            return Decision.bindingFailed(AuthResult.UNKNOWN_KEY, "Identity binding is required but the hub has no usable "
                    + "identity trust bundle (" + TrustBundle.KEY + "); registrations are refused until the operator fixes it.", null);
        }
        if (!required) {
            // a bundle without hub.require-identity-binding binds nothing (and makes no TOFU pins, §6.5)
            return Decision.accept(false);
        }
        if (!RegistrationProof.signed(frame)) {
            return Decision.bindingFailed(AuthResult.MISSING_SIGNATURE, "Identity binding is required: sign the "
                    + "registration frame with a key of the operator's trust bundle (signature, identity_public_key).", null);
        }
        RegistrationProof.Envelope envelope = RegistrationProof.envelope(frame);
        String keyId = envelope.keyId();
        if (!envelope.wellFormed()) {
            return refusedProof(AuthResult.BAD_SIGNATURE, sender, keyId, envelope.fault());
        }
        TrustBundle.Entry entry = bundle.get(keyId);
        if (entry == null) {
            return refusedProof(AuthResult.UNKNOWN_KEY, sender, keyId, "the key is not in the operator's trust bundle");
        }
        if (entry.revoked()) {
            return refusedProof(AuthResult.REVOKED_KEY, sender, keyId, "the key is revoked");
        }
        if (entry.expiresAt() != null && now > entry.expiresAt()) {
            return refusedProof(AuthResult.EXPIRED, sender, keyId, "the key has expired");
        }
        if (!entry.senders().contains(sender)) {
            return refusedProof(AuthResult.SENDER_MISMATCH, sender, keyId, "the key may not register this name");
        }
        if (!entry.projects().isEmpty() && !entry.projects().contains(project(sender))) {
            return refusedProof(AuthResult.PROJECT_SCOPE_MISMATCH, sender, keyId, "the key is not valid for this project");
        }
        byte[] presented = RegistrationProof.identityPublicKey(frame);
        if (frame.containsKey("identity_public_key") && !Arrays.equals(presented, entry.publicKey())) {
            return refusedProof(AuthResult.BAD_SIGNATURE, sender, keyId, "identity_public_key is not the bundle's key for this key id");
        }
        if (!RegistrationProof.verifies(frame, entry.publicKey())) {
            return refusedProof(AuthResult.BAD_SIGNATURE, sender, keyId, "the signature does not verify");
        }
        return Decision.accept(false);
    }

    private Decision checkPin(String sender, JsonObject frame, double now) {
        IdentityPins.Pin pin = pins.get(sender);
        Proof proof = RegistrationProof.signed(frame) ? proof(frame) : null;
        if (proof == null || !proof.valid()) {
            // an absent or unverifiable proof counts as unsigned: it pins nothing (stock clients send
            // envelopes this hub does not verify) and, on a pinned name, is a mismatch
            return pin == null ? Decision.accept(false) : pinMismatch(sender, proof == null ? null : proof.keyId());
        }
        if (pin == null) {
            pin = pins.pinIfAbsent(sender, proof.keyId(), proof.key(), now);
            if (pin.matches(proof.keyId(), proof.key())) {
                return Decision.accept(true);
            }
        }
        return pin.matches(proof.keyId(), proof.key()) ? Decision.accept(false) : pinMismatch(sender, proof.keyId());
    }

    /** A self-signed proof: its key id, the frame's identity_public_key, and whether it verifies. */
    private record Proof(String keyId, byte[] key, boolean valid) {
    }

    private static Proof proof(JsonObject frame) {
        RegistrationProof.Envelope envelope = RegistrationProof.envelope(frame);
        byte[] key = RegistrationProof.identityPublicKey(frame);
        boolean valid = envelope.wellFormed() && key != null && RegistrationProof.verifies(frame, key);
        return new Proof(envelope.keyId(), key, valid);
    }

    private static Decision pinMismatch(String sender, String observedKeyId) {
        String observed = observedKeyId == null ? "none (the frame is unsigned)" : "'" + observedKeyId + "'";
        return new Decision(false, "pin_mismatch", REASON_PIN_MISMATCH, "Identity pin mismatch: '" + sender
                + "' is pinned to another identity key; observed key id: " + observed + ". Register with the pinned"
                + " key, or ask an operator to release the pin with the governed " + RECLAIM_VERB + " verb (pin_name '"
                + sender + "', expected_key_id = the pinned key id, reason).", observedKeyId, false);
    }

    private static Decision refusedProof(String result, String sender, String keyId, String why) {
        return Decision.bindingFailed(result, "Identity binding failed for '" + sender + "' (" + result + "): " + why
                + (keyId == null ? "." : "; key id '" + keyId + "'."), keyId);
    }

    /**
     * A "proven" requester (§6.5 last paragraph): the hub requires identity binding, or the name
     * holds a TOFU pin (its registration was then checked against it).
     */
    public boolean proven(String name) {
        if (required) {
            return true;
        }
        return pins != null && !bundleMode() && name != null && pins.get(name) != null;
    }

    /** The pin of {@code name} (null: none, or pins off), for the governed reclaim verb (§7.1). */
    public IdentityPins.Pin pin(String name) {
        return pins == null ? null : pins.get(name);
    }

    /** The TOFU pins (null when pins are off), whose compare-and-swap removal §7.1 uses. */
    public IdentityPins pins() {
        return pins;
    }

    /** True when {@code hub.require-identity-binding} is on (requesters are then bound by the bundle). */
    public boolean required() {
        return required;
    }

    /** The operator's bundle as loaded at start (null: none or refused); enrolments never change it. */
    public TrustBundle operatorBundle() {
        return bundleFault == null ? operatorBundle : null;
    }

    /** Replaces the effective bundle (operator bundle + enrolment overlay, §7.2): the next registration uses it. */
    public void useBundle(TrustBundle effective) {
        this.bundle = effective;
    }

    /** The project of a name: the part before its first {@code /} (empty when none), as in the ACL (§6.6). */
    static String project(String name) {
        int slash = name.indexOf('/');
        return slash < 0 ? "" : name.substring(0, slash);
    }
}
