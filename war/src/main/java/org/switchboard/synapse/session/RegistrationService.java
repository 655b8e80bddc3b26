package org.switchboard.synapse.session;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.wire.CloseCodes;
import org.switchboard.synapse.wire.HubStrings;
import org.switchboard.synapse.wire.JsonFields;
import org.switchboard.json.JsonText;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.ConnectionRegistry;

/**
 * Connection lifecycle (§4): admission ceilings and welcome on open, the first-frame steps of the
 * frame pipeline (sender named, reserved names, token auth, name resolution with ownership lease,
 * conflicts and damped takeover, welcome), presence, liveness touches, name-switch refusal and
 * disconnect cleanup.
 */
public final class RegistrationService {

    private static final Set<String> RESERVED = Set.of("synapsehub", "synapse", "system");
    private static final Set<String> WAKE_CAPABILITIES = Set.of("direct", "passive", "pane_bridge");

    private final SynapseContext ctx;
    private final TokenAuthenticator auth;
    private final NameLeases leases;
    private final TakeoverDamper damper = new TakeoverDamper();
    private final RegistrationHooks hooks;

    /** Lifecycle rules for the given hub. */
    public RegistrationService(SynapseContext ctx, RegistrationHooks hooks) {
        this.ctx = ctx;
        this.hooks = hooks;
        this.leases = new NameLeases(ctx.settings().leaseOfflineTtlSeconds());
        this.auth = new TokenAuthenticator(ctx.settings().token());
    }

    /** Applies the admission ceilings; an admitted socket on an open hub gets its welcome at once. */
    public boolean opened(Connection connection) {
        SynapseSettings s = ctx.settings();
        ConnectionRegistry.Admission admission = ctx.registry().admit(connection, s.maxClients(),
                s.maxClientsPerHost(), auth.secured(), s.effectiveMaxUnauthenticated());
        if (!admission.admitted()) {
            connection.close(admission.closeCode(), admission.reason());
            return false;
        }
        if (!auth.secured()) {
            connection.send(welcome(null));
        }
        return true;
    }

    /** Closes a socket that has not bound a name within the auth timeout (4012). */
    public void registrationDeadline(Connection connection) {
        if (!connection.isBound() && connection.peer().isOpen() && !connection.closing()) {
            connection.close(CloseCodes.AUTH_TIMEOUT,
                    auth.secured() ? CloseCodes.REASON_AUTH_TIMEOUT : CloseCodes.REASON_REGISTRATION_TIMEOUT);
        }
    }

    /** How the first frame's name resolution ended. */
    public enum Bind {
        /** Refused: the refusal is sent and the socket closing. */
        REFUSED,
        /** The name was free and is now this socket's. */
        BOUND,
        /** An accepted takeover moved the name from its old socket to this one. */
        TOOK_OVER,
        /** A proven peer hub: named, not bound (several of its sockets may be open at once). */
        PEER
    }

    /**
     * The first frame must name its sender (core §4.4): without one the socket is closed. Marks the
     * socket's first frame as handled either way, so a frame racing a refusal is ignored.
     */
    public boolean named(Connection connection, String sender) {
        connection.firstFrameHandled(true);
        if (sender.isEmpty()) {
            connection.close(CloseCodes.AUTH,
                    auth.secured() ? CloseCodes.REASON_AUTH_REQUIRED : CloseCodes.REASON_REGISTRATION_REQUIRED);
            return false;
        }
        return true;
    }

    /** Hub and system identities and any name with {@code @} are refused with 4009 (§1.4 step 4). */
    public boolean notReserved(Connection connection, String sender) {
        if (isReserved(sender)) {
            refuse(connection, "name_conflict", sender, HubStrings.reservedName(sender), CloseCodes.NAME_CONFLICT,
                    CloseCodes.REASON_RESERVED);
            return false;
        }
        return true;
    }

    /**
     * Connect-token authentication on a secured hub (§1.4 step 5): a wrong or missing token is refused
     * and closed; a good one sets the socket's credential principal.
     */
    public boolean authenticated(Connection connection, String sender, JsonObject frame) {
        if (!auth.secured()) {
            return true;
        }
        String presented = JsonFields.string(frame, "token");
        String refusal = auth.refusal(presented);
        if (refusal != null) {
            ctx.counters().authFailures.increment();
            refuse(connection, "auth_denied", sender, refusal, CloseCodes.AUTH, CloseCodes.REASON_AUTH_DENIED);
            return false;
        }
        connection.quotaPrincipal(TokenAuthenticator.principalFor(presented));
        return true;
    }

