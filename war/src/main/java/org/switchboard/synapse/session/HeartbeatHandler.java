package org.switchboard.synapse.session;

import java.util.Set;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.VerbHandler;

/** {@code heartbeat}: silent; a keepalive may re-declare roles and wake capability (§4.2). */
public final class HeartbeatHandler implements VerbHandler {

    private final RegistrationService registration;

    /** Heartbeats applied through the registration rules. */
    public HeartbeatHandler(RegistrationService registration) {
        this.registration = registration;
    }

    @Override
    public Set<String> types() {
        return Set.of("heartbeat");
    }

    @Override
    public void handle(InboundFrame in, SynapseContext context) {
        if (!in.firstBind()) {
            registration.applyDeclarations(in.connection(), in.frame(), false);
        }
    }
}
