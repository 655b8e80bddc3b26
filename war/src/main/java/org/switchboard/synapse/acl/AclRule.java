package org.switchboard.synapse.acl;

/**
 * One policy rule (§6.6): {@code permission} on targets of {@code kind} whose value matches
 * {@code pattern}, for senders of {@code namespace} (blank = any project). {@code index} is its
 * position in the file (first match wins).
 */
public record AclRule(int index, String permission, String kind, Glob pattern, String namespace, String reason) {

    /** True when this rule allows {@code value} to a sender of {@code project}. */
    boolean allows(String project, String value) {
        return (namespace.isEmpty() || namespace.equals(project)) && pattern.matches(value);
    }

    /** As {@link #allows(String, String)} with the value already split into code points. */
    boolean allows(String project, String value, int[] codePoints) {
        return (namespace.isEmpty() || namespace.equals(project)) && pattern.matches(value, codePoints);
    }
}
