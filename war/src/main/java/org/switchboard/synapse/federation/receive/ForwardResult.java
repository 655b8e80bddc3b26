package org.switchboard.synapse.federation.receive;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * What the receiver answers one forward with (synapse-advanced §4.4 {@code multihub_message_result}):
 * a disposition, the reason code of a refusal, a detail text and the kind's result object.
 */
public record ForwardResult(String disposition, String reasonCode, String detail, JsonObject result) {

    /** An accepted forward with its result object. */
    public static ForwardResult accepted(JsonObject result) {
        return new ForwardResult("accepted", "", "", result);
    }

    /** A refusal with its §4.5 reason code. */
    public static ForwardResult refused(String reasonCode, String detail) {
        return new ForwardResult("refused", reasonCode, detail == null ? "" : clip(detail), JsonValue.EMPTY_JSON_OBJECT);
    }

    /** The remembered answer replayed for a repeat ({@code disposition: duplicate}). */
    public ForwardResult asDuplicate() {
        return new ForwardResult("duplicate", "", detail, result);
    }

    /** True for an accepted forward (the only answer the inbound ledger keeps, §4.5 step 5). */
    public boolean isAccepted() {
        return "accepted".equals(disposition);
    }

    /** {@code detail} is at most 512 UTF-8 bytes. */
    private static String clip(String text) {
        String out = text;
        while (out.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 512) {
            out = out.substring(0, out.length() - 1);
        }
        return out;
    }
}
