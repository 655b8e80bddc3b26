package org.switchboard.synapse.messageauth;

import java.nio.file.Path;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.security.PolicyFileException;

/**
 * The start-up check of the per-message authentication material: a configured key file or trust
 * bundle that does not load, or {@code hub.require-message-auth} with neither, stops the hub from
 * serving. Its text names the key and the fault, never a secret.
 */
public final class MessageAuthStartup {

    private MessageAuthStartup() {
    }

    /** Null when the configuration is usable; else the one-line refusal to log at SEVERE. */
    public static String fault(SynapseSettings settings) {
        try {
            load(settings);
            return null;
        } catch (PolicyFileException e) {
            return "SYNAPSE refuses to serve: " + e.getMessage();
        }
    }

    /** The loaded material; throws {@link PolicyFileException} as {@link #fault} describes. */
    static Material load(SynapseSettings settings) {
        MessageAuthKeys keys = settings.messageAuthKeyFile().isEmpty() ? null
                : MessageAuthKeys.load(Path.of(settings.messageAuthKeyFile()));
        SignedEventTrust trust = settings.signedEventTrust().isEmpty() ? null
                : SignedEventTrust.load(Path.of(settings.signedEventTrust()));
        if (settings.requireMessageAuth() && keys == null && trust == null) {
            throw new PolicyFileException("hub.require-message-auth",
                    "requires hub.message-auth.key-file or hub.signed-event-trust");
        }
        if (settings.messageAuthWindowSeconds() < 1 || settings.messageAuthSkewSeconds() < 0
                || settings.messageAuthNonceCache() < 1) {
            throw new PolicyFileException("hub.message-auth.window-seconds",
                    "window must be >= 1, skew >= 0 and nonce-cache >= 1");
        }
        return new Material(keys, trust);
    }

    /** What the files hold (either may be null). */
    record Material(MessageAuthKeys keys, SignedEventTrust trust) {
    }
}
