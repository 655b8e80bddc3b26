package org.switchboard.journal.snapshot;

import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.switchboard.journal.JournalEvent;

/**
 * A seeded journal of the kinds the hub's start-up replay reads (chats broadcast, directed, to globs
 * and channels; watermarks; negative receipts and their settlement; guard denials), for snapshot tests.
 */
public final class SyntheticEvents {

    private static final String[] NAMES = {"p/a", "p/b", "p/c", "q/d", "q/e"};
    private static final String[] TARGETS = {"all", "p/a", "p/b", "p/c,q/d", "q/e", "p/*", "q", "p/a,p/b,q/e", "reviewer"};

    private SyntheticEvents() {
    }

    /** {@code count} events from {@code seed}, seqs 1..count. */
    public static List<JournalEvent> of(long seed, int count) {
        Random random = new Random(seed);
        List<JournalEvent> events = new ArrayList<>();
        long msgId = 0;
        List<Long> deadLettered = new ArrayList<>();
        for (long seq = 1; seq <= count; seq++) {
            double at = 1_767_225_600.0 + seq;
            int pick = random.nextInt(10);
            if (pick < 5) {
                String sender = NAMES[random.nextInt(NAMES.length)];
                String target = TARGETS[random.nextInt(TARGETS.length)];
                JsonObjectBuilder chat = Json.createObjectBuilder().add("type", "chat").add("sender", sender)
                        .add("target", target).add("payload", "m" + seq).add("msg_id", ++msgId);
                if (random.nextInt(8) == 0) {
                    chat.add("channel", "ops");
                }
                events.add(new JournalEvent(seq, "chat", chat.build(), at));
            } else if (pick < 7) {
                long through = Math.max(1, seq - 1 - random.nextInt(6));
                events.add(new JournalEvent(seq, "mailbox_watermark", Json.createObjectBuilder()
                        .add("identity", NAMES[random.nextInt(NAMES.length)]).add("through_seq", through).build(), at));
            } else if (pick < 8) {
                long messageSeq = Math.max(1, seq - 1);
                deadLettered.add(messageSeq);
                JsonObjectBuilder receipt = Json.createObjectBuilder().add("message_seq", messageSeq)
                        .add("message_id", msgId).add("sender", NAMES[random.nextInt(NAMES.length)])
                        .add("target", TARGETS[random.nextInt(TARGETS.length)]).add("delivered", false)
                        .add("dead_lettered", true);
                if (random.nextBoolean()) {
                    receipt.add("client_msg_id", "c" + seq);
                }
                events.add(new JournalEvent(seq, "delivery_receipt_immediate", receipt.build(), at));
            } else if (pick < 9 && deadLettered.size() > 3) { // a few stay unsettled
                long settled = deadLettered.remove(random.nextInt(deadLettered.size()));
                events.add(new JournalEvent(seq, random.nextBoolean() ? "delivery_receipt_deferred"
                        : "delivery_receipt_expired", Json.createObjectBuilder().add("message_seq", settled).build(), at));
            } else {
                JsonObjectBuilder denial = Json.createObjectBuilder().add("idem_sha256", "k" + random.nextInt(12))
                        .add("call_sha256", "c" + seq).add("reason_code", "r" + random.nextInt(3))
                        .add("request_digest", "d" + seq);
                if (random.nextBoolean()) {
                    denial.add("recorded_at", at - 0.25);
                }
                events.add(new JournalEvent(seq, "guard_denial", denial.build(), at));
            }
        }
        return events;
    }
}
