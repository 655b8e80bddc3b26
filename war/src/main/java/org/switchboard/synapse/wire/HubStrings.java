package org.switchboard.synapse.wire;

/** The fixed human-readable strings of synapse-core Appendix B and §4 that clients match exactly. */
public final class HubStrings {

    public static final String HUB_SENDER = "SynapseHub";
    public static final String WELCOME = "Welcome to Synapse";
    public static final String PRESENCE = "Presence update";
    public static final String MALFORMED_JSON = "Malformed JSON.";
    public static final String NOT_AN_OBJECT = "Malformed frame: expected a JSON object.";
    public static final String RATE_LIMITED = "Rate limit exceeded.";
    public static final String HOST_RATE_LIMITED = "Host rate limit exceeded.";
    public static final String DUPLICATE_CHAT = "Duplicate chat suppressed.";
    public static final String CLIENT_MSG_ID_CONFLICT = "client_msg_id was already used for different content.";
    public static final String TOKEN_REQUIRED = "Authentication token required.";
    public static final String TOKEN_INVALID = "Invalid authentication token.";
    public static final String STATE_SNAPSHOT = "State snapshot";
    public static final String WHO_SNAPSHOT = "Who snapshot";
    public static final String HISTORY_SNAPSHOT = "History snapshot";
    public static final String RESUME_SNAPSHOT = "Resume snapshot";
    public static final String RECOVERY_REQUIRED = "Mutation refused: durable journal recovery is required. "
            + "Inspect degraded health and archive/remove settled corrupt rows with the explicit "
            + "`synapse compact --drop-corrupt` workflow.";
    public static final String RESPONSE_FIELDS_MISSING =
            "semantic response needs response_to_seq, response_status, and response_evidence_scope";
    public static final String RESPONSE_STATUS_UNKNOWN = "response_status is not recognised";
    public static final String RESPONSE_SCOPE_UNKNOWN = "response_evidence_scope is not recognised";
    public static final String RESPONSE_NEEDS_JOURNAL = "semantic response requires the durable event store";
    public static final String RESPONSE_NOT_DURABLE_CHAT = "response_to_seq does not name a durable chat";
    public static final String RESPONSE_TARGET_MISMATCH = "semantic response target must match the referenced message sender";
    public static final String RESPONSE_NOT_ADDRESSEE = "recipient semantic response requires an addressee of the referenced message";
    public static final String RECEIPT_EXPIRED = "delivery receipt expired before acknowledgement";

    private HubStrings() {
    }

    /** {@code Malformed frame: '<field>' must be a string.} */
    public static String fieldMustBeString(String field) {
        return "Malformed frame: '" + field + "' must be a string.";
    }

    /** {@code Unknown message type '<type>'.} */
    public static String unknownType(String type) {
        return "Unknown message type '" + type + "'.";
    }

    /** {@code Durable ingress quota exceeded (<reason>).} */
    public static String quotaExceeded(String reason) {
        return "Durable ingress quota exceeded (" + reason + ").";
    }

    /** {@code Token is not authorised for agent '<name>'.} */
    public static String tokenNotForAgent(String name) {
        return "Token is not authorised for agent '" + name + "'.";
    }

    /** Reserved-name refusal payload (§4.4 step 1). */
    public static String reservedName(String name) {
        return "Name '" + name + "' is reserved for hub protocol provenance. Choose a non-reserved agent name.";
    }

    /** Name-conflict refusal payload (§4.4 step 3). */
    public static String nameTaken(String name) {
        return "Name '" + name + "' is already online from another session. Use a unique --name.";
    }

    /** Name-switch refusal payload (§4.4 step 4). */
    public static String nameSwitch(String oldName, String newName) {
        return "Sender name switch denied: '" + oldName + "' -> '" + newName + "'. Reconnect with a new --name.";
    }

    /** Lease-owned refusal payload (§4.4 step 2). */
    public static String nameOwned(String name) {
        return "Name '" + name + "' is held by an ownership lease. Present the matching owner_lease to reconnect.";
    }

    /** Channel non-member refusal (§7.5). */
    public static String notChannelMember(String channel) {
        return "not a member of channel '" + channel + "'";
    }
}
