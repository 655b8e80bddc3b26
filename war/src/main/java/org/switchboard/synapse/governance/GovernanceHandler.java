package org.switchboard.synapse.governance;

import java.util.Set;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.VerbHandler;

/** The SYNAPSE verb family of the governed operator verbs (synapse-advanced §7.1–7.3, §7.5): routes each to {@link GovernanceService}. */
public final class GovernanceHandler implements VerbHandler {

    private static final Set<String> TYPES = Set.of("identity_pin_reclaim", "identity_enroll", "identity_revoke",
            "entitlement_advert", "guard_denial");

    private final GovernanceService service;

    /** The handler over {@code service}. */
    public GovernanceHandler(GovernanceService service) {
        this.service = service;
    }

    @Override
    public Set<String> types() {
        return TYPES;
    }

    @Override
    public boolean mutating(String type) {
        return true; // each appends to the journal (refused while it is quarantined)
    }

    @Override
    public void handle(InboundFrame frame, SynapseContext context) {
        switch (frame.type()) {
            case "identity_pin_reclaim" -> service.reclaim(frame);
            case "identity_enroll" -> service.enroll(frame, false);
            case "identity_revoke" -> service.enroll(frame, true);
            case "entitlement_advert" -> service.advert(frame);
            default -> service.guardDenial(frame);
        }
    }
}
