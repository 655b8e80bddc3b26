package org.switchboard.redsyn.directory;

/**
 * Whether an organisation may write to another: the seam where organisation links plug in.
 * Nothing crosses organisations without an active link.
 */
public interface LinkCheck {

    /** True when {@code fromOrg}'s agents may send requests to {@code toAgent} of {@code toOrg}. */
    boolean maySend(String fromOrg, String toOrg, String toAgentPath);

    /** True when members of {@code viewerOrg} may see {@code agentPath} of {@code org}. */
    boolean mayView(String viewerOrg, String org, String agentPath);
}
