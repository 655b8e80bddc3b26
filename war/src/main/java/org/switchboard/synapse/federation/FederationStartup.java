package org.switchboard.synapse.federation;

import java.nio.file.Path;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.federation.policy.MultihubPolicy;
import org.switchboard.synapse.security.PolicyFileException;

/**
 * The start-up check of the receiving side's files: a configured {@code hub.multihub-policy} that is
 * missing, too open, too large or malformed stops the hub from serving, like every security file.
 */
public final class FederationStartup {

    private FederationStartup() {
    }

    /** Null when the configuration is usable; else the one-line refusal to log at SEVERE (never file content). */
    public static String fault(SynapseSettings settings) {
        String path = settings.multihubPolicy();
        if (path == null || path.isBlank()) {
            return null;
        }
        try {
            MultihubPolicy.load(Path.of(path.trim()));
            return null;
        } catch (PolicyFileException e) {
            return "SYNAPSE refuses to serve: " + e.getMessage();
        }
    }
}
