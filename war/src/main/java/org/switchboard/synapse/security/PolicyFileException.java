package org.switchboard.synapse.security;

/**
 * A configured security file that must stop the hub from starting: missing, unreadable, malformed,
 * too open, or holding a value the feature refuses. The message names the configuration key and the
 * fault, never the file's content (it may hold secrets).
 */
public final class PolicyFileException extends RuntimeException {

    private final String key;

    /** A fault of the file configured under {@code key}. */
    public PolicyFileException(String key, String fault) {
        super(key + ": " + fault);
        this.key = key;
    }

    /** The configuration key whose file is at fault (e.g. {@code hub.acl-policy}). */
    public String key() {
        return key;
    }
}
