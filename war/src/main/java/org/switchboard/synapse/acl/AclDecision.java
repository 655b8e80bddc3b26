package org.switchboard.synapse.acl;

/**
 * The outcome of one ACL evaluation: allowed or not, the permission and target asked for, and the
 * reason (the matching rule's {@code reason}, or why nothing allowed it).
 */
public record AclDecision(boolean allowed, String permission, String target, String reason) {

    /** Reason of a denial when no rule matched. */
    public static final String NO_MATCHING_RULE = "no matching rule";
    /** Reason of a denial for a permission outside the vocabulary. */
    public static final String UNKNOWN_PERMISSION = "unknown permission";
    /** Reason of a denial for a mutating type the access map does not know. */
    public static final String UNMAPPED_TYPE = "mutating type without an ACL mapping";
    /** Reason of an allow whose rule gave none. */
    public static final String ALLOWED_BY_RULE = "allowed by rule";
}
