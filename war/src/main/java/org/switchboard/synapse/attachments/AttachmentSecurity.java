package org.switchboard.synapse.attachments;

import java.util.ArrayList;
import java.util.List;

/**
 * The security pieces of synapse-advanced §3.1 as the running hub has them configured: which of
 * identity binding, per-message HMAC with a durable replay store, the ACL and the role-grant store
 * are present. It names what is missing by its configuration keys, never by a file's content.
 *
 * @param identityTrust          an operator trust bundle is configured ({@code hub.identity-trust})
 * @param requireIdentityBinding {@code hub.require-identity-binding} is on (or forced by the posture)
 * @param hmacKeys               how many HMAC keys the key file holds ({@code hub.message-auth.key-file})
 * @param requireMessageAuth     {@code hub.require-message-auth} is on
 * @param durableReplayStore     the nonces are kept in the hub's database (a restart does not reopen them)
 * @param aclPolicy              an ACL policy is loaded ({@code hub.acl-policy})
 * @param requireAcl             {@code hub.require-acl} is on
 * @param roleGrantStore         a role-grant store is loaded ({@code hub.role-grants})
 */
public record AttachmentSecurity(boolean identityTrust, boolean requireIdentityBinding, int hmacKeys,
                                 boolean requireMessageAuth, boolean durableReplayStore, boolean aclPolicy,
                                 boolean requireAcl, boolean roleGrantStore) implements AttachmentPosture.SecurityPieces {

    @Override
    public List<String> missing() {
        List<String> missing = new ArrayList<>();
        if (!identityTrust) {
            missing.add("identity trust bundle (hub.identity-trust)");
        }
        if (!requireIdentityBinding) {
            missing.add("require identity binding (hub.require-identity-binding)");
        }
        if (hmacKeys < 1) {
            missing.add("at least one per-message HMAC key (hub.message-auth.key-file)");
        }
        if (!requireMessageAuth) {
            missing.add("require message auth (hub.require-message-auth)");
        }
        if (!durableReplayStore) {
            missing.add("durable message-auth replay store (the hub's database)");
        }
        if (!aclPolicy) {
            missing.add("ACL policy (hub.acl-policy)");
        }
        if (!requireAcl) {
            missing.add("require ACL (hub.require-acl)");
        }
        if (!roleGrantStore) {
            missing.add("role-grant store (hub.role-grants)");
        }
        return List.copyOf(missing);
    }
}
