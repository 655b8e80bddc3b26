package org.switchboard.synapse.receipts;

import org.switchboard.journal.snapshot.SnapshotText;
import org.switchboard.json.Jsons;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.OutboxRow;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.wire.HubStrings;
import org.switchboard.synapse.wire.JsonFields;
import org.switchboard.synapse.addressing.Addressing;

/**
 * Delivery receipts (§7.8, §7.11): immediate verdicts, pending entries for negative directed
 * receipts, deferred receipts settled by an inbox recipient's {@code ack}, expiry of evicted
 * entries, and the durable outbox that carries every directed receipt transition to its sender.
 */
public final class ReceiptService {

    private static final Logger LOG = Logger.getLogger(ReceiptService.class.getName());
    public static final String REASON_NO_ONLINE = "no_online_recipient";
    public static final String REASON_NO_LIVE = "no_live_recipient";
    public static final String REASON_TRANSPORT = "recipient_transport_unavailable";

    private final SynapseContext ctx;
    private final PendingReceipts pending = new PendingReceipts();

    /** Receipts for the given hub. */
    public ReceiptService(SynapseContext ctx) {
        this.ctx = ctx;
    }

    /** The immediate outcome of one chat. */
    public record Verdict(boolean delivered, List<String> recipients, List<String> matched, List<String> stale,
                          String reason, boolean deadLettered, Map<String, String> wakeCapabilities) {
    }

    /** The chat a receipt is about. */
    public record Subject(String sender, String target, long messageId, Long seq, String clientMsgId, boolean directed) {
    }

    public PendingReceipts pending() {
        return pending;
    }

    /** Sends (and on journal hubs durably records) the immediate receipt; registers a pending entry when negative. */
    public void immediate(Subject chat, Verdict verdict) {
        JsonObjectBuilder frame = ctx.frames().hub("delivery_receipt", chat.sender(), payload(chat.target(), verdict))
                .add("message_target", chat.target())
                .add("message_id", chat.messageId());
        if (chat.seq() != null) {
            frame.add("message_seq", chat.seq());
        }
        frame.add("delivered", verdict.delivered())
                .add("deferred", false)
                .add("recipients", JsonFields.array(verdict.recipients()))
                .add("matched_recipients", JsonFields.array(verdict.matched()))
                .add("stale_recipients", JsonFields.array(verdict.stale()))
                .add("reason", verdict.reason())
                .add("dead_lettered", verdict.deadLettered())
                .add("recipient_wake_capabilities", wakeObject(verdict.wakeCapabilities()));
        if (chat.clientMsgId() != null) {
            frame.add("client_msg_id", chat.clientMsgId());
        }
        boolean durable = ctx.hasJournal() && chat.seq() != null && chat.directed();
        if (!durable) {
            sendToSender(chat.sender(), frame.build().toString());
            return;
        }
        String phase = verdict.delivered() ? "immediate_delivered" : "pending";
        String notificationId = "delivery-receipt:" + chat.seq() + ":" + phase;
        JsonObject built = frame.add("receipt_notification_id", notificationId).build();
        if (!verdict.delivered()) {
            PendingReceipts.Pending evicted = pending.add(new PendingReceipts.Pending(chat.seq(), chat.sender(),
                    chat.target(), chat.messageId(), chat.clientMsgId()));
            if (evicted != null) {
                expire(evicted);
            }
        }
        JsonObjectBuilder audit = Jsons.PROVIDER.createObjectBuilder()
                .add("sender", chat.sender()).add("target", chat.target())
                .add("message_id", chat.messageId()).add("message_seq", chat.seq())
                .add("delivered", verdict.delivered())
                .add("recipients", JsonFields.array(verdict.recipients()))
                .add("matched_recipients", JsonFields.array(verdict.matched()))
                .add("stale_recipients", JsonFields.array(verdict.stale()))
                .add("reason", verdict.reason())
                .add("dead_lettered", verdict.deadLettered())
                .add("recipient_wake_capabilities", wakeObject(verdict.wakeCapabilities()));
        if (chat.clientMsgId() != null) {
            audit.add("client_msg_id", chat.clientMsgId());
        }
        record(chat.sender(), "delivery_receipt_immediate", audit.build(),
                new OutboxRow(notificationId, chat.seq(), phase, chat.sender(), built, 0, false));
    }

