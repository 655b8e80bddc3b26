package org.switchboard.synapse.federation.policy;

import java.util.Set;

/**
 * One grant of the multi-hub serving policy: peer hub {@code sender} may address the local project
 * {@code namespace} with {@code verbs}, optionally bound to a client-certificate pin, until
 * {@code expiresAt} (Unix seconds; null = no expiry) unless {@code revoked}.
 */
public record PeerGrant(String sender, String namespace, Set<String> verbs, String certPin, Double expiresAt,
                        boolean revoked) {

    /** True when the grant is in force at {@code now} (not revoked, not expired). */
    public boolean live(double now) {
        return !revoked && (expiresAt == null || now < expiresAt);
    }
}
