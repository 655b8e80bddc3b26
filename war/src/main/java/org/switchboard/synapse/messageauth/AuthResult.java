package org.switchboard.synapse.messageauth;

/** The verification result strings of synapse-advanced §6.3 (HMAC) and §6.4 (signed events). */
public final class AuthResult {

    private AuthResult() {
    }

    // §6.3, in the order MessageAuthVerifier checks them
    public static final String OK = "ok";
    public static final String MISSING = "missing";
    public static final String UNKNOWN_KEY = "unknown_key";
    public static final String REVOKED_KEY = "revoked_key";
    public static final String SENDER_MISMATCH = "sender_mismatch";
    public static final String BAD_AUTHENTICATION = "bad_authentication";
    public static final String EXPIRED = "expired";
    public static final String SEQUENCE_MISMATCH = "sequence_mismatch";
    public static final String REPLAYED = "replayed";

    // §6.4 only
    public static final String MISSING_SIGNATURE = "missing_signature";
    public static final String PROJECT_SCOPE_MISMATCH = "project_scope_mismatch";
    public static final String INVALID_DOMAIN = "invalid_domain";
    public static final String BAD_SIGNATURE = "bad_signature";
    public static final String VALID = "valid";

    /** Every result string, for the {@code /metrics} counters (each exported even at zero). */
    public static final java.util.List<String> ALL = java.util.List.of(OK, MISSING, UNKNOWN_KEY, REVOKED_KEY,
            SENDER_MISMATCH, BAD_AUTHENTICATION, EXPIRED, SEQUENCE_MISMATCH, REPLAYED, MISSING_SIGNATURE,
            PROJECT_SCOPE_MISMATCH, INVALID_DOMAIN, BAD_SIGNATURE, VALID);

    /** True for the two results that let a frame through. */
    public static boolean passes(String result) {
        return OK.equals(result) || VALID.equals(result);
    }
}
