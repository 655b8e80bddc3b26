package org.switchboard.synapse.hub;

import jakarta.json.JsonObject;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.switchboard.journal.Journal;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.chat.ChannelService;
import org.switchboard.synapse.attachments.AttachmentAuthority;
import org.switchboard.synapse.attachments.AttachmentHandler;
import org.switchboard.synapse.attachments.AttachmentLedger;
import org.switchboard.synapse.attachments.AttachmentPosture;
import org.switchboard.synapse.attachments.AttachmentService;
import org.switchboard.synapse.delivery.DeliveryHandler;
import org.switchboard.synapse.delivery.DeliveryService;
import org.switchboard.synapse.chat.ChatHandler;
import org.switchboard.synapse.chat.ChatService;
import org.switchboard.synapse.receipts.ReceiptService;
import org.switchboard.synapse.mailbox.AckHandler;
import org.switchboard.synapse.mailbox.MailboxService;
import org.switchboard.synapse.query.QueryHandler;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.ConnectionRegistry;
import org.switchboard.synapse.session.HeartbeatHandler;
import org.switchboard.synapse.session.RegistrationHooks;
import org.switchboard.synapse.session.RegistrationService;
import org.switchboard.synapse.wire.HubFrames;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.SynapseCounters;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.StateSnapshotContributor;

/**
 * Composition root of the SYNAPSE core in plain Java: builds the services and the dispatch table,
 * rebuilds in-memory state from the journal, and is what the container wrapper
 * ({@link SynapseRuntime}) and the unit tests drive.
 */
public final class SynapseHub implements RegistrationHooks {

    private final SynapseContext ctx;
    private final RegistrationService registration;
    private final ReceiptService receipts;
    private final MailboxService mailbox;
    private final ChatService chat;
    private final SynapseDispatcher dispatcher;
    private final DeliveryService delivery;
    private final Supplier<List<StateSnapshotContributor>> contributors;
    private final double startedAt;
    private volatile int corruptRows;
    private final AttachmentService attachments;
    private final org.switchboard.synapse.governance.GovernanceService governance;
    private final QueryHandler queries;
    private final DeliveryHandler deliveryHandler;
    private volatile org.switchboard.synapse.federation.outbound.ForwardService forwarding;
    private final org.switchboard.synapse.federation.FederationService federation;

    /**
     * A hub over {@code journal} ({@code null} = no journal); {@code blocking} runs journal reads,
     * {@code publish} runs post-commit fan-out.
     */
    public SynapseHub(SynapseSettings settings, Journal journal, DoubleSupplier clock, Executor blocking,
                      Executor publish, Supplier<List<StateSnapshotContributor>> contributors) {
        String hubId = resolveHubId(settings, journal);
        this.ctx = new SynapseContext(settings, new HubFrames(hubId, clock), new ConnectionRegistry(settings.staleTracking()),
                journal, new SynapseCounters(), blocking, publish);
        this.contributors = contributors;
        this.startedAt = clock.getAsDouble();
        this.receipts = new ReceiptService(ctx);
        this.mailbox = new MailboxService(ctx, receipts);
        ChannelService channels = new ChannelService(ctx);
        this.chat = new ChatService(ctx, receipts, mailbox, channels);
        this.delivery = new DeliveryService(ctx);
        this.registration = new RegistrationService(ctx, this);
        this.dispatcher = new SynapseDispatcher(ctx, registration, () -> corruptRows);
        dispatcher.register(new HeartbeatHandler(registration));
        dispatcher.register(new ChatHandler(chat));
        dispatcher.register(new AckHandler(mailbox));
        this.queries = new QueryHandler(chat, mailbox, contributors, delivery::sessionsSnapshot);
        dispatcher.register(queries);
        this.deliveryHandler = new DeliveryHandler(delivery);
        dispatcher.register(deliveryHandler);
        dispatcher.register(channels);
        this.attachments = AttachmentService.closed(ctx); // opened by the container wiring: openAttachments
        dispatcher.register(new AttachmentHandler(attachments));
        this.governance = new org.switchboard.synapse.governance.GovernanceService(ctx, registration.leases());
        dispatcher.register(new org.switchboard.synapse.governance.GovernanceHandler(governance));
        // the receiving side of cross-hub features (synapse-advanced §4.5; issue 18)
        this.federation = new org.switchboard.synapse.federation.FederationService(ctx, chat, delivery,
                attachments::store, () -> corruptRows);
        dispatcher.register(new org.switchboard.synapse.federation.FederationHandler(federation));
    }

    /** The receiving side of cross-hub features (synapse-advanced §4.5, §5.3, §7.4). */
    public org.switchboard.synapse.federation.FederationService federation() {
        return federation;
    }

    private static String resolveHubId(SynapseSettings settings, Journal journal) {
        if (!settings.configuredHubId().isEmpty()) {
            return settings.configuredHubId();
        }
        if (journal != null) {
            return journal.hubId();
        }
        byte[] random = new byte[4];
        new SecureRandom().nextBytes(random);
        return "syn-" + HexFormat.of().formatHex(random);
    }

    /** Rebuilds history, msg_id high-water, watermarks and pending receipts from the journal (§16.3). */
    public void replayJournal() {
        replayJournal(new org.switchboard.journal.ReplayFanout());
    }

    /** As {@link #replayJournal()}, in the one scan of {@code fanout} that other start-up readers joined. */
    public void replayJournal(org.switchboard.journal.ReplayFanout fanout) {
        replayJournal(fanout, org.switchboard.journal.snapshot.StartupSnapshot.off());
    }

