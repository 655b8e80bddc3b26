package org.switchboard.synapse.delivery;

/**
 * §2.7: {@code interrupt}/{@code steer} need an authenticated hub, a loaded ACL policy granting
 * {@code delivery-control}, a live claim of {@code task_id} owned by the target, and a local requester.
 * This hub has no ACL layer yet, so no policy is ever loaded and the modes are never granted.
 */
public final class TaskControl {

    /** What the decision needs to know; {@code aclLoaded} is false until an ACL layer exists. */
    public record Facts(boolean hubAuthenticates, boolean aclLoaded, boolean aclGrantsDeliveryControl,
                        boolean liveClaimOwnedByTarget, String taskId, String sender) {
    }

    private TaskControl() {
    }

    /** True only when every condition of §2.7 holds. */
    public static boolean granted(Facts facts) {
        return facts.hubAuthenticates() && facts.aclLoaded() && facts.aclGrantsDeliveryControl()
                && facts.taskId() != null && !facts.taskId().isEmpty() && facts.liveClaimOwnedByTarget()
                && facts.sender().indexOf('@') < 0;
    }
}
