package org.switchboard.synapse.delivery;

import java.util.Set;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.VerbHandler;

/** The delivery verb family (§2): decodes nothing itself, hands each verb to {@link DeliveryService}. */
public final class DeliveryHandler implements VerbHandler {

    private final DeliveryService delivery;

    /** Verbs answered by {@code delivery}. */
    public DeliveryHandler(DeliveryService delivery) {
        this.delivery = delivery;
    }

    @Override
    public Set<String> types() {
        return Set.of("delivery_request", "delivery_boundary", "delivery_ack", "delivery_outcome",
                "delivery_status_request", "delivery_cancel");
    }

    @Override
    public boolean mutating(String type) {
        return !"delivery_status_request".equals(type);
    }

    @Override
    public void handle(InboundFrame in, SynapseContext context) {
        if (in.connection().protocolVersion() < RequestValidation.CONTRACT_VERSION) {
            delivery.refuseOldProtocol(in.connection(), in.sender(), in.frame());
            return;
        }
        switch (in.type()) {
            case "delivery_request" -> delivery.request(in.connection(), in.sender(), in.frame());
            case "delivery_cancel" -> delivery.cancel(in.connection(), in.sender(), in.frame());
            case "delivery_status_request" -> delivery.statusRequest(in.connection(), in.sender(), in.frame());
            default -> delivery.stageReport(in.connection(), in.sender(), in.type(), in.frame());
        }
    }
}
