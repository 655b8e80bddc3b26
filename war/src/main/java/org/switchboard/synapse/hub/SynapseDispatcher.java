package org.switchboard.synapse.hub;

import org.switchboard.json.Jsons;
import org.switchboard.logging.LogSafe;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.synapse.ratelimit.FrameRateLimits;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.delivery.SessionRegistration;
import org.switchboard.synapse.session.RegistrationService;
import org.switchboard.synapse.wire.CloseCodes;
import org.switchboard.synapse.wire.FrameDecoder;
import org.switchboard.synapse.wire.HubStrings;
import org.switchboard.synapse.VerbHandler;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;

/**
 * The inbound frame pipeline of §5: bounded decode, object and routing-field checks, defaults,
 * first-frame bind, liveness touch, journal-recovery gate, normalisation, then dispatch to the
 * {@link VerbHandler} registered for the frame's {@code type}.
 */
public final class SynapseDispatcher {

    private static final Logger LOG = Logger.getLogger(SynapseDispatcher.class.getName());
    private static final String[] ROUTING_FIELDS = {"sender", "target", "type", "channel"};
    /** Type aliases of §5: resource offers arrive under three names and reach one handler as {@code resource}. */
    private static final Map<String, String> ALIASES = Map.of("resource_offer", "resource", "offer_resource", "resource");

    private final SynapseContext ctx;
    private final RegistrationService registration;
    private final FrameDecoder decoder = new FrameDecoder();
    private final Map<String, VerbHandler> handlers = new ConcurrentHashMap<>();
    private final IntSupplier corruptRows;
    private final FrameRateLimits rateLimits;

    /** A dispatcher with an empty handler table. */
    public SynapseDispatcher(SynapseContext ctx, RegistrationService registration, IntSupplier corruptRows) {
        this.ctx = ctx;
        this.registration = registration;
        this.corruptRows = corruptRows;
        this.rateLimits = new FrameRateLimits(ctx);
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
            process(connection, text);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "unexpected failure handling a frame on " + LogSafe.text(connection) + "; closing it",
                    LogSafe.failure(e));
            connection.close(CloseCodes.UNEXPECTED, CloseCodes.REASON_INTERNAL);
        }
    }

    private void process(Connection connection, String text) {
        JsonValue value;
        try {
            value = decoder.decode(text);
        } catch (FrameDecoder.MalformedJsonException e) {
            connection.send(ctx.frames().errorText("all", HubStrings.MALFORMED_JSON));
            return;
        }
        if (!(value instanceof JsonObject frame)) {
            connection.send(ctx.frames().errorText("all", HubStrings.NOT_AN_OBJECT));
            return;
        }
        if (!rateLimits.admitHost(connection)) {
            return;
        }
        for (String field : ROUTING_FIELDS) {
            JsonValue v = frame.get(field);
            if (v != null && v != JsonValue.NULL && !(v instanceof JsonString)) {
                connection.send(ctx.frames().errorText("all", HubStrings.fieldMustBeString(field)));
                return;
            }
        }
        // each read once: Parsson's getString() builds a new String on every call
        String rawSender = stringOrNull(frame.get("sender"));
        String rawTarget = stringOrNull(frame.get("target"));
        String rawType = stringOrNull(frame.get("type"));
        String sender = rawSender == null ? "" : rawSender.trim();
        String target = rawTarget == null ? "" : rawTarget.trim();
        if (target.isEmpty()) {
            target = "all";
        }
        String type = (rawType == null ? "" : rawType.trim()).toLowerCase(Locale.ROOT);
        if (type.isEmpty()) {
            type = "chat";
        }
        type = ALIASES.getOrDefault(type, type);
        JsonObject deliveryFrame = null;
        if (SessionRegistration.present(frame)) {
            // the session token reaches nothing but the delivery binding (synapse-advanced §2.2 step 1)
            deliveryFrame = frame;
            frame = SessionRegistration.strip(frame);
        }
        boolean firstBind = false;
        if (!connection.isBound()) {
            if (connection.firstFrameHandled() || !registration.bindFirstFrame(connection, sender, frame)) {
                return;
            }
            firstBind = true;
        } else if (!sender.isEmpty() && !sender.equals(connection.name())) {
            registration.refuseNameSwitch(connection, sender);
            return;
        }
        if (connection.superseded()) {
            return;
        }
        String name = connection.name();
        registration.touch(connection, "heartbeat".equals(type), firstBind);
        if ((firstBind || deliveryFrame != null) && !registration.bindDelivery(connection, type, firstBind, deliveryFrame)) {
            return;
        }
        if (!rateLimits.admitSender(connection, name, type)) {
            return;
        }
        VerbHandler handler = handlers.get(type);
        if (handler == null) {
            connection.send(ctx.frames().errorText(name, HubStrings.unknownType(type)));
            return;
        }
        int corrupt = corruptRows.getAsInt();
        if (corrupt > 0 && handler.mutating(type)) {
            connection.send(ctx.frames().error(name, HubStrings.RECOVERY_REQUIRED)
                    .add("journal_recovery_required", true).add("corrupt_rows", corrupt)
                    .add("first_corrupt_seq", firstCorruptSeq()).build().toString());
            return;
        }
        JsonObject canonical = normalised(frame, name, type, target, rawSender, rawType, rawTarget);
        handler.handle(new InboundFrame(connection, name, type, target, canonical, firstBind), ctx);
    }

    /**
     * The frame without {@code token} and with the bound sender, canonical type and target. Most frames
     * already read so (a client names itself, a lower-case type, a trimmed target): those are passed on
     * as they are, since copying every frame's members to change nothing was a measurable part of the
     * chat path. Replacing a member keeps its position, so an unchanged frame equals the copy.
     */
    static JsonObject normalised(JsonObject frame, String name, String type, String target) {
        return normalised(frame, name, type, target, stringOrNull(frame.get("sender")), stringOrNull(frame.get("type")),
                stringOrNull(frame.get("target")));
    }

    /** As {@link #normalised(JsonObject, String, String, String)}, given the frame's routing strings as sent (null: absent or not a string). */
    private static JsonObject normalised(JsonObject frame, String name, String type, String target,
                                         String sentSender, String sentType, String sentTarget) {
        if (name.equals(sentSender) && type.equals(sentType) && target.equals(sentTarget) && !frame.containsKey("token")) {
            return frame;
        }
        JsonObjectBuilder normalised = Jsons.PROVIDER.createObjectBuilder(frame);
        normalised.remove("token");
        normalised.add("sender", name).add("type", type).add("target", target);
        return normalised.build();
    }


    private long firstCorruptSeq() {
        var seqs = ctx.hasJournal() ? ctx.journal().corruptSeqs() : java.util.List.<Long>of();
        return seqs.isEmpty() ? 0 : seqs.stream().mapToLong(Long::longValue).min().orElse(0);
    }

    private static String stringOrNull(JsonValue value) {
        return value instanceof JsonString s ? s.getString() : null;
    }
}
