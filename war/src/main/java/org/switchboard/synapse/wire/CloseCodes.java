package org.switchboard.synapse.wire;

/** Hub-initiated WebSocket close codes and their contractual reason texts (synapse-core §4.11). */
public final class CloseCodes {

    public static final int TOO_BIG = 1009;
    public static final int UNEXPECTED = 1011;
    public static final int TRY_AGAIN_LATER = 1013;
    public static final int NAME_CONFLICT = 4009;
    public static final int AUTH = 4010;
    public static final int AUTH_TIMEOUT = 4012;
    public static final int CAPACITY = 4013;
    public static final int UNAUTH_OR_TAKEOVER = 4014;
    public static final int HOST_CAP = 4015;
    public static final int NAME_OWNED = 4016;

    public static final String OUTBOUND_TIMEOUT = "outbound delivery timeout";
    public static final String REASON_NAME_CONFLICT = "name conflict";
    public static final String REASON_NAME_SWITCH = "name switch";
    public static final String REASON_RESERVED = "reserved identity";
    public static final String REASON_AUTH_DENIED = "auth denied";
    public static final String REASON_AUTH_REQUIRED = "auth required";
    public static final String REASON_REGISTRATION_REQUIRED = "registration required";
    public static final String REASON_SUPERSEDED = "superseded";
    public static final String REASON_AUTH_TIMEOUT = "auth timeout";
    public static final String REASON_REGISTRATION_TIMEOUT = "registration timeout";
    public static final String REASON_CAPACITY = "hub at capacity";
    public static final String REASON_UNAUTH_CAP = "too many unauthenticated connections";
    public static final String REASON_TAKEOVER_COOLDOWN = "takeover cooldown";
    public static final String REASON_TAKEOVER_QUARANTINE = "takeover quarantine";
    public static final String REASON_HOST_CAP = "too many connections from host";
    public static final String REASON_NAME_OWNED = "name owned";
    public static final String REASON_PONG_TIMEOUT = "pong timeout";
    public static final String REASON_INTERNAL = "internal error";

    private CloseCodes() {
    }
}
