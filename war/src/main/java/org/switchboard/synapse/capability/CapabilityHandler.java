package org.switchboard.synapse.capability;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Set;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.VerbHandler;
import org.switchboard.synapse.idempotency.HubReply;

/**
 * {@code advertise} and {@code manifest_request} (§11). Advertise is not idempotency-covered; a
 * persistent registration is journalled (awaited) before it is applied and broadcast.
 */
@ApplicationScoped
public class CapabilityHandler implements VerbHandler {

    @Inject
    CapabilityState state;

    @Override
    public Set<String> types() {
        return Set.of("advertise", "manifest_request");
    }

    @Override
    public boolean mutating(String type) {
        return "advertise".equals(type);
    }

    @Override
    public void handle(InboundFrame in, SynapseContext ctx) {
        CapabilityRegistry registry = state.capabilities();
        if ("manifest_request".equals(in.type())) {
            double now = ctx.frames().now();
            HubReply reply = HubReply.toRequester("manifest_snapshot", "Manifest snapshot",
                    PROVIDER.createObjectBuilder().add("manifest", registry.manifest(now)).build());
            in.connection().send(reply.toFrame(in.sender(), now, ctx.frames().hubId()).toString());
            return;
        }
        AdvertiseRequest request = AdvertiseRequest.from(in.frame());
        state.flow().run(in, ctx, true,
                (commit, now) -> registry.advertise(request, in.sender(), now, commit).mutation(), error -> { });
    }
}
