package org.switchboard.synapse.identity;

import jakarta.enterprise.inject.spi.CDI;
import java.util.logging.Logger;

/**
 * Finds the durable pin store: the hub's plain-Java core is built by constructors, so the pipeline
 * step looks the container's {@link JpaPinStore} up on first use; outside a container (unit tests of
 * the hub) pins live in memory.
 */
final class PinStoreLookup {

    private static final Logger LOG = Logger.getLogger(PinStoreLookup.class.getName());

    private PinStoreLookup() {
    }

    static PinStore resolve() {
        try {
            var found = CDI.current().select(JpaPinStore.class);
            if (found.isResolvable()) {
                return found.get();
            }
        } catch (IllegalStateException e) {
            // no CDI container: a unit test building the hub by hand
        }
        LOG.warning("SYNAPSE identity pins kept in memory only (no database): they are lost on restart");
        return IdentityPins.memoryStore();
    }
}
