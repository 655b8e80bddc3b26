package org.switchboard.synapse.federation.peerread;

import jakarta.enterprise.inject.spi.CDI;

/** Finds the durable peer-read audit ({@link JpaPeerReadAudit}); outside a container it lives in memory. */
public final class PeerReadAudits {

    private PeerReadAudits() {
    }

    /** The container's audit, or a memory one when there is no CDI container. */
    public static PeerReadAudit resolve() {
        try {
            var found = CDI.current().select(JpaPeerReadAudit.class);
            if (found.isResolvable()) {
                return found.get();
            }
        } catch (IllegalStateException e) {
            // no CDI container: a unit test building the hub by hand
        }
        return PeerReadAudit.memory();
    }
}
