package org.switchboard.synapse.federation.receive;

import jakarta.enterprise.inject.spi.CDI;
import java.util.logging.Logger;

/**
 * Finds the durable inbound ledger: the hub core is built by constructors, so the container's
 * {@link JpaInboundLedger} is looked up here; outside a container (unit tests) it lives in memory.
 */
public final class InboundLedgers {

    private static final Logger LOG = Logger.getLogger(InboundLedgers.class.getName());

    private InboundLedgers() {
    }

    /** The container's ledger, or a memory one when there is no CDI container or database. */
    public static InboundLedger resolve() {
        try {
            var found = CDI.current().select(JpaInboundLedger.class);
            if (found.isResolvable()) {
                return found.get();
            }
        } catch (IllegalStateException e) {
            // no CDI container: a unit test building the hub by hand
        }
        LOG.fine("SYNAPSE inbound forward ledger kept in memory only (no database)");
        return InboundLedger.memory();
    }
}
