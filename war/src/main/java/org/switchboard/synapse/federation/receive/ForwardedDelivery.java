package org.switchboard.synapse.federation.receive;

import java.util.concurrent.CompletableFuture;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.federation.policy.MultihubPolicy;

/** The delivery kinds of a forward ({@code delivery_request}, {@code delivery_status}, {@code delivery_cancel}; §4.5). */
public interface ForwardedDelivery {

    /** Acts on one decoded delivery-kind forward; {@code degraded} is the journal-recovery state. */
    CompletableFuture<ForwardResult> forward(ForwardReceiver receiver, Connection peer, String origin,
                                             MultihubPolicy policy, ForwardFrame forward, boolean degraded);

    /** A hub without the delivery profile: every delivery kind refused {@code unsupported_profile}. */
    static ForwardedDelivery unsupported() {
        return (receiver, peer, origin, policy, forward, degraded) ->
                ForwardReceiver.done(ForwardResult.refused("unsupported_profile", ""));
    }
}
