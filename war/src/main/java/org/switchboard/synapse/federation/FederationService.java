package org.switchboard.synapse.federation;

import jakarta.json.JsonObject;
import java.nio.file.Path;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.attachments.AttachmentStore;
import org.switchboard.synapse.chat.ChatService;
import org.switchboard.synapse.delivery.DeliveryService;
import org.switchboard.synapse.federation.peerread.PeerReadAudits;
import org.switchboard.synapse.federation.peerread.PeerReadService;
import org.switchboard.synapse.federation.policy.MultihubPolicy;
import org.switchboard.synapse.federation.policy.PeerAuthority;
import org.switchboard.synapse.federation.policy.PolicySource;
import org.switchboard.synapse.federation.policy.RecipientPolicy;
import org.switchboard.synapse.federation.receive.DeliveryForwards;
import org.switchboard.synapse.federation.receive.ForwardReceiver;
import org.switchboard.synapse.federation.receive.InboundLedgers;
import org.switchboard.synapse.security.PolicyFileException;
import org.switchboard.synapse.spend.SpendLedger;
import org.switchboard.synapse.spend.SpendService;

/**
 * The receiving side of cross-hub features (synapse-advanced §4.5, §5.3, §7.4): which connection is a
 * proven peer, and the frames only a peer may send. A connection that is not a proven peer gets a
 * private {@code error} for a forward (the spec names no other refusal for it) and stays open; peer
 * reads and spend requests answer it with their uniform refusals.
 */
public final class FederationService {

    /** The private error a non-peer gets for a forward; it does not say which check failed. */
    public static final String NOT_A_PEER = "Hub-to-hub frames are served only to a granted peer hub";
    /** Lowest negotiated version for forwards (§1.1). */
    public static final int FORWARD_VERSION = 5;

    private static final Logger LOG = Logger.getLogger(FederationService.class.getName());

    private final SynapseContext ctx;
    private final PeerAuthority peers;
    private final ForwardReceiver receiver;
    private final PeerReadService peerReads;
    private final SpendService spend;
    private final Supplier<AttachmentStore> attachments;
    private final java.util.concurrent.atomic.LongAdder notPeer = new java.util.concurrent.atomic.LongAdder();

    /**
     * The receiving side wired to the hub's chat router, delivery service, attachment store (null while
     * closed) and journal-recovery state, configured from {@link SynapseSettings}.
     */
    public FederationService(SynapseContext ctx, ChatService chat, DeliveryService delivery,
                             Supplier<AttachmentStore> attachments, IntSupplier corruptRows) {
        this.ctx = ctx;
        SynapseSettings s = ctx.settings();
        this.peers = new PeerAuthority(policySource(s.multihubPolicy()), s.secured());
        this.receiver = new ForwardReceiver(ctx, chat,
                InboundLedgers.resolve(ctx.hasJournal() ? ctx.journal() : null), corruptRows, delivery::sessionsSnapshot,
                new DeliveryForwards(ctx, delivery));
        this.attachments = attachments;
        this.peerReads = new PeerReadService(ctx, peers, path(s.attachmentRecipientPolicy()), attachments,
                PeerReadAudits.resolve());
        this.spend = new SpendService(ctx, peers, SpendService.ledgerAt(s.spendLedger(),
                new SpendLedger.Limits(s.spendMaxLiveReservations(), s.spendRetentionSeconds())));
    }

    /**
     * The policy source for {@code hub.multihub-policy}; a file that does not load yields a deny-all
     * source here ({@link #startupFault} refuses to serve with it anyway).
     */
    static PolicySource<MultihubPolicy> policySource(String configured) {
        try {
            return PolicySource.open(path(configured), MultihubPolicy::load, MultihubPolicy.none());
        } catch (PolicyFileException e) {
            LOG.fine("multihub policy refused: " + e.getMessage());
            return PolicySource.open(null, MultihubPolicy::load, MultihubPolicy.none());
        }
    }

    private static Path path(String configured) {
        return configured == null || configured.isBlank() ? null : Path.of(configured.trim());
    }

    /**
     * The start-up refusal of the receiving side's configuration (null when usable), one line naming
     * the key: a multihub policy, recipient policy or spend ledger that does not load, or a recipient
     * policy without the complete attachment posture (§3.1) and a multihub policy (§5.1).
     */
    public String startupFault() {
        SynapseSettings s = ctx.settings();
        try {
            if (path(s.multihubPolicy()) != null) {
                MultihubPolicy.load(path(s.multihubPolicy()));
            }
            if (path(s.attachmentRecipientPolicy()) != null) {
                if (path(s.multihubPolicy()) == null || attachments.get() == null) {
                    return "SYNAPSE refuses to serve: " + RecipientPolicy.KEY + ": peer attachment reads need the complete"
                            + " attachment posture (hub.attachments.dir and its security layers) and hub.multihub-policy";
                }
                RecipientPolicy.load(path(s.attachmentRecipientPolicy()));
            }
            if (path(s.spendLedger()) != null) {
                if (s.spendMaxLiveReservations() < 1 || s.spendRetentionSeconds() < 0) {
                    return "SYNAPSE refuses to serve: hub.spend-max-live-reservations must be at least 1 and"
                            + " hub.spend-retention-seconds at least 0";
                }
                SpendLedger.load(path(s.spendLedger()));
            }
            return null;
        } catch (PolicyFileException e) {
            return "SYNAPSE refuses to serve: " + e.getMessage();
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

    /** The §5.3 peer attachment reads. */
    public PeerReadService peerReads() {
        return peerReads;
    }

    /** The §7.4 spend verb. */
    public SpendService spend() {
        return spend;
    }

    /** Non-peer connections refused a forward (for /metrics). */
    public long notPeerRefusals() {
        return notPeer.sum();
    }

    /** One {@code multihub_message_forward}. */
    public void forward(Connection connection, JsonObject frame) {
        double now = ctx.frames().now();
        String origin = peers.peerId(connection, FORWARD_VERSION, now);
        if (origin == null) {
            notPeer.increment();
            connection.send(ctx.frames().errorText(connection.name(), NOT_A_PEER));
            return;
        }
        receiver.receive(connection, origin, peers.policy(), frame);
    }
}
