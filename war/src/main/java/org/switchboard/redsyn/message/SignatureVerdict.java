package org.switchboard.redsyn.message;

import jakarta.json.JsonObject;

/**
 * The outcome of checking an envelope's signature: whether it is signed, and the {@code sig} object
 * as delivered ({@code alg}, {@code key}, {@code value}, {@code payload}, {@code node}, {@code fingerprint}).
 */
public record SignatureVerdict(boolean signed, JsonObject deliveredSig) {

    /** An envelope without a signature. */
    public static final SignatureVerdict UNSIGNED = new SignatureVerdict(false, null);
}
