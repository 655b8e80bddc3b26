package org.switchboard.synapse.acl;

import java.nio.file.Path;

/**
 * The ACL layer's configuration: the policy file ({@code hub.acl-policy}, null = none), whether
 * every gated frame must be allowed ({@code hub.require-acl}), and the role-grant file
 * ({@code hub.role-grants}, null = none).
 */
public record AclSettings(Path policy, boolean requireAcl, Path roleGrants) {

    /** Nothing configured. */
    public static final AclSettings NONE = new AclSettings(null, false, null);
}
