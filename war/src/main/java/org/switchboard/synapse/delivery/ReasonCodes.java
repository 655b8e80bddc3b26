package org.switchboard.synapse.delivery;

import java.util.List;

/** The stable {@code reason_code} strings of synapse-advanced §2.18. */
public final class ReasonCodes {

    public static final String UNSUPPORTED_PROTOCOL = "unsupported_protocol";
    public static final String UNSUPPORTED_PROFILE = "unsupported_profile";
    public static final String INVALID_SHAPE = "invalid_shape";
    public static final String UNSUPPORTED_MODE = "unsupported_mode";
    public static final String DEADLINE_EXPIRED = "deadline_expired";
    public static final String ID_CONFLICT = "id_conflict";
    public static final String UNAVAILABLE_RECIPIENT = "unavailable_recipient";
    public static final String STALE_INCARNATION = "stale_incarnation";
    public static final String UNAUTHORISED_REQUESTER = "unauthorised_requester";
    public static final String RECIPIENT_QUEUE_FULL = "recipient_queue_full";
    public static final String UNKNOWN_REQUEST = "unknown_request";
    public static final String INVALID_TRANSITION = "invalid_transition";
    public static final String STATE_CONFLICT = "state_conflict";
    public static final String REPLAY_INCOMPATIBLE = "replay_incompatible";

    /** Every local code, in the table's order (metrics list each one). */
    public static final List<String> ALL = List.of(UNSUPPORTED_PROTOCOL, UNSUPPORTED_PROFILE, INVALID_SHAPE,
            UNSUPPORTED_MODE, DEADLINE_EXPIRED, ID_CONFLICT, UNAVAILABLE_RECIPIENT, STALE_INCARNATION,
            UNAUTHORISED_REQUESTER, RECIPIENT_QUEUE_FULL, UNKNOWN_REQUEST, INVALID_TRANSITION, STATE_CONFLICT,
            REPLAY_INCOMPATIBLE);

    private ReasonCodes() {
    }
}
