package org.switchboard.synapse.delivery;

import java.util.Set;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.VerbHandler;

/** The delivery verb family (§2): decodes nothing itself, hands each verb to {@link DeliveryService}. */
public final class DeliveryHandler implements VerbHandler {

    private final DeliveryService delivery;
    private volatile RemoteDeliveries remote;

    /** Verbs answered by {@code delivery}. */
    public DeliveryHandler(DeliveryService delivery) {
        this.delivery = delivery;
    }

    /** Installs the cross-hub forwarding of delivery verbs (synapse-advanced §4.7). */
    public void remoteDeliveries(RemoteDeliveries forwarding) {
        this.remote = forwarding;
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
        RemoteDeliveries forwarding = remote;
        if (forwarding != null && forwarding.take(in.connection(), in.sender(), in.type(), in.frame())) {
            return; // a seat on another hub, or a follow-up of a forwarded request (synapse-advanced §4.7)
        }
        switch (in.type()) {
            case "delivery_request" -> delivery.request(in.connection(), in.sender(), in.frame());
            case "delivery_cancel" -> delivery.cancel(in.connection(), in.sender(), in.frame());
            case "delivery_status_request" -> delivery.statusRequest(in.connection(), in.sender(), in.frame());
            default -> delivery.stageReport(in.connection(), in.sender(), in.type(), in.frame());
        }
    }
}
