package org.switchboard.synapse.attachments;

import org.switchboard.synapse.acl.Access;
import org.switchboard.synapse.acl.AclLayer;

/**
 * Gates 4 and 5 of synapse-advanced §3.2 answered by the hub's ACL layer: the role grant
 * {@code <scope>/<permission>} from its role-grant store, then the ACL permission on target
 * {@code attachment:<scope>}. Both are always enforced, whatever {@code hub.require-acl} says (§6.6).
 */
public final class GrantedAttachmentAuthority implements AttachmentAuthority {

    /** Target kind of the attachment permissions (§6.6 vocabulary). */
    static final String TARGET_KIND = "attachment";

    private final AclLayer layer;

    /** The authority of the hub whose ACL layer is {@code layer}. */
    public GrantedAttachmentAuthority(AclLayer layer) {
        this.layer = layer;
    }

    @Override
    public boolean roleGranted(String sender, String scope, String permission) {
        return layer.roleGrants().mayClaim(sender, scope + "/" + permission);
    }

    /**
     * The policy decides with the sender's project as namespace; gate 3 has already made the scope
     * equal to that project, so this is the §3.2 evaluation "with namespace {@code <scope>}". A denial
     * is counted like any other ACL denial.
     */
    @Override
    public boolean aclAllows(String sender, String scope, String permission) {
        return layer.decide(sender, new Access(permission, TARGET_KIND, scope)).allowed();
    }
}
