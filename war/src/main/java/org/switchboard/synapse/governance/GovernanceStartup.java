package org.switchboard.synapse.governance;

import java.nio.file.Path;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.security.PolicyFileException;

/**
 * The start-up check of the enrolment overlay ({@code hub.identity-enrollments}, §7.2): a configured
 * file that is missing, too open or malformed stops the hub from serving, like every security file.
 */
public final class GovernanceStartup {

    private GovernanceStartup() {
    }

    /** Null when the configuration is usable; else the one-line refusal to log at SEVERE. */
    public static String fault(SynapseSettings settings) {
        String path = settings.identityEnrollments();
        if (path == null || path.isBlank()) {
            return null;
        }
        try {
            EnrollmentOverlay.load(Path.of(path.trim()));
            return null;
        } catch (PolicyFileException e) {
            return "SYNAPSE refuses to serve: " + e.getMessage();
        }
    }
}
