package org.switchboard.synapse.acl;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.switchboard.synapse.security.PolicyFileException;
import org.switchboard.synapse.security.PolicyFiles;

/**
 * A loaded ACL policy (synapse-advanced §6.6) and its first-match evaluation. Patterns are compiled
 * once at load and rules are indexed by permission and target kind (only those can match an access),
 * with wildcard-free patterns in a hash map, so a decision against a large policy touches only the
 * few rules that could apply.
 */
public final class AclPolicy {

    /** Configuration key of the policy file. */
    public static final String KEY = "hub.acl-policy";

    private static final Set<String> TOP_FIELDS = Set.of("rules");
    private static final Set<String> RULE_FIELDS = Set.of("permission", "target_kind", "target_pattern", "namespace", "reason");

    private final List<AclRule> rules;
    private final Map<String, Bucket> buckets = new HashMap<>();

    /** Rules sharing one permission and target kind, in file order. */
    private static final class Bucket {
        final Map<String, List<AclRule>> literal = new HashMap<>();
        final List<AclRule> wildcard = new ArrayList<>();
    }

    private AclPolicy(List<AclRule> rules) {
        this.rules = List.copyOf(rules);
        for (AclRule rule : rules) {
            Bucket bucket = buckets.computeIfAbsent(bucketKey(rule.permission(), rule.kind()), k -> new Bucket());
            if (isLiteral(rule.pattern().pattern())) {
                bucket.literal.computeIfAbsent(rule.pattern().pattern(), k -> new ArrayList<>()).add(rule);
            } else {
                bucket.wildcard.add(rule);
            }
        }
    }

    /** Reads and validates the file configured under {@link #KEY} (see {@link PolicyFiles}). */
    public static AclPolicy load(Path path) {
        return parse(PolicyFiles.readObject(KEY, path));
    }

    /** Validates a policy object; any fault is a {@link PolicyFileException} naming the key and the rule's position. */
    public static AclPolicy parse(JsonObject file) {
        for (String field : file.keySet()) {
            if (!TOP_FIELDS.contains(field)) {
                throw new PolicyFileException(KEY, "unknown field '" + field + "' (only \"rules\" is allowed)");
            }
        }
        if (!(file.get("rules") instanceof JsonArray array)) {
            throw new PolicyFileException(KEY, "\"rules\" must be an array");
        }
        List<AclRule> rules = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            rules.add(rule(i, array.get(i)));
        }
        return new AclPolicy(rules);
    }

    private static AclRule rule(int index, JsonValue value) {
        String where = "rule " + (index + 1);
        if (!(value instanceof JsonObject rule)) {
            throw new PolicyFileException(KEY, where + " is not an object");
        }
        for (String field : rule.keySet()) {
            if (!RULE_FIELDS.contains(field)) {
                throw new PolicyFileException(KEY, where + ": unknown field '" + field + "'");
            }
        }
        String permission = text(rule, "permission", where, true);
        if (!Permissions.known(permission)) {
            throw new PolicyFileException(KEY, where + ": unknown permission '" + permission + "'");
        }
        String kind = text(rule, "target_kind", where, true);
        String pattern = text(rule, "target_pattern", where, true);
        String namespace = text(rule, "namespace", where, false);
        String reason = text(rule, "reason", where, false);
        return new AclRule(index, permission, kind, Glob.compile(pattern), namespace.strip(), reason);
    }

    private static String text(JsonObject rule, String field, String where, boolean required) {
        JsonValue v = rule.get(field);
        if (v == null || v.getValueType() == JsonValue.ValueType.NULL) {
            if (required) {
                throw new PolicyFileException(KEY, where + ": \"" + field + "\" is required");
            }
            return "";
        }
        if (!(v instanceof JsonString s)) {
            throw new PolicyFileException(KEY, where + ": \"" + field + "\" must be a string");
        }
        if (required && s.getString().isBlank()) {
            throw new PolicyFileException(KEY, where + ": \"" + field + "\" must not be empty");
        }
        return s.getString();
    }

    private static boolean isLiteral(String pattern) {
        return pattern.indexOf('*') < 0 && pattern.indexOf('?') < 0 && pattern.indexOf('[') < 0;
    }

    private static String bucketKey(String permission, String kind) {
        return permission + '\n' + kind;
    }

    /** The project of {@code sender}: the part before the first {@code /} (empty when there is none). */
    public static String project(String sender) {
        int slash = sender.indexOf('/');
        return slash < 0 ? "" : sender.substring(0, slash);
    }

    /** The rules in file order. */
    public List<AclRule> rules() {
        return rules;
    }

    /** First-match decision for {@code sender} wanting {@code access}; no match or an unknown permission denies. */
    public AclDecision decide(String sender, Access access) {
        String permission = access.permission();
        if (!Permissions.known(permission)) {
            return new AclDecision(false, permission, access.target(), AclDecision.UNKNOWN_PERMISSION);
        }
        Bucket bucket = buckets.get(bucketKey(permission, access.kind()));
        AclRule first = null;
        if (bucket != null) {
            String project = project(sender);
            List<AclRule> exact = bucket.literal.get(access.value());
            if (exact != null) {
                for (AclRule rule : exact) {
                    if (rule.namespace().isEmpty() || rule.namespace().equals(project)) {
                        first = rule;
                        break;
                    }
                }
            }
            // a wildcard rule wins only when it comes before the first literal match
            int[] codePoints = bucket.wildcard.isEmpty() ? null : access.value().codePoints().toArray();
            for (AclRule rule : bucket.wildcard) {
                if (first != null && rule.index() > first.index()) {
                    break;
                }
                if (rule.allows(project, access.value(), codePoints)) {
                    first = rule;
                    break;
                }
            }
        }
        if (first == null) {
            return new AclDecision(false, permission, access.target(), AclDecision.NO_MATCHING_RULE);
        }
        return new AclDecision(true, permission, access.target(),
                first.reason().isEmpty() ? AclDecision.ALLOWED_BY_RULE : first.reason());
    }
}
