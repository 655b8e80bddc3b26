package org.switchboard.synapse.acl;

import java.util.List;
import java.util.Set;

/** The ACL permission vocabulary of synapse-advanced §6.6; a policy naming anything else is refused at load. */
public final class Permissions {

    public static final String MESSAGE = "message";
    public static final String CLAIM = "claim";
    public static final String RELEASE = "release";
    public static final String BOARD = "board";
    public static final String RECALL = "recall";
    public static final String EVIDENCE = "evidence";
    public static final String ROLE_CLAIM = "role-claim";
    public static final String IDENTITY_PIN_RECLAIM = "identity-pin-reclaim";
    public static final String DELIVERY_CONTROL = "delivery-control";

    /** Every permission, in the order of the §6.6 table (also the order of the metrics lines). */
    public static final List<String> ALL = List.of(MESSAGE, CLAIM, RELEASE, BOARD, "metrics", "dashboard", "a2a",
            "namespace", "sandbox", "observe", "mailbox", ROLE_CLAIM, RECALL, EVIDENCE, IDENTITY_PIN_RECLAIM,
            "identity-enroll", "entitlement-advertise", "attachment-read", "attachment-write", "attachment-admin",
            DELIVERY_CONTROL);

    private static final Set<String> KNOWN = Set.copyOf(ALL);

    private Permissions() {
    }

    /** True when {@code permission} is in the vocabulary. */
    public static boolean known(String permission) {
        return KNOWN.contains(permission);
    }
}
