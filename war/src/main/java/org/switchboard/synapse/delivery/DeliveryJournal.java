package org.switchboard.synapse.delivery;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.switchboard.journal.JournalEvent;
import org.switchboard.json.JsonText;
import org.switchboard.json.Jsons;

/**
 * The delivery journal events of §2.9 (storage profile 4): how each is written, and how start-up
 * replay turns them back into the {@link DeliveryBook}. An event that cannot be decoded quarantines
 * its request (kept, never swept) instead of stopping the hub; a request admitted by another hub id
 * stops start-up ({@code hub_identity_mismatch}).
 */
public final class DeliveryJournal {

    /** Storage profile written into every event and stored request. */
    public static final int PROFILE = 4;
    public static final String ACCEPTED = "delivery_intent_accepted";
    public static final String QUEUED = "delivery_intent_queued";
    public static final String TRANSITION = "delivery_intent_transition";
    public static final String CANCEL_REQUESTED = "delivery_cancel_requested";
    /**
     * Ours, not in the §12 catalogue: the event seqs of stored notifications a socket accepted, many per
     * event, so that a restart replays only the undelivered ones (§2.17). It replaces the per-row
     * delivered mark of the notification outbox.
     */
    public static final String DELIVERED = "delivery_notifications_delivered";
    /** Every kind this feature writes. */
    public static final Set<String> KINDS = Set.of(ACCEPTED, QUEUED, TRANSITION, CANCEL_REQUESTED, DELIVERED);

