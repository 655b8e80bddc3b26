package org.switchboard.synapse.delivery;

import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.acl.Access;
import org.switchboard.synapse.acl.AclLayer;
import org.switchboard.synapse.acl.Permissions;

/**
 * §2.7: {@code interrupt}/{@code steer} are granted only when the hub authenticates connections, an
 * ACL policy is loaded (checked whether or not {@code hub.require-acl} is on), {@code task_id} is
 * non-empty, the live held claim on it is owned by exactly the target, the policy grants the sender
 * {@code delivery-control} on {@code agent:<target>}, and the requester is local (no {@code @}).
 */
public final class TaskControl {

    /** What the decision needs to know, gathered by {@link #granted(SynapseContext, String, String, String)}. */
    public record Facts(boolean hubAuthenticates, boolean aclLoaded, boolean aclGrantsDeliveryControl,
                        boolean liveClaimOwnedByTarget, String taskId, String sender) {
    }

    private TaskControl() {
    }

    /** True only when every condition of §2.7 holds. */
    public static boolean granted(Facts facts) {
        return facts.hubAuthenticates() && facts.aclLoaded() && facts.aclGrantsDeliveryControl()
                && facts.taskId() != null && !facts.taskId().isEmpty() && facts.liveClaimOwnedByTarget()
                && facts.sender() != null && facts.sender().indexOf('@') < 0;
    }

    /** The §2.7 decision for {@code sender} controlling {@code target}'s work on {@code taskId} on this hub. */
    public static boolean granted(SynapseContext ctx, String sender, String target, String taskId) {
        return granted(facts(ctx, sender, target, taskId));
    }

    /** Gathers the facts; the policy is consulted (and a denial counted) only when the cheaper conditions hold. */
    static Facts facts(SynapseContext ctx, String sender, String target, String taskId) {
        AclLayer acl = AclLayer.of(ctx);
        boolean authenticates = ctx.settings().secured();
        boolean loaded = acl.policyLoaded();
        String task = taskId == null ? "" : taskId;
        boolean owned = !task.isEmpty() && target != null && target.equals(acl.liveClaims().ownerOf(task));
        boolean local = sender != null && sender.indexOf('@') < 0;
        boolean allowed = authenticates && loaded && owned && local && target != null
                && acl.decide(sender, new Access(Permissions.DELIVERY_CONTROL, "agent", target)).allowed();
        return new Facts(authenticates, loaded, allowed, owned, task, sender);
    }
}
