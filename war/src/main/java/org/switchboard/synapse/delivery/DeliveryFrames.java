package org.switchboard.synapse.delivery;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.Map;
import org.switchboard.json.JsonText;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.wire.HubFrames;

/** Builds the delivery frames of §2.3, §2.10, §2.11 and §2.18 on the hub's system envelope. */
public final class DeliveryFrames {

    private final HubFrames frames;

    /** Frames stamped by {@code frames} (hub id and clock). */
    public DeliveryFrames(HubFrames frames) {
        this.frames = frames;
    }

    /** {@code delivery_refused} to {@code target}: reason code, echoable request id, nothing else of the request. */
    public String refused(String target, Refusal refusal) {
        return frames.hub("delivery_refused", target, refusal.explanation())
                .add("request_id", refusal.requestId())
                .add("reason_code", refusal.reasonCode())
                .add("protocol_version", RequestValidation.CONTRACT_VERSION).build().toString();
    }

    /** The private registration refusal of §2.2 step 6 (an {@code error} with {@code reason_code}). */
    public String registrationRefused(String target, String reasonCode) {
        return frames.error(target, "Delivery registration refused.").add("reason_code", reasonCode)
                .add("protocol_version", RequestValidation.CONTRACT_VERSION).build().toString();
    }

    /** {@code delivery_session} (§2.3). */
    public String session(String target, String incarnation, Map<String, String> capabilities) {
        return frames.hub("delivery_session", target, "Delivery session registered.")
                .add("incarnation", incarnation).add("capabilities", capabilities(capabilities))
                .add("protocol_version", RequestValidation.CONTRACT_VERSION).build().toString();
    }

    /** The status view of §2.11 (a) addressed to {@code viewer}. */
    public String status(String viewer, Aggregate a, boolean reachable) {
        return frames.hubText("delivery_status", viewer, "Delivery state.", frames.now(), 640)
                .add("operation_key", a.operationKey())
                .add("request_id", a.intent().requestId())
                .add("task_id", a.intent().taskId())
                .add("selected_mode", a.selectedMode())
                .add("quality", a.quality())
                .add("stage", a.stage().wire())
                .add("cancel_requested", a.cancelRequested())
                .add("receiver_reachable", reachable)
                .add("active_session", reachable)
                .add("boundary_delivered", a.boundaryDelivered())
                .add("explicitly_acknowledged", a.explicitlyAcknowledged())
                .add("task_completed", a.stage() == Stage.COMPLETED)
                .add("latest_event_seq", a.latestEventSeq())
                .add("protocol_version", RequestValidation.CONTRACT_VERSION).build();
    }

    /** The durable {@code delivery_offer} of §2.10 stamped now, as text. */
    public String offer(Aggregate a) {
        return offer(a, frames.hubId(), frames.now());
    }

    /**
     * The offer with a given {@code timestamp}, as text: the same request, selection and timestamp give
     * the same bytes, so start-up rebuilds the offer from the journalled request instead of storing it
     * (§2.10).
     */
    public static String offer(Aggregate a, String hubId, double timestamp) {
        DeliveryIntent intent = a.intent();
        // ~670 characters besides the body with 64-character keys and a UUID hub id
        return JsonText.object(768 + intent.body().length())
                .add("type", "delivery_offer")
                .add("sender", intent.sender())
                .add("target", intent.target())
                .add("payload", "")
                .add("timestamp", timestamp)
                .add("hub_id", hubId)
                .add("origin_hub", a.originHub())
                .add("target_incarnation", intent.targetIncarnation())
                .add("operation_key", a.operationKey())
                .add("notification_id", a.notificationId())
                .add("request_id", intent.requestId())
                .add("task_id", intent.taskId())
                .add("requested_mode", intent.mode())
                .add("selected_mode", a.selectedMode())
                .add("quality", a.quality())
                .add("deadline", intent.deadline())
                .add("body", intent.body())
                .add("protocol_version", RequestValidation.CONTRACT_VERSION).build();
    }

    /**
     * The stored notification of §2.11 (b) for the change that produced {@code a}, to {@code audience},
     * as text; {@code event_seq} is added when it is sent (the seq is assigned as the notification commits).
     */
    public String notification(Aggregate a, String audience, Stage.Source source, double timestamp) {
        return notification(a.intent(), a.operationKey(), a.ordinal(), a.stage(), a.cancelRequested(), audience, source, timestamp);
    }

    /** The stored notification of one pending entry (rebuilt from the journal after a restart). */
    public String notification(DeliveryIntent intent, PendingNotifications.Entry e) {
        return notification(intent, e.operationKey(), e.ordinal(), e.stage(), e.cancelRequested(), e.audience(), e.source(), e.timestamp());
    }

    private String notification(DeliveryIntent intent, String operationKey, long ordinal, Stage stage, boolean cancelRequested,
                                String audience, Stage.Source source, double timestamp) {
        // the envelope carries the change's own time, not the send time
        return frames.hubText("delivery_status", audience, "Delivery state changed.", timestamp, 640)
                .add("audience", audience)
                .add("operation_key", operationKey)
                .add("request_id", intent.requestId())
                .add("task_id", intent.taskId())
                .add("target", intent.target())
                .add("target_incarnation", intent.targetIncarnation())
                .add("stage", stage.wire())
                .add("cancel_requested", cancelRequested)
                .add("notification_id", Aggregate.notificationId(operationKey, ordinal))
                .add("source", source.wire())
                .add("protocol_version", RequestValidation.CONTRACT_VERSION).build();
    }

    /** A stored notification as sent: the stored frame plus its {@code event_seq}. */
    public static String withSeq(String stored, long seq) {
        // Same bytes as copying the object and adding the member last, without the copy: the stored
        // frame is never empty, so the member goes before its closing brace.
        return JsonText.withLongMember(stored, "event_seq", seq);
    }

    /** The stored request (§2.9) with profile 4 and the receiving hub as its own field, as JSON text. */
    public static String storedRequest(Aggregate a) {
        DeliveryIntent intent = a.intent();
        return JsonText.object(512 + intent.body().length())
                .add("sender", intent.sender())
                .add("origin_hub", a.originHub())
                .add("receiving_hub", a.receivingHub())
                .add("request_id", intent.requestId())
                .add("idempotency_key", intent.idempotencyKey())
                .add("target", intent.target())
                .add("target_incarnation", intent.targetIncarnation())
                .add("mode", intent.mode())
                .addStrings("allowed_fallbacks", intent.allowedFallbacks())
                .add("task_id", intent.taskId())
                .add("body", intent.body())
                .add("deadline", intent.deadline())
                .add("profile", DeliveryJournal.PROFILE).build();
    }

    static JsonObject capabilities(Map<String, String> capabilities) {
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder();
        capabilities.forEach(b::add);
        return b.build();
    }
}
