package org.switchboard.synapse.federation.receive;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import java.io.StringReader;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.Peer;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.delivery.DeliveryService;
import org.switchboard.synapse.federation.policy.MultihubPolicy;

/**
 * The delivery kinds of a forward (synapse-advanced §4.5) through the public API of
 * {@link DeliveryService}, exactly as a local requester named {@code seat@origin} (interrupt and steer
 * are never granted to it: the task-control rule refuses any name with {@code @}). The service answers
 * on a private in-process connection whose first {@code delivery_status} becomes the result and whose
 * {@code delivery_refused} becomes a refusal carrying the delivery {@code reason_code}.
 */
public final class DeliveryForwards implements ForwardedDelivery {

    /** The fields of an agent's {@code delivery_request} a forward may carry (§4.4). */
    static final List<String> REQUEST_FIELDS = List.of("payload", "protocol_version", "request_id", "idempotency_key",
            "target_incarnation", "mode", "allowed_fallbacks", "task_id", "body", "deadline");

    /** [OURS] A delivery change that could not be made durable or did not answer: transient, the origin retries. */
    public static final String UNAVAILABLE = "delivery_unavailable";

    private final SynapseContext ctx;
    private final DeliveryService delivery;

    /** Forwards served by the hub's delivery service. */
    public DeliveryForwards(SynapseContext ctx, DeliveryService delivery) {
        this.ctx = ctx;
        this.delivery = delivery;
    }

    @Override
    public CompletableFuture<ForwardResult> forward(ForwardReceiver receiver, Connection peer, String origin,
                                                    MultihubPolicy policy, ForwardFrame forward, boolean degraded) {
        String requester = forward.senderSeat() + "@" + origin;
        double now = ctx.frames().now();
        if (!delivery.durable()) {
            return ForwardReceiver.done(ForwardResult.refused("unsupported_profile", "no durable delivery journal"));
        }
        Capture capture = new Capture();
        Connection answer = new Connection(capture, now);
        answer.protocolVersion(peer.protocolVersion());
        answer.name(requester);
        switch (forward.kind()) {
            case "delivery_request" -> {
                ForwardResult refusal = receiver.namespaceRefusal(policy, origin, forward.targetSeat(), now);
                if (refusal != null) {
                    return ForwardReceiver.done(refusal);
                }
                if (degraded) {
                    return ForwardReceiver.done(ForwardResult.refused("journal_recovery_required", ""));
                }
                JsonObjectBuilder frame = Jsons.PROVIDER.createObjectBuilder().add("type", "delivery_request")
                        .add("sender", requester).add("target", forward.targetSeat());
                for (String field : REQUEST_FIELDS) {
                    if (forward.body().containsKey(field)) {
                        frame.add(field, forward.body().get(field));
                    }
                }
                delivery.request(answer, requester, frame.build(), origin);
            }
            case "delivery_status", "delivery_cancel" -> {
                if (!policy.authorisesVerb(origin, ForwardReceiver.VERB, now)) {
                    return ForwardReceiver.done(ForwardResult.refused("peer_not_authorised", ""));
                }
                // the namespace of the stored target, checked afresh: a grant revoked or narrowed since the
                // request refuses its follow-ups (an unknown key is left to the delivery service: unknown_request)
                String storedTarget = forward.body().get("operation_key") instanceof jakarta.json.JsonString k
                        ? delivery.targetOf(k.getString()) : null;
                if (storedTarget != null) {
                    ForwardResult refusal = receiver.namespaceRefusal(policy, origin, storedTarget, now);
                    if (refusal != null) {
                        return ForwardReceiver.done(refusal);
                    }
                }
                boolean cancel = "delivery_cancel".equals(forward.kind());
                if (cancel && degraded) {
                    return ForwardReceiver.done(ForwardResult.refused("journal_recovery_required", ""));
                }
                JsonObjectBuilder frame = Jsons.PROVIDER.createObjectBuilder()
                        .add("type", cancel ? "delivery_cancel" : "delivery_status_request").add("sender", requester)
                        .add("target", "System");
                for (String field : List.of("operation_key", "protocol_version", "mutation_id")) {
                    if (forward.body().containsKey(field)) {
                        frame.add(field, forward.body().get(field));
                    }
                }
                if (cancel) {
                    delivery.cancel(answer, requester, frame.build());
                } else {
                    delivery.statusRequest(answer, requester, frame.build());
                }
            }
            default -> {
                return ForwardReceiver.done(ForwardResult.refused("invalid_shape", ""));
            }
        }
        return capture.first.orTimeout(8, TimeUnit.SECONDS).thenApply(DeliveryForwards::toResult)
                .exceptionally(e -> ForwardResult.refused(UNAVAILABLE, "delivery did not answer in time"));
    }

    private static ForwardResult toResult(JsonObject frame) {
        String type = frame.getString("type", "");
        if ("delivery_status".equals(type)) {
            return ForwardResult.accepted(Jsons.PROVIDER.createObjectBuilder().add("status", frame).build());
        }
        if ("delivery_refused".equals(type)) {
            String code = frame.get("reason_code") instanceof JsonString s ? s.getString() : "invalid_shape";
            return ForwardResult.refused(code, frame.getString("payload", ""));
        }
        return ForwardResult.refused(UNAVAILABLE, frame.getString("payload", "")); // e.g. the journal append failed
    }

    /** The in-process socket the delivery service answers on: the first frame settles the forward. */
    private static final class Capture implements Peer {
        private static final java.util.concurrent.atomic.AtomicLong IDS = new java.util.concurrent.atomic.AtomicLong();
        final CompletableFuture<JsonObject> first = new CompletableFuture<>();
        private final String id = "forward-" + IDS.incrementAndGet();

        @Override
        public String id() {
            return id;
        }

        @Override
        public String remoteHost() {
            return "peer-forward";
        }

        @Override
        public CompletableFuture<Boolean> send(String text) {
            try (var reader = Jsons.PROVIDER.createReader(new StringReader(text))) {
                first.complete(reader.readObject());
            }
            return CompletableFuture.completedFuture(true);
        }

        @Override
        public void close(int code, String reason) {
            first.completeExceptionally(new IllegalStateException("closed"));
        }

        @Override
        public boolean isOpen() {
            return true;
        }
    }
}
