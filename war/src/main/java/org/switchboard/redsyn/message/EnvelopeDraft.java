package org.switchboard.redsyn.message;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.switchboard.redsyn.address.Address;

/**
 * An envelope that passed the field rules, as sent: nothing is resolved yet ({@code to} may be a
 * short form, {@code id} and {@code thread} may be absent).
 */
public record EnvelopeDraft(String id, Kind kind, Address from, String to, String thread, String replyTo,
                            Long ts, Long ttl, JsonObject body, String bodyJson, JsonArray refs,
                            byte[] zip, boolean error, JsonObject sig) {

    /** The body type of an end-to-end encrypted body. */
    public static final String ENCRYPTED_TYPE = "application/redsyn+encrypted";

    /** True when the body is sealed end to end. */
    public boolean encrypted() {
        return ENCRYPTED_TYPE.equals(body.getString("type", ""));
    }

    /** True when the sender attached a signature (which still has to be verified). */
    public boolean hasSignature() {
        return sig != null;
    }
}