    /**
     * Settles the pending receipt for {@code seq} when the acking identity is an inbox recipient
     * of the original target; an ack from anyone else changes nothing.
     */
    public void settle(long seq, String identity, Collection<String> roles) {
        PendingReceipts.Pending entry = pending.get(seq);
        LOG.fine(() -> "settle " + seq + " by " + org.switchboard.logging.LogSafe.text(identity) + ": " + org.switchboard.logging.LogSafe.text(entry));
        if (entry == null || !Addressing.isRecipient(entry.target(), identity, roles) || !pending.remove(entry)) {
            return;
        }
        String notificationId = "delivery-receipt:" + seq + ":deferred";
        JsonObjectBuilder frame = ctx.frames().hub("delivery_receipt", entry.sender(),
                        "delivered to " + identity + " on reconnect")
                .add("message_target", entry.target())
                .add("message_id", entry.messageId())
                .add("message_seq", seq)
                .add("delivered", true)
                .add("deferred", true)
                .add("recipients", Jsons.PROVIDER.createArrayBuilder().add(identity));
        if (entry.clientMsgId() != null) {
            frame.add("client_msg_id", entry.clientMsgId());
        }
        frame.add("receipt_notification_id", notificationId);
        JsonObjectBuilder audit = Jsons.PROVIDER.createObjectBuilder()
                .add("sender", entry.sender()).add("target", entry.target())
                .add("message_id", entry.messageId()).add("message_seq", seq)
                .add("delivered", true).add("recipient", identity);
        if (entry.clientMsgId() != null) {
            audit.add("client_msg_id", entry.clientMsgId());
        }
        record(entry.sender(), "delivery_receipt_deferred", audit.build(),
                new OutboxRow(notificationId, seq, "deferred", entry.sender(), frame.build(), 0, false));
    }

    private void expire(PendingReceipts.Pending entry) {
        String notificationId = "delivery-receipt:" + entry.seq() + ":expired";
        JsonObjectBuilder frame = ctx.frames().hub("delivery_receipt", entry.sender(), HubStrings.RECEIPT_EXPIRED)
                .add("message_target", entry.target())
                .add("message_id", entry.messageId())
                .add("message_seq", entry.seq())
                .add("delivered", false)
                .add("deferred", true)
                .add("expired", true)
                .add("reason", "pending_window_evicted")
                .add("recipients", Jsons.PROVIDER.createArrayBuilder());
        if (entry.clientMsgId() != null) {
            frame.add("client_msg_id", entry.clientMsgId());
        }
        frame.add("receipt_notification_id", notificationId);
        JsonObject audit = Jsons.PROVIDER.createObjectBuilder()
                .add("sender", entry.sender()).add("target", entry.target())
                .add("message_id", entry.messageId()).add("message_seq", entry.seq())
                .add("reason", "pending_window_evicted").build();
        record(entry.sender(), "delivery_receipt_expired", audit,
                new OutboxRow(notificationId, entry.seq(), "expired", entry.sender(), frame.build(), 0, false));
    }

    /** Commits the audit event with its outbox row, then tries to deliver the row. */
    private void record(String sender, String kind, JsonObject audit, OutboxRow row) {
        ctx.journal().append(List.of(new JournalEvent.Draft(kind, audit)), List.of(row))
                .whenComplete((seqs, error) -> {
                    if (error != null) {
                        LOG.log(Level.WARNING, "receipt " + row.notificationId() + " not journalled", error);
                    } else {
                        deliver(sender, List.of(row));
                    }
                });
    }

    /** Retries a sender's undelivered outbox rows in order (on bind, §5 step 13). */
    public CompletableFuture<Void> flushOutbox(String sender) {
        if (!ctx.hasJournal() || !ctx.journal().mayHaveOutbox(sender)) {
            return CompletableFuture.completedFuture(null); // nothing waits: no read, no hop to the blocking pool
        }
        return CompletableFuture.supplyAsync(() -> ctx.journal().pendingOutbox(sender), ctx.blocking())
                .thenAccept(rows -> deliver(sender, rows));
    }

    private void deliver(String sender, List<OutboxRow> rows) {
        Connection socket = ctx.registry().socketOf(sender);
        LOG.fine(() -> "outbox delivery to " + org.switchboard.logging.LogSafe.text(sender) + ": " + rows.size() + " rows, socket " + org.switchboard.logging.LogSafe.text(socket));
        if (socket == null || rows.isEmpty()) {
            return;
        }
        for (OutboxRow row : rows) {
            socket.send(row.frame().toString()).thenAcceptAsync(accepted -> {
                if (accepted) {
                    try {
                        ctx.journal().markDelivered(List.of(row.notificationId()));
                    } catch (RuntimeException e) {
                        LOG.log(Level.WARNING, "outbox row " + row.notificationId() + " not marked delivered", e);
                    }
                }
            }, ctx.blocking());
        }
    }