    /**
     * Name resolution (§1.4 step 8): the ownership lease, declarations, uniqueness and damped
     * takeover, and a lease granted on request. {@code frame} no longer carries {@code token}.
     */
    public Bind resolveName(Connection connection, String sender, JsonObject frame) {
        double now = ctx.frames().now();
        if (leases.blocks(sender, JsonFields.string(frame, "owner_lease"), now)) {
            refuse(connection, "name_conflict", sender, HubStrings.nameOwned(sender), CloseCodes.NAME_OWNED,
                    CloseCodes.REASON_NAME_OWNED);
            return Bind.REFUSED;
        }
        applyDeclarations(connection, frame, true);
        if (hooks.peerHub(connection, sender)) {
            connection.name(sender);
            return Bind.PEER;
        }
        hooks.beforeBind(connection, frame);
        boolean takeover = false;
        for (int attempt = 0; ; attempt++) {
            Connection holder = ctx.registry().bindIfFree(sender, connection);
            if (holder == null) {
                break;
            }
            if (!JsonFields.isTrue(frame, "takeover") || attempt > 3) {
                refuse(connection, "name_conflict", sender, HubStrings.nameTaken(sender), CloseCodes.NAME_CONFLICT,
                        CloseCodes.REASON_NAME_CONFLICT);
                return Bind.REFUSED;
            }
            TakeoverDamper.Verdict verdict = damper.attempt(sender, now);
            if (verdict == TakeoverDamper.Verdict.COOLDOWN) {
                connection.close(CloseCodes.UNAUTH_OR_TAKEOVER, CloseCodes.REASON_TAKEOVER_COOLDOWN);
                return Bind.REFUSED;
            }
            if (verdict == TakeoverDamper.Verdict.QUARANTINE) {
                ctx.counters().takeoverQuarantines.increment();
                connection.close(CloseCodes.UNAUTH_OR_TAKEOVER, CloseCodes.REASON_TAKEOVER_QUARANTINE);
                return Bind.REFUSED;
            }
            if (ctx.registry().rebind(sender, holder, connection)) {
                ctx.counters().takeovers.increment();
                holder.close(CloseCodes.AUTH, CloseCodes.REASON_SUPERSEDED);
                takeover = true;
                break;
            }
        }
        leases.online(sender);
        if (JsonFields.isTrue(frame, "lease")) {
            String token = leases.mintIfAbsent(sender, now);
            if (token != null) {
                connection.send(ctx.frames().hub("lease_granted", sender, "Ownership lease granted for '" + sender
                                + "'. Persist the token and present it as owner_lease on every reconnect.")
                        .add("owner_lease", token).add("lease_name", sender).build().toString());
            }
        }
        return takeover ? Bind.TOOK_OVER : Bind.BOUND;
    }

    /**
     * After the bind (§1.4 steps 9, 10, 12): the welcome on a secured hub, liveness, the outbox
     * flush, the {@code joined} presence (not for a takeover) and the mailbox replay, in that order.
     */
    public void welcome(Connection connection, String sender, JsonObject frame, boolean takeover) {
        double now = ctx.frames().now();
        if (auth.secured()) {
            connection.send(welcome(takeover ? null : sender));
        }
        ctx.registry().touch(sender, now);
        ctx.registry().react(sender, now);
        hooks.clearDeadLetter(sender);
        connection.inOrder(() -> hooks.flushOutbox(connection));
        if (!takeover) {
            connection.inOrder(() -> {
                presence("joined", sender);
                return java.util.concurrent.CompletableFuture.completedFuture(null);
            });
        }
        connection.inOrder(hooks.replayMailbox(connection, frame));
    }

    /** A proven peer hub's socket (§1.4 step 9): the welcome on a secured hub, nothing an agent gets besides. */
    public void peerWelcome(Connection connection, String sender) {
        if (auth.secured()) {
            connection.send(welcome(sender));
        }
    }

