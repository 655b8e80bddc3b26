package org.switchboard.synapse.federation;

import java.util.Set;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.VerbHandler;

/** The hub-to-hub verbs a receiving hub serves: hands each to {@link FederationService}. */
public final class FederationHandler implements VerbHandler {

    private final FederationService federation;

    /** The verbs over the given service. */
    public FederationHandler(FederationService federation) {
        this.federation = federation;
    }

    @Override
    public Set<String> types() {
        return Set.of("multihub_message_forward", "attachment_peer_request", "spend_request");
    }

    @Override
    public void handle(InboundFrame in, SynapseContext context) {
        switch (in.type()) {
            case "multihub_message_forward" -> federation.forward(in.connection(), in.frame());
            case "attachment_peer_request" -> federation.peerReads().handle(in.connection(), in.frame());
            case "spend_request" -> federation.spend().handle(in.connection(), in.frame());
            default -> { }
        }
    }
}