    private void sendToSender(String sender, String text) {
        Connection socket = ctx.registry().socketOf(sender);
        if (socket != null) {
            socket.send(text);
        }
    }

    /** Start-up replay: re-seeds unsettled pending receipts. */
    public void replay(JournalEvent event) {
        JsonObject p = event.payload();
        switch (event.kind()) {
            case "delivery_receipt_immediate" -> {
                Long seq = JsonFields.integer(p, "message_seq");
                Long messageId = JsonFields.integer(p, "message_id");
                if (seq != null && messageId != null && !JsonFields.isTrue(p, "delivered")
                        && JsonFields.isTrue(p, "dead_lettered")) {
                    pending.add(new PendingReceipts.Pending(seq, JsonFields.string(p, "sender"),
                            JsonFields.string(p, "target"), messageId, JsonFields.string(p, "client_msg_id")));
                }
            }
            case "delivery_receipt_deferred", "delivery_receipt_expired" -> {
                Long seq = JsonFields.integer(p, "message_seq");
                if (seq != null) {
                    pending.removeSeq(seq);
                }
            }
            default -> {
            }
        }
    }

    static String payload(String target, Verdict verdict) {
        if (verdict.delivered()) {
            StringBuilder text = new StringBuilder("delivered to ");
            boolean first = true;
            for (String recipient : verdict.recipients()) {
                if (!first) {
                    text.append(", ");
                }
                first = false;
                text.append(recipient);
                String label = label(verdict.wakeCapabilities().get(recipient));
                if (label != null) {
                    text.append(" (").append(label).append(')');
                }
            }
            return text.toString();
        }
        return switch (verdict.reason()) {
            case REASON_NO_LIVE -> "delivery failed: no live recipient matched " + target + "; stale sockets: "
                    + String.join(", ", verdict.stale());
            case REASON_TRANSPORT -> "delivery failed: recipient transport unavailable for " + target;
            default -> "delivery failed: no online recipient matched " + target;
        };
    }

    /** Human label of a wake capability, null for unknown. */
    static String label(String capability) {
        if (capability == null) {
            return null;
        }
        return switch (capability) {
            case "direct" -> "direct agent";
            case "passive" -> "passive receiver";
            case "pane_bridge" -> "pane bridge";
            default -> null;
        };
    }

    private static JsonObject wakeObject(Map<String, String> capabilities) {
        JsonObjectBuilder object = Jsons.PROVIDER.createObjectBuilder();
        capabilities.forEach(object::add);
        return object.build();
    }

    /** The replayed state as a snapshot part (issue 20): the unsettled pending receipts, all {@link #replay} builds. */
    public org.switchboard.journal.snapshot.SnapshotPart snapshotPart() {
        return org.switchboard.journal.snapshot.SnapshotPart.of("receipts", () -> {
            jakarta.json.JsonArrayBuilder all = org.switchboard.json.Jsons.PROVIDER.createArrayBuilder();
            for (PendingReceipts.Pending p : pending.all()) {
                jakarta.json.JsonObjectBuilder entry = org.switchboard.json.Jsons.PROVIDER.createObjectBuilder()
                        .add("seq", p.seq()).add("message_id", p.messageId());
                if (p.sender() != null) {
                    entry.add("sender", p.sender());
                }
                if (p.target() != null) {
                    entry.add("target", p.target());
                }
                if (p.clientMsgId() != null) {
                    entry.add("client_msg_id", p.clientMsgId());
                }
                all.add(entry);
            }
            return org.switchboard.json.Jsons.PROVIDER.createObjectBuilder().add("pending", all).build().toString();
        }, text -> {
            JsonObject part = SnapshotText.object(text);
            try {
                SnapshotText.eachObject(part, "pending", p -> pending.add(new PendingReceipts.Pending(
                        p.getJsonNumber("seq").longValueExact(), JsonFields.string(p, "sender"),
                        JsonFields.string(p, "target"), p.getJsonNumber("message_id").longValueExact(),
                        JsonFields.string(p, "client_msg_id"))));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("receipts snapshot part: " + e, e);
            }
        });
    }
}
