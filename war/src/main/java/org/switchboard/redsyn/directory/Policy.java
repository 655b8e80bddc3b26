package org.switchboard.redsyn.directory;

import java.util.List;

/**
 * What an agent takes: {@code allow} (handles, {@code team:x}, {@code org}, {@code org:other}; empty =
 * its own team), {@code trust} ({@code none} or {@code full}), {@code signed_only}, {@code encrypted_only}.
 */
public record Policy(List<String> allow, String trust, boolean signedOnly, boolean encryptedOnly) {

    /** The policy of an agent that never announced one: its own team, no trust, anything. */
    public static final Policy DEFAULT = new Policy(List.of(), "none", false, false);

    public Policy {
        allow = allow == null ? List.of() : List.copyOf(allow);
        trust = trust == null ? "none" : trust;
    }

    /** True for {@code trust: full}. */
    public boolean fullTrust() {
        return "full".equals(trust);
    }

    /** The allow list stored as one comma-separated column. */
    public String allowText() {
        return String.join(",", allow);
    }

    /** Parses the stored allow column. */
    public static List<String> parseAllow(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        return List.of(text.split(","));
    }
}
