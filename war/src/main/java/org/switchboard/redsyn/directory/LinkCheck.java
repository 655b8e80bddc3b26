package org.switchboard.redsyn.directory;

import java.util.List;
import java.util.Optional;

/**
 * Whether something crosses from one organisation to another: the seam where organisation links plug
 * in. Nothing crosses organisations without an active link.
 */
public interface LinkCheck {

    /** True when {@code fromOrg}'s agents may send requests to {@code toAgent} of {@code toOrg}. */
    boolean maySend(String fromOrg, String toOrg, String toAgentPath);

    /** True when members of {@code viewerOrg} may see {@code agentPath} of {@code org}. */
    boolean mayView(String viewerOrg, String org, String agentPath);

    /**
     * Why a request from {@code fromOrg} may not reach {@code toAgentPath} of {@code toOrg} (no active
     * link, not exposed, or refused by {@code toOrg}'s rules for the link), or empty when it may.
     */
    default Optional<String> sendRefusal(String fromOrg, String toOrg, String toAgentPath, boolean signed) {
        return maySend(fromOrg, toOrg, toAgentPath) ? Optional.empty()
                : Optional.of("no active link lets " + fromOrg + " write to " + toAgentPath);
    }

    /** The organisations {@code org} has an active link with (whose exposed agents its members reach). */
    default List<String> linkedOrgs(String org) {
        return List.of();
    }

    /** True while the two organisations have an active link (answers travel back only then). */
    default boolean linked(String orgA, String orgB) {
        return false;
    }
}