    /**
     * As {@link #replayJournal(org.switchboard.journal.ReplayFanout)}, starting from the newest usable state
     * snapshot of {@code snapshots} (issue 20) when every reader of the scan can restore one.
     */
    public void replayJournal(org.switchboard.journal.ReplayFanout fanout,
                              org.switchboard.journal.snapshot.StartupSnapshot snapshots) {
        Journal journal = ctx.journal();
        if (journal == null) {
            return;
        }
        fanout.join(java.util.Set.of(), this::apply, snapshotParts());
        fanout.run(journal::replay, journal.lastSeq(), snapshots);
        corruptRows = journal.corruptSeqs().size();
    }

    /** The snapshot parts of the state {@link #apply} rebuilds (issue 20). */
    List<org.switchboard.journal.snapshot.SnapshotPart> snapshotParts() {
        return List.of(chat.snapshotPart(), mailbox.snapshotPart(), receipts.snapshotPart(), delivery.snapshotPart(),
                governance.snapshotPart());
    }

    private void apply(JournalEvent event) {
        chat.replay(event);
        mailbox.replay(event);
        receipts.replay(event);
        delivery.replay(event);
        governance.replay(event); // audit-only rows: rebuilds only guard_denial idem_key acknowledgements
    }

    // ---- transport entry points ----

    /** A socket opened: ceilings, then welcome (open hub). Returns false when refused. */
    public boolean opened(Connection connection) {
        return registration.opened(connection);
    }

    /** A socket closed (any reason). */
    public void closed(Connection connection) {
        registration.disconnected(connection);
        delivery.closed(connection);
        attachments.closed(connection);
        mailbox.closed(connection);
        if (connection.name() != null && ctx.registry().socketOf(connection.name()) == null) {
            dispatcher.senderGone(connection.name());
        }
    }

    /**
     * Opens the attachment store once the security layers are configured (synapse-advanced §3.1) and,
     * when it opens, adds the attachment verbs to the per-message authentication's signed set (§3.2).
     */
    public boolean openAttachments(AttachmentPosture.SecurityPieces security, AttachmentAuthority authority,
                                   Supplier<AttachmentLedger> ledger) {
        boolean open = attachments.open(security, authority, ledger);
        if (open) {
            dispatcher.signAttachmentVerbs();
        }
        return open;
    }

    /**
     * Cross-hub forwarding, origin side (synapse-advanced §4.6–4.8): hub-qualified chats, forwarded
     * delivery intents, the remote roster, and settled-forward receipts replayed on registration (step 12).
     */
    public void forwarding(org.switchboard.synapse.federation.outbound.ForwardService service) {
        this.forwarding = service;
        chat.remoteChats(service);
        queries.remoteRoster(service);
        if (service.deliveries() != null) {
            deliveryHandler.remoteDeliveries(service.deliveries());
        }
        if (service.peerReads() != null) {
            attachments.remote(service.peerReads(), ctx.frames().hubId());
        }
    }

    public SynapseDispatcher dispatcher() {
        return dispatcher;
    }

    public RegistrationService registration() {
        return registration;
    }

    public SynapseContext context() {
        return ctx;
    }

    public ChatService chat() {
        return chat;
    }

    /** Session-bound delivery (synapse-advanced §2). */
    public DeliveryService delivery() {
        return delivery;
    }

    public MailboxService mailbox() {
        return mailbox;
    }

    /**
     * The chats below {@code cut} the journal's retention must keep (issue 20), ascending: directed chats a
     * mailbox may still owe and the chats of unsettled receipts.
     */
    public long[] retainedChatsBelow(long cut) {
        return java.util.stream.LongStream.concat(java.util.Arrays.stream(mailbox.retainedBelow(cut)),
                java.util.Arrays.stream(receipts.pending().seqsBelow(cut))).sorted().distinct().toArray();
    }

    public String hubId() {
        return ctx.frames().hubId();
    }

    public int corruptRows() {
        return corruptRows;
    }

    public double uptimeSeconds() {
        return ctx.frames().now() - startedAt;
    }

    public List<StateSnapshotContributor> contributors() {
        return contributors.get();
    }

    // ---- registration hooks ----

    @Override
    public CompletableFuture<Void> flushOutbox(Connection connection) {
        return receipts.flushOutbox(connection.name()).thenRun(() -> {
            var service = forwarding;
            if (service != null) {
                service.flushReceipts(connection); // step 12: after receipts, the settled forward receipts
            }
        });
    }

    @Override
    public boolean peerHub(Connection connection, String sender) {
        return federation.peers().peerId(connection, sender,
                org.switchboard.synapse.federation.FederationService.FORWARD_VERSION, ctx.frames().now()) != null;
    }

    @Override
    public void clearDeadLetter(String name) {
        chat.deadLetters().clear(name);
    }

    @Override
    public void beforeBind(Connection connection, JsonObject registration) {
        mailbox.expectReplay(connection, registration);
    }

    @Override
    public boolean bindDelivery(Connection connection, String type, boolean firstFrame, JsonObject deliveryFrame) {
        return delivery.register(connection, type, firstFrame, deliveryFrame);
    }

    @Override
    public Supplier<CompletableFuture<Void>> replayMailbox(Connection connection, JsonObject registration) {
        return mailbox.replayOnRegistration(connection, registration);
    }
}
