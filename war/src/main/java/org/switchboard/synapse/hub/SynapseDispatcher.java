package org.switchboard.synapse.hub;

import jakarta.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.logging.LogSafe;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.VerbHandler;
import org.switchboard.synapse.acl.gate.AclGate;
import org.switchboard.synapse.identity.IdentityProofStep;
import org.switchboard.synapse.messageauth.MessageAuthStep;
import org.switchboard.synapse.pipeline.DispatchSteps;
import org.switchboard.synapse.pipeline.FrameInFlight;
import org.switchboard.synapse.pipeline.FramePipeline;
import org.switchboard.synapse.pipeline.RegistrationSteps;
import org.switchboard.synapse.pipeline.RoutingSteps;
import org.switchboard.synapse.ratelimit.FrameRateLimits;
import org.switchboard.synapse.session.RegistrationService;
import org.switchboard.synapse.wire.CloseCodes;
import org.switchboard.synapse.wire.HubStrings;

/**
 * Receives every inbound frame and runs it through the frame pipeline of synapse-advanced §1.4,
 * declared below in {@link #declare} as one ordered list of steps, the last of which hands it to the
 * {@link VerbHandler} registered for its {@code type}.
 */
public final class SynapseDispatcher {

    private static final Logger LOG = Logger.getLogger(SynapseDispatcher.class.getName());

    private final SynapseContext ctx;
    private final Map<String, VerbHandler> handlers = new ConcurrentHashMap<>();
    private final FrameRateLimits rateLimits;
    private final FramePipeline pipeline;
    private final MessageAuthStep messageAuth;

    /** A dispatcher with an empty handler table. */
    public SynapseDispatcher(SynapseContext ctx, RegistrationService registration, IntSupplier corruptRows) {
        this.ctx = ctx;
        this.rateLimits = new FrameRateLimits(ctx);
        this.messageAuth = MessageAuthStep.forHub(ctx);
        this.pipeline = declare(ctx, registration, rateLimits, handlers, corruptRows, messageAuth);
    }

    /** The attachment store opened: its verbs join step 14's signed set (synapse-advanced §3.2, §6.3). */
    public void signAttachmentVerbs() {
        messageAuth.signAttachmentVerbs();
    }

    /**
     * The pipeline, in the order of synapse-advanced §1.4 (numbers are its steps). Step 12's
     * replays are queued by the name resolution; steps 16 and 18 (federation, claim-ownership
     * routing) belong to cross-hub features not built; the first-frame steps pass bound sockets through.
     */
    static FramePipeline declare(SynapseContext ctx, RegistrationService registration, FrameRateLimits rateLimits,
                                 Map<String, VerbHandler> handlers, IntSupplier corruptRows, MessageAuthStep messageAuth) {
        return FramePipeline.builder()
                .then("1 decode", new RoutingSteps.Decode(ctx))
                .then("2 per-host rate limit", new RoutingSteps.HostRateLimit(rateLimits))
                .then("3 routing fields", new RoutingSteps.RoutingFields(ctx))
                .then("first frame", new RegistrationSteps.FirstFrame())
                .then("sender named", new RegistrationSteps.SenderNamed(registration))
                .then("4 reserved names", new RegistrationSteps.ReservedNames(registration))
                .then("5 connect token", new RegistrationSteps.ConnectToken(registration))
                .then("6 identity proof", new IdentityProofStep(ctx))
                .then("7 token removed", new RegistrationSteps.TokenRemoved())
                .then("8-9 name resolution and welcome", new RegistrationSteps.NameResolution(registration))
                .then("name switch", new RegistrationSteps.NameSwitch(registration))
                .then("10 liveness", new RegistrationSteps.Liveness(registration))
                .then("11 delivery-session binding", new RegistrationSteps.DeliveryBinding(registration))
                .then("13 per-sender rate limit", new DispatchSteps.SenderRateLimit(rateLimits))
                .then("14 per-message authentication", messageAuth)
                .then("known type", new DispatchSteps.KnownType(ctx, handlers))
                .then("15 journal-recovery gate", new DispatchSteps.JournalRecoveryGate(ctx, corruptRows))
                .then("17 ACL", new AclGate(ctx))
                .then("19 dispatch", new DispatchSteps.Dispatch(ctx))
                .build();
    }

    /** The pipeline's step names in order. */
    public java.util.List<String> steps() {
        return pipeline.names();
    }

    /** Adds a verb family to the table; the first handler registered for a type keeps it. */
    public void register(VerbHandler handler) {
        for (String type : handler.types()) {
            VerbHandler previous = handlers.putIfAbsent(type, handler);
            if (previous != null && previous != handler) {
                LOG.warning("type '" + type + "' already handled by " + previous.getClass().getSimpleName());
            }
        }
    }

    /** The name left the hub: its per-sender rate state is forgotten (§4.10). */
    public void senderGone(String name) {
        rateLimits.forgetSender(name);
    }

    /** True when {@code type} has a handler. */
    public boolean handles(String type) {
        return handlers.containsKey(type);
    }

    /** One binary frame: UTF-8 decoded strictly; undecodable bytes are malformed JSON (never a close). */
    public void onBinary(Connection connection, ByteBuffer bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes).toString();
        } catch (CharacterCodingException e) {
            connection.send(ctx.frames().errorText("all", HubStrings.MALFORMED_JSON));
            return;
        }
        onText(connection, text);
    }

    /**
     * One text frame. An unexpected exception closes only this connection with 1011; the normal
     * disconnect path then unbinds the name and announces {@code left} (§6.3).
     */
    public void onText(Connection connection, String text) {
        if (connection.closing() || connection.superseded()) {
            return;
        }
        try {
            pipeline.run(new FrameInFlight(connection, text));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "unexpected failure handling a frame on " + LogSafe.text(connection) + "; closing it",
                    LogSafe.failure(e));
            connection.close(CloseCodes.UNEXPECTED, CloseCodes.REASON_INTERNAL);
        } finally {
            messageAuth.frameDone(); // step 14's nonce durable before this frame's held writes leave
        }
    }

    /** The frame as a handler receives it (see {@link DispatchSteps#normalised}). */
    static JsonObject normalised(JsonObject frame, String name, String type, String target) {
        return DispatchSteps.normalised(frame, name, type, target);
    }
}
