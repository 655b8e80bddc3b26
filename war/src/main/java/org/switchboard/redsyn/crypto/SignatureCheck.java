package org.switchboard.redsyn.crypto;

import org.switchboard.json.Jsons;

import jakarta.json.JsonObject;
import org.switchboard.crypto.NodeKeys;

/**
 * What the relay concluded about an arriving envelope's {@code sig}: the outcome, a message fit for the
 * client, and, when valid, what the delivered envelope must carry so a receiver can check it itself.
 *
 * @param outcome     what was found
 * @param message     why it was refused (empty when valid or unsigned); safe to send to the client
 * @param payload     the canonical JSON text that was signed (valid only, else null)
 * @param key         sig.key as it arrived (valid only, else null)
 * @param value       sig.value as it arrived (valid only, else null)
 * @param fingerprint the fingerprint of the signing key (valid only, else null)
 */
public record SignatureCheck(Outcome outcome, String message, String payload, String key, String value,
        String fingerprint) {

    /** The possible conclusions; every one but VALID and UNSIGNED is answered with 401. */
    public enum Outcome {
        /** The envelope carries no sig: nothing to check (the agent's policy decides if that is fine). */
        UNSIGNED,
        /** The signature is by the node's registered key, covers exactly what arrived, and is recent. */
        VALID,
        /** sig, ts or a covered field does not have the documented shape. */
        MALFORMED,
        /** The node sending the envelope has no registered signing key. */
        NO_REGISTERED_KEY,
        /** sig.key is not the key the sending node registered. */
        WRONG_KEY,
        /** ts is more than ten minutes away from the relay's clock. */
        STALE,
        /** The signature does not verify over what arrived. */
        BAD_SIGNATURE
    }

    static SignatureCheck unsigned() {
        return new SignatureCheck(Outcome.UNSIGNED, "", null, null, null, null);
    }

    static SignatureCheck refused(Outcome outcome, String message) {
        return new SignatureCheck(outcome, message, null, null, null, null);
    }

    static SignatureCheck valid(String payload, String key, String value) {
        return new SignatureCheck(Outcome.VALID, "", payload, key, value, NodeKeys.fingerprint(key));
    }

    /** Whether the envelope carries a valid signature (so the delivered envelope says {@code "signed": true}). */
    public boolean signed() {
        return outcome == Outcome.VALID;
    }

    /** Whether the relay must refuse the envelope: a sig was present and did not hold. */
    public boolean refused() {
        return outcome != Outcome.VALID && outcome != Outcome.UNSIGNED;
    }

    /** The HTTP status for a refusal: always 401, as the protocol document says. */
    public int httpStatus() {
        return refused() ? 401 : 200;
    }

    /**
     * The {@code sig} object of the delivered envelope: alg, key and value as they arrived, plus the
     * exact signed {@code payload}, the sending {@code node} and the key's {@code fingerprint}.
     *
     * @throws IllegalStateException when the signature was not valid
     */
    public JsonObject deliveredSig(String node) {
        if (!signed()) {
            throw new IllegalStateException("only a valid signature is delivered");
        }
        return EnvelopeSignature.deliveredSig(key, value, payload, node, fingerprint);
    }

    /** The error body the REDSYN API answers with: {"error": message, "status": 401}. */
    public JsonObject errorBody() {
        return Jsons.PROVIDER.createObjectBuilder().add("error", message).add("status", httpStatus()).build();
    }
}
