package org.switchboard.synapse.claims;

import java.util.Map;
import java.util.Set;

/** Claim statuses and the legal {@code task_update} transitions (synapse-core §9.8). */
public final class ClaimStatus {

    /** Initial status of every grant. */
    public static final String CLAIMED = "claimed";
    /** Being worked on. */
    public static final String WORKING = "working";
    /** Waiting for input. */
    public static final String INPUT_REQUIRED = "input_required";
    /** Terminal: finished. */
    public static final String DONE = "done";
    /** Terminal: given up. */
    public static final String FAILED = "failed";

    private static final Map<String, Set<String>> NEXT = Map.of(
            CLAIMED, Set.of(WORKING, DONE, FAILED),
            WORKING, Set.of(INPUT_REQUIRED, DONE, FAILED),
            INPUT_REQUIRED, Set.of(WORKING, DONE, FAILED),
            DONE, Set.of(),
            FAILED, Set.of());

    private ClaimStatus() {
    }

    /** Whether {@code status} is one of the five known statuses. */
    public static boolean known(String status) {
        return NEXT.containsKey(status);
    }

    /** Re-affirming is always legal; otherwise the table decides; unknown statuses never. */
    public static boolean transitionAllowed(String from, String to) {
        if (!known(to)) {
            return false;
        }
        return from.equals(to) || NEXT.getOrDefault(from, Set.of()).contains(to);
    }
}
