package org.switchboard.synapse.acl;

import java.util.List;

/**
 * The role-grant store of synapse-advanced §6.7, as other features ask it: "may identity X claim role
 * {@code <project>/<role>}". Deny by default: an identity is granted only the roles listed for it.
 */
public interface RoleGrants {

    /** No store configured: nothing is granted, and role claims are not filtered. */
    RoleGrants NONE = new RoleGrants() {
        @Override
        public boolean configured() {
            return false;
        }

        @Override
        public boolean mayClaim(String identity, String role) {
            return false;
        }
    };

    /** True when an operator configured a store ({@code hub.role-grants}). */
    boolean configured();

    /** True only when {@code identity} is listed for {@code role} (exact, case-sensitive). */
    boolean mayClaim(String identity, String role);

    /**
     * Role-claim enforcement (core "Roles"): with a store configured, the declared roles that
     * {@code identity} is not granted are dropped silently; without one, all are kept.
     */
    default List<String> granted(String identity, List<String> declared) {
        if (!configured()) {
            return declared;
        }
        return declared.stream().filter(role -> mayClaim(identity, role)).toList();
    }
}
