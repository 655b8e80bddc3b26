package org.switchboard.synapse;

import java.util.Set;

/**
 * The handler of one verb family, found by the dispatcher through its {@code type} table. Other
 * features (claims, board, capabilities, resources) plug in by exposing a CDI bean of this type;
 * {@link org.switchboard.synapse.hub.SynapseRuntime} adds every such bean to the table at start-up.
 */
public interface VerbHandler {

    /** Normalised {@code type} values this handler answers. */
    Set<String> types();

    /** True when the verb mutates durable state (refused while the journal is quarantined, §16.5). */
    default boolean mutating(String type) {
        return false;
    }

    /** Handles one frame; expected refusals are answered with typed frames, never thrown. */
    void handle(InboundFrame frame, SynapseContext context);
}
