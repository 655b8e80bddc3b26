package org.switchboard.synapse.federation;

import jakarta.json.JsonObject;
import java.nio.file.Path;
import java.util.logging.Logger;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.federation.policy.MultihubPolicy;
import org.switchboard.synapse.federation.policy.PolicySource;
import org.switchboard.synapse.federation.receive.ForwardReceiver;
import org.switchboard.synapse.security.PolicyFileException;

/**
 * The receiving side of cross-hub features (synapse-advanced §4.5, §5.3, §7.4): which connection is a
 * proven peer, and the frames only a peer may send. A connection that is not a proven peer gets a
 * private {@code error} (the spec names no other refusal for it) and stays open.
 */
public final class FederationService {

    /** The private error a non-peer gets for a hub-to-hub frame; it does not say which check failed. */
    public static final String NOT_A_PEER = "Hub-to-hub frames are served only to a granted peer hub";
    /** Lowest negotiated version for forwards (§1.1). */
    public static final int FORWARD_VERSION = 5;

    private static final Logger LOG = Logger.getLogger(FederationService.class.getName());

    private final SynapseContext ctx;
    private final PeerAuthority peers;
    private final ForwardReceiver receiver;
    private final java.util.concurrent.atomic.LongAdder notPeer = new java.util.concurrent.atomic.LongAdder();

    /** The service over a loaded policy source and the forward receiver. */
    public FederationService(SynapseContext ctx, PolicySource<MultihubPolicy> policy, ForwardReceiver receiver) {
        this.ctx = ctx;
        this.peers = new PeerAuthority(policy, ctx.settings().secured());
        this.receiver = receiver;
    }

    /**
     * The policy source for {@code hub.multihub-policy}; a file that does not load yields a deny-all
     * source here (the start-up check, {@link FederationStartup}, refuses to serve with it anyway).
     */
    public static PolicySource<MultihubPolicy> policySource(String configured) {
        Path path = configured == null || configured.isBlank() ? null : Path.of(configured.trim());
        try {
            return PolicySource.open(path, MultihubPolicy::load, MultihubPolicy.none());
        } catch (PolicyFileException e) {
            LOG.fine("multihub policy refused: " + e.getMessage());
            return PolicySource.open(null, MultihubPolicy::load, MultihubPolicy.none());
        }
    }

    /** The peers' judge. */
    public PeerAuthority peers() {
        return peers;
    }

    /** The §4.5 receiver. */
    public ForwardReceiver receiver() {
        return receiver;
    }

    /** Non-peer connections refused a hub-to-hub frame (for /metrics). */
    public long notPeerRefusals() {
        return notPeer.sum();
    }

    /** One {@code multihub_message_forward}. */
    public void forward(Connection connection, JsonObject frame) {
        double now = ctx.frames().now();
        String origin = peers.peerId(connection, FORWARD_VERSION, now);
        if (origin == null) {
            refuseNonPeer(connection);
            return;
        }
        receiver.receive(connection, origin, peers.policy(), frame);
    }

    void refuseNonPeer(Connection connection) {
        notPeer.increment();
        connection.send(ctx.frames().errorText(connection.name(), NOT_A_PEER));
    }
}
