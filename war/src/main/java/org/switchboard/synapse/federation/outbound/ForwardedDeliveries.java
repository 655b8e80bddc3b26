package org.switchboard.synapse.federation.outbound;

import org.switchboard.journal.snapshot.SnapshotText;
import org.switchboard.synapse.wire.BoundedText;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.switchboard.journal.JournalEvent;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.delivery.RemoteDeliveries;

/**
 * Forwarded delivery intents (synapse-advanced §4.7), synchronous: a {@code delivery_request} to
 * {@code PROJECT/seat@HUB_ID} is relayed to the peer and its status (or refusal) relayed back; the
 * route {@code {operation_key, peer_hub, sender, target}} is journalled so that
 * {@code delivery_status_request} and {@code delivery_cancel} from the requesting seat go to the same
 * peer after a restart too. Stage changes are not pushed across hubs: the requester polls.
 */
public final class ForwardedDeliveries implements RemoteDeliveries {

    /** Journal event of a remembered route (ours). */
    public static final String ROUTE = "message_forward_route";
    /** The §4.4 subset of the agent's frame a forwarded request carries (identity and credentials never). */
    static final List<String> REQUEST_FIELDS = List.of("payload", "protocol_version", "request_id", "idempotency_key",
            "target_incarnation", "mode", "allowed_fallbacks", "task_id", "body", "deadline");
    private static final Pattern OPERATION_KEY = Pattern.compile("^[0-9a-f]{64}$");
    private static final int CONTRACT_VERSION = 3;

    /** A remembered route. */
    public record Route(String operationKey, String peer, String sender, String target) {
    }

    private final SynapseContext ctx;
    private final MessagePeers peers;
    private final String token;
    private final PeerClient client;
    private final BooleanSupplier durable;
    private final Predicate<String> localKey;
    private final Map<String, Route> routes = new ConcurrentHashMap<>();

    /** Forwarding over {@code client}; {@code durable} is the delivery profile check, {@code localKey} finds local requests. */
    public ForwardedDeliveries(SynapseContext ctx, MessagePeers peers, String token, PeerClient client,
                               BooleanSupplier durable, Predicate<String> localKey) {
        this.ctx = ctx;
        this.peers = peers;
        this.token = token == null ? "" : token;
        this.client = client;
        this.durable = durable;
        this.localKey = localKey;
    }

    /** Start-up: one replayed journal event. */
    public void replay(JournalEvent event) {
        if (ROUTE.equals(event.kind())) {
            JsonObject p = event.payload();
            routes.putIfAbsent(p.getString("operation_key"), new Route(p.getString("operation_key"), p.getString("peer_hub"),
                    p.getString("sender"), p.getString("target")));
        }
    }

    public Route route(String operationKey) {
        return routes.get(operationKey);
    }

