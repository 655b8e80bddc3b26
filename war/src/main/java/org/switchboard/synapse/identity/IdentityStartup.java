package org.switchboard.synapse.identity;

import java.nio.file.Path;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.security.PolicyFileException;

/**
 * The start-up check of the identity-binding material: a configured trust bundle that does not load,
 * or {@code hub.require-identity-binding} without one, stops the hub from serving (the registration
 * step also refuses every first frame then, so nothing slips through before readiness is read).
 */
public final class IdentityStartup {

    private IdentityStartup() {
    }

    /** Null when the configuration is usable; else the one-line refusal to log at SEVERE. */
    public static String fault(SynapseSettings settings) {
        String path = settings.identityTrust();
        try {
            if (path != null && !path.isBlank()) {
                TrustBundle.load(Path.of(path.trim()));
            } else if (settings.requireIdentityBinding()) {
                throw new PolicyFileException("hub.require-identity-binding", "requires " + TrustBundle.KEY);
            }
            return null;
        } catch (PolicyFileException e) {
            return "SYNAPSE refuses to serve: " + e.getMessage();
        }
    }
}
