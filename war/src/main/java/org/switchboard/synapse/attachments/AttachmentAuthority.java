package org.switchboard.synapse.attachments;

/**
 * Gates 4 and 5 of synapse-advanced §3.2, answered by the security layers: the role grant
 * {@code <scope>/<permission>} and the ACL permission on target {@code attachment:<scope>} (namespace
 * {@code <scope>}). The hub answers them with {@link GrantedAttachmentAuthority}; {@link #DENY_ALL}
 * stands in while the store is closed.
 */
public interface AttachmentAuthority {

    /** The default with no role-grant store and no ACL: every request is denied. */
    AttachmentAuthority DENY_ALL = new AttachmentAuthority() {
        @Override
        public boolean roleGranted(String sender, String scope, String permission) {
            return false;
        }

        @Override
        public boolean aclAllows(String sender, String scope, String permission) {
            return false;
        }
    };

    /** True when {@code sender} may claim role {@code <scope>/<permission>} in the role-grant store (§6.7). */
    boolean roleGranted(String sender, String scope, String permission);

    /** True when the ACL grants {@code permission} on target kind {@code attachment}, value {@code scope} (§6.6). */
    boolean aclAllows(String sender, String scope, String permission);
}
