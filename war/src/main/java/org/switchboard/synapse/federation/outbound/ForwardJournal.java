package org.switchboard.synapse.federation.outbound;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.Set;
import org.switchboard.journal.JournalEvent;
import org.switchboard.json.Jsons;

/**
 * The outbox's journal events (ours; the journal is the outbox, as for session-bound delivery): the
 * entry is queued in the same append as its chat, and every later change is one more event, so a
 * start-up replay rebuilds the outbox exactly as it stood.
 */
public final class ForwardJournal {

    public static final String QUEUED = "message_forward_queued";
    public static final String FAILED = "message_forward_attempt_failed";
    public static final String SETTLED = "message_forward_settled";
    public static final String NOTIFIED = "message_forward_notified";
    /** Every kind this feature writes. */
    public static final Set<String> KINDS = Set.of(QUEUED, FAILED, SETTLED, NOTIFIED);

    private ForwardJournal() {
    }

    /** The entry as queued (its chat's seq is the seq just before this event's: same append). */
    public static JournalEvent.Draft queued(ForwardEntry e) {
        JsonObjectBuilder p = Jsons.PROVIDER.createObjectBuilder().add("forward_id", e.forwardId())
                .add("peer_hub", e.peer()).add("sender", e.sender()).add("target", e.target())
                .add("request", e.request()).add("msg_id", e.msgId()).add("created", e.created())
                .add("expires_at", e.expiresAt()).add("notify_sender", e.notifySender());
        if (e.clientMsgId() != null) {
            p.add("client_msg_id", e.clientMsgId());
        }
        return new JournalEvent.Draft(QUEUED, p.build());
    }

    /** A failed attempt: how many so far and when the next is due. */
    public static JournalEvent.Draft failed(ForwardEntry e) {
        return new JournalEvent.Draft(FAILED, Jsons.PROVIDER.createObjectBuilder().add("forward_id", e.forwardId())
                .add("attempts", e.attempts()).add("next_attempt_at", e.nextAttemptAt()).build());
    }

    /** The settlement, with the peer's answer when there was one. */
    public static JournalEvent.Draft settled(ForwardEntry e) {
        JsonObjectBuilder p = Jsons.PROVIDER.createObjectBuilder().add("forward_id", e.forwardId())
                .add("state", e.state()).add("attempts", e.attempts()).add("reason_code", e.reasonCode())
                .add("detail", e.detail()).add("receipt_owed", e.receiptOwed());
        if (e.answeringHub() != null) {
            p.add("answering_hub", e.answeringHub());
        }
        if (e.result() != null) {
            p.add("result", e.result());
        }
        return new JournalEvent.Draft(SETTLED, p.build());
    }

    /** The settlement receipt reached the sender. */
    public static JournalEvent.Draft notified(String forwardId) {
        return new JournalEvent.Draft(NOTIFIED, Jsons.PROVIDER.createObjectBuilder().add("forward_id", forwardId).build());
    }

    /** Applies one replayed event to the outbox (events of other kinds are ignored). */
    public static void replay(JournalEvent event, ForwardOutbox outbox) {
        if (!KINDS.contains(event.kind())) {
            return;
        }
        JsonObject p = event.payload();
        String id = p.getString("forward_id", null);
        if (id == null) {
            return;
        }
        switch (event.kind()) {
            case QUEUED -> outbox.putIfAbsent(ForwardEntry.queued(id, p.getString("peer_hub"), p.getString("sender"),
                    p.getString("target"), p.getJsonObject("request"), p.getJsonNumber("msg_id").longValue(),
                    event.seq() - 1, p.getString("client_msg_id", null), p.getJsonNumber("created").doubleValue(),
                    p.getJsonNumber("expires_at").doubleValue(), p.getBoolean("notify_sender", false)));
            case FAILED -> outbox.update(id, e -> e.pending()
                    ? e.failed(p.getInt("attempts"), p.getJsonNumber("next_attempt_at").doubleValue()) : e);
            case SETTLED -> outbox.update(id, e -> e.settled(p.getString("state"), p.getInt("attempts", e.attempts()),
                    p.get("result") instanceof JsonObject r ? r : null,
                    p.get("answering_hub") == null || p.get("answering_hub") == JsonValue.NULL ? null : p.getString("answering_hub"),
                    p.getString("reason_code", ""), p.getString("detail", ""), p.getBoolean("receipt_owed", false)));
            case NOTIFIED -> outbox.update(id, ForwardEntry::notified);
            default -> {
            }
        }
    }

    /** An entry as a snapshot writes it (issue 20): every field, absent when null. */
    static JsonObject snapshot(ForwardEntry e) {
        jakarta.json.JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder().add("forward_id", e.forwardId())
                .add("peer", e.peer()).add("sender", e.sender()).add("target", e.target()).add("msg_id", e.msgId())
                .add("created", e.created()).add("expires_at", e.expiresAt()).add("notify_sender", e.notifySender())
                .add("state", e.state()).add("attempts", e.attempts()).add("next_attempt_at", e.nextAttemptAt())
                .add("reason_code", e.reasonCode()).add("detail", e.detail()).add("receipt_owed", e.receiptOwed());
        if (e.request() != null) {
            b.add("request", e.request());
        }
        if (e.seq() != null) {
            b.add("seq", e.seq());
        }
        if (e.clientMsgId() != null) {
            b.add("client_msg_id", e.clientMsgId());
        }
        if (e.result() != null) {
            b.add("result", e.result());
        }
        if (e.answeringHub() != null) {
            b.add("answering_hub", e.answeringHub());
        }
        return b.build();
    }

    /** Reads {@link #snapshot}'s form back. */
    static ForwardEntry fromSnapshot(JsonObject o) {
        return new ForwardEntry(o.getString("forward_id"), o.getString("peer"), o.getString("sender"), o.getString("target"),
                o.get("request") instanceof JsonObject r ? r : null, o.getJsonNumber("msg_id").longValueExact(),
                o.get("seq") instanceof jakarta.json.JsonNumber n ? Long.valueOf(n.longValueExact()) : null,
                o.getString("client_msg_id", null), o.getJsonNumber("created").doubleValue(),
                o.getJsonNumber("expires_at").doubleValue(), o.getBoolean("notify_sender"), o.getString("state"),
                o.getInt("attempts"), o.getJsonNumber("next_attempt_at").doubleValue(),
                o.get("result") instanceof JsonObject r ? r : null, o.getString("answering_hub", null),
                o.getString("reason_code"), o.getString("detail"), o.getBoolean("receipt_owed"));
    }
}
