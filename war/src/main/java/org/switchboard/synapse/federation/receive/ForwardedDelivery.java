package org.switchboard.synapse.federation.receive;

import java.util.concurrent.CompletableFuture;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.federation.policy.MultihubPolicy;

/** The delivery kinds of a forward ({@code delivery_request}, {@code delivery_status}, {@code delivery_cancel}; §4.5). */
public interface ForwardedDelivery {

    /** Acts on one decoded delivery-kind forward; {@code degraded} is the journal-recovery state. */
    CompletableFuture<ForwardResult> forward(ForwardReceiver receiver, Connection peer, String origin,
                                             MultihubPolicy policy, ForwardFrame forward, boolean degraded);
}