    @Override
    public boolean take(Connection connection, String sender, String type, JsonObject frame) {
        switch (type) {
            case "delivery_request" -> {
                if (!(frame.get("target") instanceof JsonString t) || t.getString().indexOf('@') < 0) {
                    return false;
                }
                ctx.blocking().execute(() -> connection.send(request(sender, t.getString(), frame).toString()));
                return true;
            }
            case "delivery_status_request", "delivery_cancel" -> {
                Route route = frame.get("operation_key") instanceof JsonString k ? routes.get(k.getString()) : null;
                if (route == null) {
                    return false;
                }
                ctx.blocking().execute(() -> connection.send(followUp(sender, type, route, frame).toString()));
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /** The answer to a forwarded {@code delivery_request}: the relayed status or a {@code delivery_refused}. */
    JsonObject request(String sender, String target, JsonObject frame) {
        String requestId = echoable(frame.get("request_id"));
        if (!(frame.get("protocol_version") instanceof JsonNumber v) || !v.isIntegral() || v.intValue() != CONTRACT_VERSION) {
            return refused(sender, "unsupported_protocol", "delivery contract version 3 required", requestId);
        }
        if (!durable.getAsBoolean()) {
            return refused(sender, "unsupported_profile", "this hub has no durable delivery profile", requestId);
        }
        String invalid = HubAddress.refusal(target, peers.peers().keySet());
        HubAddress address = HubAddress.parse(target);
        if (invalid != null && (address == null || !HubAddress.singleSeat(address.seat()) || target.indexOf(',') >= 0)) {
            return refused(sender, "invalid_target", "the target must be one seat on a peer hub", requestId);
        }
        if (invalid != null) {
            return refused(sender, "unknown_hub", "hub '" + address.hubId() + "' is not a configured message peer", requestId);
        }
        JsonObjectBuilder body = Jsons.PROVIDER.createObjectBuilder();
        for (String field : REQUEST_FIELDS) {
            JsonValue value = frame.get(field);
            if (value != null) {
                body.add(field, value);
            }
        }
        String forwardId = ForwardFrames.newForwardId();
        JsonObject forward = ForwardFrames.forward(ctx.frames().hubId(), forwardId, "delivery_request", sender,
                address.seat(), body.build());
        if (!ForwardFrames.bodyFits(forward)) {
            return refused(sender, "invalid_shape", "the request is too large to forward", requestId);
        }
        Object answer = exchange(address.hubId(), forward, forwardId);
        if (answer instanceof String code) {
            return refused(sender, code, "the peer hub did not admit the request", requestId);
        }
        JsonObject status = (JsonObject) answer;
        String key = status.getString("operation_key");
        Route existing = routes.get(key);
        if (localKey.test(key) || existing != null && (!existing.peer().equals(address.hubId()) || !existing.sender().equals(sender))) {
            return refused(sender, "peer_invalid_answer", "the peer's answer names another request", requestId);
        }
        if (existing == null) {
            Route route = new Route(key, address.hubId(), sender, target);
            ctx.journal().append(List.of(new JournalEvent.Draft(ROUTE, Jsons.PROVIDER.createObjectBuilder()
                    .add("operation_key", key).add("peer_hub", route.peer()).add("sender", sender).add("target", target)
                    .build())), List.of()).join();
            routes.putIfAbsent(key, route);
        }
        return relayed(status, sender, address.hubId());
    }

    /** A follow-up of a forwarded request: only the requesting seat; relayed to the same peer. */
    JsonObject followUp(String sender, String type, Route route, JsonObject frame) {
        String requestId = echoable(frame.get("request_id"));
        if (!route.sender().equals(sender)) {
            return refused(sender, "unauthorised_requester", "only the requesting seat may follow up", requestId);
        }
        // §2.13/§2.14: a follow-up carries the delivery contract version, checked here as for a local request
        if (!(frame.get("protocol_version") instanceof JsonNumber v) || !v.isIntegral() || v.intValue() != CONTRACT_VERSION) {
            return refused(sender, "unsupported_protocol", "delivery contract version 3 required", requestId);
        }
        JsonObjectBuilder body = Jsons.PROVIDER.createObjectBuilder().add("operation_key", route.operationKey())
                .add("protocol_version", CONTRACT_VERSION);
        String kind = "delivery_status";
        if ("delivery_cancel".equals(type)) {
            kind = "delivery_cancel";
            JsonValue mutation = frame.get("mutation_id");
            if (mutation != null) {
                body.add("mutation_id", mutation);
            }
        }
        String forwardId = ForwardFrames.newForwardId();
        JsonObject forward = ForwardFrames.forward(ctx.frames().hubId(), forwardId, kind, sender, null, body.build());
        Object answer = exchange(route.peer(), forward, forwardId);
        if (answer instanceof String code) {
            return refused(sender, code, "the peer hub did not answer the follow-up", requestId);
        }
        JsonObject status = (JsonObject) answer;
        if (!route.operationKey().equals(status.getString("operation_key"))) {
            return refused(sender, "peer_invalid_answer", "the peer's answer names another request", requestId);
        }
        return relayed(status, sender, route.peer());
    }

    /** The peer's status view ({@code result.status}), or the reason code of the refusal to relay. */
    private Object exchange(String peerId, JsonObject forward, String forwardId) {
        MessagePeers.Peer peer = peers.peers().get(peerId);
        if (peer == null) {
            return "unknown_hub";
        }
        ForwardFrames.Answer answer;
        try {
            answer = ForwardFrames.read(client.exchange(peer,
                    ForwardFrames.registration(ctx.frames().hubId(), token, ctx.frames().now()), forward, forwardId), forwardId);
        } catch (IOException | RuntimeException e) {
            return "peer_unreachable";
        }
        return switch (answer.kind()) {
            case REJECTED -> "peer_rejected";
            case INVALID -> "peer_invalid_answer";
            case RESULT -> {
                if (ForwardEntry.REFUSED.equals(answer.disposition())) {
                    yield answer.reasonCode();
                }
                JsonValue status = answer.result().get("status");
                yield status instanceof JsonObject s && "delivery_status".equals(s.getString("type", ""))
                        && s.get("operation_key") instanceof JsonString k && OPERATION_KEY.matcher(k.getString()).matches()
                        ? s : "peer_invalid_answer";
            }
        };
    }

    /** The peer's status re-addressed to the requester, with {@code remote_hub}. */
    private static JsonObject relayed(JsonObject status, String requester, String peer) {
        return Jsons.PROVIDER.createObjectBuilder(status).add("target", requester).add("remote_hub", peer).build();
    }

    private JsonObject refused(String requester, String code, String explanation, String requestId) {
        return ctx.frames().hub("delivery_refused", requester, explanation).add("request_id", requestId)
                .add("reason_code", code).add("protocol_version", CONTRACT_VERSION).build();
    }

    /** The request id when it is a printable string of at most 128 bytes, else {@code ""} (never echo an invalid id). */
    static String echoable(JsonValue value) {
        return BoundedText.valid(value, 128, false) ? ((JsonString) value).getString() : "";
    }

    /** Kinds this part journals. */
    static final Set<String> KINDS = Set.of(ROUTE);

    /** The replayed state as a snapshot part (issue 20): the routes of forwarded delivery requests. */
    public org.switchboard.journal.snapshot.SnapshotPart snapshotPart() {
        return org.switchboard.journal.snapshot.SnapshotPart.of("forwarded_deliveries", () -> {
            jakarta.json.JsonArrayBuilder all = org.switchboard.json.Jsons.PROVIDER.createArrayBuilder();
            new java.util.TreeMap<>(routes).values().forEach(r -> all.add(org.switchboard.json.Jsons.PROVIDER
                    .createObjectBuilder().add("operation_key", r.operationKey()).add("peer_hub", r.peer())
                    .add("sender", r.sender()).add("target", r.target())));
            return org.switchboard.json.Jsons.PROVIDER.createObjectBuilder().add("routes", all).build().toString();
        }, text -> {
            JsonObject part = SnapshotText.object(text);
            try {
                SnapshotText.eachObject(part, "routes", r -> routes.putIfAbsent(r.getString("operation_key"),
                        new Route(r.getString("operation_key"), r.getString("peer_hub"), r.getString("sender"),
                                r.getString("target"))));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("forwarded_deliveries snapshot part: " + e, e);
            }
        });
    }
}
