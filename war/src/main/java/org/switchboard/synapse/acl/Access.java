package org.switchboard.synapse.acl;

/**
 * One access a frame needs: a permission on a target written {@code kind:value} (e.g. {@code message}
 * on {@code agent:ACME/bob}).
 */
public record Access(String permission, String kind, String value) {

    /** The target as refusals name it: {@code kind:value}. */
    public String target() {
        return kind + ":" + value;
    }
}
