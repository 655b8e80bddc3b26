package org.switchboard.synapse;

/**
 * The running hub's context for container beans that are not part of the wiring (coordination
 * state, snapshots). The hub's runtime implements it, so features need not depend on the wiring.
 */
public interface SynapseContextSource {

    /** The context of the hub, built (and its journal replayed) on first use. */
    SynapseContext context();
}