    /** Start-up must stop: the journal holds requests admitted under another hub id. */
    public static final class HubIdentityMismatch extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        /** The refusal naming both ids (hub ids are not secrets). */
        public HubIdentityMismatch(String stored, String configured) {
            super("hub_identity_mismatch: stored delivery requests were admitted by hub '" + stored
                    + "' but this hub is '" + configured + "'; restore the original hub.id or recover out of band");
        }
    }

    private DeliveryJournal() {
    }

    /** {@code delivery_intent_accepted}: the key, the digest and the full stored request (written as text). */
    public static JournalEvent.Draft accepted(Aggregate a) {
        return text(ACCEPTED, JsonText.object(768 + a.intent().body().length())
                .add("profile", PROFILE).add("operation_key", a.operationKey()).add("digest", a.digest())
                .addJson("request", DeliveryFrames.storedRequest(a)).build());
    }

    /**
     * {@code delivery_intent_queued}: ordinal 1 and the selection, plus (ours) {@code offered_at}, the
     * offer's timestamp: with the accepted event's request it rebuilds the offer byte for byte, so the
     * offer is not stored a second time. Earlier versions stored the whole frame as {@code offer}.
     */
    public static JournalEvent.Draft queued(Aggregate a, double offeredAt) {
        return text(QUEUED, JsonText.object(320)
                .add("profile", PROFILE).add("operation_key", a.operationKey()).add("ordinal", 1)
                .add("stage", Stage.QUEUED.wire()).add("notification_id", a.notificationId())
                .add("selected_mode", a.selectedMode()).add("quality", a.quality()).add("offered_at", offeredAt).build());
    }

    /**
     * {@code delivery_intent_transition} or {@code delivery_cancel_requested} for the change to {@code after},
     * plus (ours) the {@code audience} of its stored notification and its {@code notified_at} (the
     * notification's timestamp): the event is that notification's storage, so a re-send after a restart
     * carries the same timestamp as the first send, not the commit time.
     */
    public static JournalEvent.Draft change(String kind, Aggregate before, Aggregate after, String mutationId,
                                            String mutationDigest, String actor, Stage.Source source, JsonObject evidence,
                                            String audience, double notifiedAt) {
        return text(kind, JsonText.object(768)
                .add("profile", PROFILE).add("operation_key", after.operationKey()).add("ordinal", after.ordinal())
                .add("prior_stage", before.stage().wire()).add("stage", after.stage().wire())
                .add("cancel_requested", after.cancelRequested()).add("boundary_delivered", after.boundaryDelivered())
                .add("explicitly_acknowledged", after.explicitlyAcknowledged())
                .add("mutation_id", mutationId).add("mutation_digest", mutationDigest)
                .add("actor", actor).add("source", source.wire()).addJson("evidence", evidence.toString())
                .add("notification_id", after.notificationId()).add("audience", audience)
                .add("notified_at", notifiedAt).build());
    }

    /** A draft carrying only its stored text: nothing in the hub reads a delivery draft's object form. */
    private static JournalEvent.Draft text(String kind, String json) {
        return new JournalEvent.Draft(kind, null, json);
    }

    /** {@code delivery_notifications_delivered}: the event seqs of notifications a socket accepted. */
    public static JournalEvent.Draft delivered(List<Long> seqs) {
        jakarta.json.JsonArrayBuilder array = Jsons.PROVIDER.createArrayBuilder();
        seqs.forEach(array::add);
        return new JournalEvent.Draft(DELIVERED, Jsons.PROVIDER.createObjectBuilder()
                .add("profile", PROFILE).add("seqs", array).build());
    }

    /**
     * Applies one replayed event to {@code book}. Returns the operation key of a request whose event
     * could not be decoded (to quarantine), or null. Throws {@link HubIdentityMismatch}.
     */
    public static String replay(JournalEvent event, DeliveryBook book, String hubId) {
        if (!KINDS.contains(event.kind())) {
            return null;
        }
        JsonObject p = event.payload();
        String key = p.get("operation_key") instanceof JsonString s ? s.getString() : null;
        try {
            if (DELIVERED.equals(event.kind())) {
                for (JsonValue seq : p.getJsonArray("seqs")) {
                    book.notifications().remove(((JsonNumber) seq).longValueExact());
                }
                return null;
            }
            switch (event.kind()) {
                case ACCEPTED -> {
                    JsonObject r = p.getJsonObject("request");
                    String receiving = r.getString("receiving_hub");
                    if (!receiving.equals(hubId)) {
                        throw new HubIdentityMismatch(receiving, hubId);
                    }
                    List<String> fallbacks = new ArrayList<>();
                    for (JsonValue v : r.getJsonArray("allowed_fallbacks")) {
                        fallbacks.add(((JsonString) v).getString());
                    }
                    DeliveryIntent intent = new DeliveryIntent(r.getString("sender"), r.getString("request_id"),
                            r.getString("idempotency_key"), r.getString("target"), r.getString("target_incarnation"),
                            r.getString("mode"), List.copyOf(fallbacks), r.getString("task_id"), r.getString("body"),
                            r.getJsonNumber("deadline").doubleValue());
                    book.restore(new Aggregate(key, intent, r.getString("origin_hub"), receiving, p.getString("digest"),
                            null, null, Stage.ACCEPTED, false, false, false, 0, event.seq(), event.seq(), null));
                }
                case QUEUED -> {
                    Aggregate a = book.get(key);
                    Aggregate queued = new Aggregate(key, a.intent(), a.originHub(), a.receivingHub(), a.digest(),
                            p.getString("selected_mode"), p.getString("quality"), Stage.QUEUED, false, false, false, 1,
                            event.seq(), event.seq(), null);
                    String offer;
                    if (p.containsKey("offer")) {
                        offer = p.getJsonObject("offer").toString(); // written by an earlier version, with outbox rows
                        book.legacyOutbox(true);
                    } else {
                        offer = DeliveryFrames.offer(queued, a.receivingHub(), p.getJsonNumber("offered_at").doubleValue());
                    }
                    book.restore(queued.withOffer(offer));
                }
                default -> {
                    Aggregate a = book.get(key);
                    Stage stage = Stage.of(p.getString("stage"));
                    long ordinal = ((JsonNumber) p.get("ordinal")).longValueExact();
                    Aggregate next = new Aggregate(key, a.intent(), a.originHub(), a.receivingHub(), a.digest(),
                            a.selectedMode(), a.quality(), stage, p.getBoolean("cancel_requested"),
                            p.getBoolean("boundary_delivered"), p.getBoolean("explicitly_acknowledged"), ordinal,
                            event.seq(), a.admittedOrder(), stage == Stage.QUEUED ? a.offer() : null);
                    Stage.Source source = Stage.Source.valueOf(p.getString("source").toUpperCase(java.util.Locale.ROOT));
                    String audience = p.get("audience") instanceof JsonString s ? s.getString() : null;
                    book.restore(next, p.getString("mutation_id"), p.getString("mutation_digest"));
                    if (audience != null) {
                        // Events written before notified_at existed fall back to their commit time.
                        double notifiedAt = p.get("notified_at") instanceof JsonNumber n ? n.doubleValue() : event.appendedAt();
                        book.notifications().add(new PendingNotifications.Entry(event.seq(), audience, key, ordinal, stage,
                                next.cancelRequested(), source, notifiedAt));
                    } else {
                        book.legacyOutbox(true); // an earlier version stored this notification as an outbox row
                        book.legacyNotification(next.notificationId(), event.seq());
                    }
                }
            }
            return null;
        } catch (HubIdentityMismatch e) {
            throw e;
        } catch (RuntimeException e) {
            return key == null ? "" : key;
        }
    }

    /** Fallbacks as a JSON array (used by tests and the stored request). */
    static List<String> strings(JsonArray array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(((JsonString) v).getString()));
        return out;
    }
}