    /** Roles, wake capability and protocol version declared on a heartbeat (registration or keepalive). */
    public void applyDeclarations(Connection connection, JsonObject frame, boolean registration) {
        JsonValue roles = frame.get("roles");
        if (roles != null) {
            List<String> declared = JsonFields.roles(roles);
            if (declared != null) {
                // role-claim enforcement (§6.7): roles not granted are dropped silently
                String identity = connection.name() != null ? connection.name()
                        : String.valueOf(JsonFields.string(frame, "sender")).strip();
                connection.roles(org.switchboard.synapse.acl.AclLayer.of(ctx).grantedRoles(identity, declared));
            }
        }
        String wake = JsonFields.string(frame, "wake_capability");
        if (wake != null) {
            connection.wakeCapability(WAKE_CAPABILITIES.contains(wake) ? wake : null);
        }
        if (registration) {
            Long version = JsonFields.integer(frame, "protocol_version");
            if (version != null && version >= 1 && version <= 1000) {
                connection.protocolVersion(version.intValue());
            }
        }
    }

    /** Delivery-session binding after the name bound or on a frame carrying the delivery fields (§2.2). */
    public boolean bindDelivery(Connection connection, String type, boolean firstFrame, JsonObject deliveryFrame) {
        return hooks.bindDelivery(connection, type, firstFrame, deliveryFrame);
    }

    /** Refuses a bound socket that switched sender names (§4.4 step 4). */
    public void refuseNameSwitch(Connection connection, String newName) {
        refuse(connection, "name_conflict", connection.name(), HubStrings.nameSwitch(connection.name(), newName),
                CloseCodes.NAME_CONFLICT, CloseCodes.REASON_NAME_SWITCH);
    }

    /** Liveness touch for a frame from a bound socket (§5 steps 12, 14, 16). */
    public void touch(Connection connection, boolean heartbeat, boolean firstBind) {
        String name = connection.name();
        double now = ctx.frames().now();
        ctx.registry().touch(name, now);
        if (firstBind || !heartbeat) {
            hooks.clearDeadLetter(name);
            ctx.registry().react(name, now);
        }
    }

    /** Disconnect cleanup (§4.10): unbind if still current, presence {@code left}, release slots. */
    public void disconnected(Connection connection) {
        connection.markClosing();
        ctx.registry().remove(connection);
        String name = connection.name();
        if (name != null && !connection.superseded() && ctx.registry().unbind(name, connection)) {
            leases.offline(name, ctx.frames().now());
            presence("left", name);
        }
    }

    /** The welcome frame; {@code excluded} is left out of the roster (secured hub, own name). */
    String welcome(String excluded) {
        ConnectionRegistry registry = ctx.registry();
        JsonText frame = ctx.frames().hubText("welcome", "self", HubStrings.WELCOME, ctx.frames().now(), 256)
                .add("connected_clients", registry.connectedClients());
        if (excluded == null) {
            // the roster's text shared with every other welcome and presence until the names change
            frame.addJson("online_agents", registry.rosterJson());
        } else {
            List<String> roster = new ArrayList<>(registry.roster());
            roster.remove(excluded);
            frame.addStrings("online_agents", roster);
        }
        return frame.add("protocol_version", SynapseSettings.PROTOCOL_VERSION).build();
    }

    /** The presence update: one text for every socket, sent so that frames queued for one socket leave together. */
    private void presence(String event, String agent) {
        String roster = ctx.registry().rosterJson();
        ctx.broadcast(ctx.frames().hubText("presence_update", "all", HubStrings.PRESENCE, ctx.frames().now(),
                        roster.length() + agent.length() + 192)
                .addJson("online_agents", roster).add("event", event).add("agent", agent).build());
    }

    private void refuse(Connection connection, String type, String target, String payload, int code, String reason) {
        connection.markClosing();
        connection.send(ctx.frames().hub(type, target, payload).build().toString())
                .whenComplete((ok, error) -> connection.close(code, reason));
    }

    /** Reserved: {@code SynapseHub}, {@code synapse}, {@code system} (case-insensitive, whole name) or any {@code @}. */
    public static boolean isReserved(String name) {
        return RESERVED.contains(name.toLowerCase(Locale.ROOT)) || name.indexOf('@') >= 0;
    }

    public boolean secured() {
        return auth.secured();
    }

    /** The ownership leases (§6.5), which the governed pin reclaim (§7.1) reads and revokes. */
    public NameLeases leases() {
        return leases;
    }
}
