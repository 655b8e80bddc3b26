package org.switchboard.synapse.acl;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.switchboard.synapse.security.PolicyFileException;
import org.switchboard.synapse.security.PolicyFiles;

/**
 * The role-grant store read from {@code hub.role-grants}:
 * {@code {"grants":[{"role":"ACME/attachment-read","identities":["ACME/alice"]}]}}. Roles must read
 * {@code <project>/<role>}; unknown fields, empty strings and wrong types are refused at load.
 */
public final class RoleGrantFile implements RoleGrants {

    /** Configuration key of the file. */
    public static final String KEY = "hub.role-grants";

    private final Map<String, Set<String>> identitiesByRole;

    private RoleGrantFile(Map<String, Set<String>> identitiesByRole) {
        this.identitiesByRole = identitiesByRole;
    }

    /** Reads and validates the file configured under {@link #KEY}. */
    public static RoleGrantFile load(Path path) {
        return parse(PolicyFiles.readObject(KEY, path));
    }

    /** Validates a grants object. */
    public static RoleGrantFile parse(JsonObject file) {
        for (String field : file.keySet()) {
            if (!"grants".equals(field)) {
                throw new PolicyFileException(KEY, "unknown field '" + field + "' (only \"grants\" is allowed)");
            }
        }
        if (!(file.get("grants") instanceof JsonArray grants)) {
            throw new PolicyFileException(KEY, "\"grants\" must be an array");
        }
        Map<String, Set<String>> byRole = new HashMap<>();
        for (int i = 0; i < grants.size(); i++) {
            String where = "grant " + (i + 1);
            if (!(grants.get(i) instanceof JsonObject grant)) {
                throw new PolicyFileException(KEY, where + " is not an object");
            }
            for (String field : grant.keySet()) {
                if (!"role".equals(field) && !"identities".equals(field)) {
                    throw new PolicyFileException(KEY, where + ": unknown field '" + field + "'");
                }
            }
            if (!(grant.get("role") instanceof JsonString roleValue)) {
                throw new PolicyFileException(KEY, where + ": \"role\" must be a string");
            }
            String role = roleValue.getString();
            int slash = role.indexOf('/');
            if (slash <= 0 || slash == role.length() - 1 || !role.strip().equals(role)) {
                throw new PolicyFileException(KEY, where + ": \"role\" must read <project>/<role>");
            }
            if (!(grant.get("identities") instanceof JsonArray identities)) {
                throw new PolicyFileException(KEY, where + ": \"identities\" must be an array");
            }
            Set<String> names = byRole.computeIfAbsent(role, r -> new HashSet<>());
            for (JsonValue identity : identities) {
                if (!(identity instanceof JsonString s) || s.getString().isBlank()) {
                    throw new PolicyFileException(KEY, where + ": every identity must be a non-empty string");
                }
                names.add(s.getString());
            }
        }
        byRole.replaceAll((role, names) -> Set.copyOf(names));
        return new RoleGrantFile(Map.copyOf(byRole));
    }

    @Override
    public boolean configured() {
        return true;
    }

    @Override
    public boolean mayClaim(String identity, String role) {
        Set<String> names = identitiesByRole.get(role);
        return names != null && identity != null && names.contains(identity);
    }
}
