package org.switchboard.synapse.resource;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Set;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.VerbHandler;

/**
 * {@code resource} (§12; the dispatcher folds {@code resource_offer} and {@code offer_resource}
 * into it): journals the offer (awaited) and broadcasts {@code resource_offered}.
 */
@ApplicationScoped
public class ResourceHandler implements VerbHandler {

    @Inject
    ResourceState state;

    @Override
    public Set<String> types() {
        return Set.of("resource");
    }

    @Override
    public boolean mutating(String type) {
        return true;
    }

    @Override
    public void handle(InboundFrame in, SynapseContext ctx) {
        ResourceOffers offers = state.resources();
        ResourceOfferRequest request = ResourceOfferRequest.from(in.frame());
        state.flow().run(in, ctx, true,
                (commit, now) -> offers.offer(request, in.sender(), now, commit).mutation(), error -> { });
    }
}
