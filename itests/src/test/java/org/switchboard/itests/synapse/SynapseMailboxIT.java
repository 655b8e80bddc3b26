package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Black-box mailbox durability: a dead-lettered directed chat is replayed ({@code replayed: true},
 * its {@code seq}) on a {@code mailbox: true} registration, also after the server was killed with
 * SIGKILL and restarted; {@code ack} lowers {@code who_snapshot.mailbox_pending} and settles the
 * sender's pending receipt with a deferred one, which waits in the receipt outbox for a sender who is
 * away (also across SIGKILL).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SynapseMailboxIT {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static HubServer hub;

    /** The launcher's default H2 URL carries {@code WRITE_DELAY=0}, so acknowledged writes survive SIGKILL. */
    @BeforeAll
    static void start() {
        hub = HubServer.start();
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    private static JsonObject mailbox(long since) {
        return Json.createObjectBuilder().add("mailbox", true).add("since_seq", since).build();
    }

    @Test
    @Order(1)
    void deadLetteredChatIsReplayedOnReconnectWithMailbox() {
        long seq;
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "mb/alice")) {
            alice.send(SynapseClient.frame("chat", "mb/bob", "first while away").add("receipt_requested", true));
            JsonObject receipt = alice.expect(f -> "delivery_receipt".equals(f.getString("type", "")), WAIT);
            assertTrue(receipt.getBoolean("dead_lettered"));
            seq = receipt.getJsonNumber("message_seq").longValue();
        }
        try (SynapseClient bob = SynapseClient.register(hub.webSocketUri(), "mb/bob", mailbox(0))) {
            JsonObject replayed = bob.expect(f -> "chat".equals(f.getString("type", ""))
                    && f.getBoolean("replayed", false), WAIT);
            assertEquals("first while away", replayed.getString("payload"));
            assertEquals(seq, replayed.getJsonNumber("seq").longValue());
            assertFalse(replayed.containsKey("receipt_requested"));
            // a cursor past the message replays nothing
        }
        try (SynapseClient bob = SynapseClient.register(hub.webSocketUri(), "mb/bob", mailbox(seq))) {
            bob.expectNone(f -> f.getBoolean("replayed", false), Duration.ofSeconds(2));
        }
    }

    @Test
    @Order(2)
    void replayAndDeferredReceiptSurviveKillMinusNine() throws Exception {
        long settled = outboxPending(); // no receipt of an earlier test is still being marked delivered
        long seq;
        String hubId;
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "k9/alice")) {
            alice.send(SynapseClient.frame("chat", "k9/bob", "survives the crash").add("receipt_requested", true)
                    .add("client_msg_id", "k9-1"));
            JsonObject receipt = alice.expect(f -> "delivery_receipt".equals(f.getString("type", "")), WAIT);
            assertEquals("no_online_recipient", receipt.getString("reason"));
            seq = receipt.getJsonNumber("message_seq").longValue();
            alice.send(SynapseClient.frame("who_request", "System", "who"));
            hubId = alice.expectType("who_snapshot").getString("hub_id");
        }
        // and a deferred receipt waiting in the outbox for its away sender when the hub dies
        long waiting = leaveDeferredReceiptWaiting("k9/carol", "k9/dave", "k9-carol", settled);
        hub.kill9();
        hub.restart();
        takeWaitingReceipt("k9/carol", waiting, "k9-carol"); // known from storage at start (issue 20)
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "k9/alice");
             SynapseClient bob = SynapseClient.register(hub.webSocketUri(), "k9/bob", mailbox(0))) {
            JsonObject replayed = bob.expect(f -> "chat".equals(f.getString("type", ""))
                    && f.getBoolean("replayed", false) && "survives the crash".equals(f.getString("payload", "")), WAIT);
            assertEquals(seq, replayed.getJsonNumber("seq").longValue());
            assertEquals("k9-1", replayed.getString("client_msg_id"));
            assertEquals(hubId, replayed.getString("hub_id"), "hub_id is stable across restarts");

            bob.send(SynapseClient.frame("ack", "all", "").add("seq", seq));
            JsonObject deferred = alice.expect(f -> "delivery_receipt".equals(f.getString("type", ""))
                    && f.getBoolean("deferred", false), WAIT);
            assertTrue(deferred.getBoolean("delivered"));
            assertEquals("delivery-receipt:" + seq + ":deferred", deferred.getString("receipt_notification_id"));
            assertEquals("k9-1", deferred.getString("client_msg_id"));
        }
    }

    @Test
    @Order(3)
    void ackLowersMailboxPending() {
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "pend/alice")) {
            alice.send(SynapseClient.frame("chat", "pend/bob", "one"));
            long seqOne = alice.expect(f -> "one".equals(f.getString("payload", "")), WAIT).getJsonNumber("seq").longValue();
            alice.send(SynapseClient.frame("chat", "pend/bob", "two"));
            long seqTwo = alice.expect(f -> "two".equals(f.getString("payload", "")), WAIT).getJsonNumber("seq").longValue();
            try (SynapseClient bob = SynapseClient.register(hub.webSocketUri(), "pend/bob")) {
                assertEquals(2, pending(bob, "pend/bob"));
                bob.send(SynapseClient.frame("ack", "all", "").add("seq", seqOne));
                assertEquals(1, pending(bob, "pend/bob"));
                bob.send(SynapseClient.frame("ack", "all", "").add("seq", seqTwo));
                assertEquals(0, pending(bob, "pend/bob"));
                // acks never answer
                bob.expectNone(f -> "error".equals(f.getString("type", "")), Duration.ofMillis(500));
            }
        }
    }

    @Test
    @Order(4)
    void directedChatsEveryReceiverAckedLeaveTheIndexUnderChurn() throws Exception {
        long before = indexedChats();
        int pairs = 5;
        int rounds = 40;
        List<SynapseClient> senders = new ArrayList<>();
        List<SynapseClient> receivers = new ArrayList<>();
        try {
            for (int p = 0; p < pairs; p++) {
                senders.add(SynapseClient.register(hub.webSocketUri(), "churn/s" + p));
                receivers.add(SynapseClient.register(hub.webSocketUri(), "churn/r" + p));
            }
            for (int round = 0; round < rounds; round++) {
                for (int p = 0; p < pairs; p++) {
                    senders.get(p).send(SynapseClient.frame("chat", "churn/r" + p, "churn " + round));
                }
                for (int p = 0; p < pairs; p++) {
                    String text = "churn " + round;
                    String own = "churn/r" + p; // with compatibility fan-out every socket sees every chat
                    JsonObject chat = receivers.get(p).expect(f -> "chat".equals(f.getString("type", ""))
                            && text.equals(f.getString("payload", "")) && own.equals(f.getString("target", "")), WAIT);
                    receivers.get(p).send(SynapseClient.frame("ack", "all", "").add("seq", chat.getJsonNumber("seq").longValue()));
                }
            }
            for (int p = 0; p < pairs; p++) {
                assertEquals(0, pending(receivers.get(p), "churn/r" + p), "every churn chat acked");
            }
            assertEquals(before, indexedChats(), pairs * rounds + " acked chats left the index (" + before + " before)");
        } finally {
            senders.forEach(SynapseClient::close);
            receivers.forEach(SynapseClient::close);
        }
    }

    /**
     * A deferred receipt whose sender is away waits in the receipt outbox and reaches the sender's next
     * registration without a restart (the hub learns of the row as it commits; the kill case, where it
     * learns of it from storage at start, is in the SIGKILL test above). The hub reads the outbox only for
     * senders it knows have rows waiting there (issue 20), so this fails if that knowledge is missing.
     */
    @Test
    @Order(5)
    void aDeferredReceiptWaitsInTheOutboxForItsAwaySender() throws Exception {
        long settled = outboxPending(); // the test before requested no receipts
        long seq = leaveDeferredReceiptWaiting("ob/alice", "ob/bob", "ob-1", settled);
        takeWaitingReceipt("ob/alice", seq, "ob-1");
        awaitOutboxPending(settled, "taken by the sender, the row no longer waits");
    }

    /**
     * {@code sender} (then away) sends {@code recipient} (away) a receipt-requested chat; the recipient
     * comes for its mailbox and acks it, so the deferred receipt waits in the outbox. Returns the chat's seq.
     * {@code settled} is the outbox count once every receipt already sent to an online sender is marked
     * delivered: that mark is made after the write, so a count read too early still holds such rows.
     */
    private static long leaveDeferredReceiptWaiting(String sender, String recipient, String clientMsgId, long settled)
            throws Exception {
        long seq;
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), sender)) {
            alice.send(SynapseClient.frame("chat", recipient, "while you were out").add("receipt_requested", true)
                    .add("client_msg_id", clientMsgId));
            seq = alice.expect(f -> "delivery_receipt".equals(f.getString("type", "")), WAIT)
                    .getJsonNumber("message_seq").longValue();
        }
        awaitOutboxPending(settled, "the immediate receipt the online sender took is marked delivered");
        try (SynapseClient bob = SynapseClient.register(hub.webSocketUri(), recipient, mailbox(0))) {
            bob.expect(f -> f.getBoolean("replayed", false) && f.getJsonNumber("seq").longValue() == seq, WAIT);
            awaitOffline(bob, sender); // a sender still online takes the receipt at once instead of the outbox
            bob.send(SynapseClient.frame("ack", "all", "").add("seq", seq));
            awaitOutboxPending(settled + 1, "the deferred receipt was stored for the away sender");
        }
        return seq;
    }

    /** Polls {@code operation_outbox_pending} until it is {@code expected}. */
    private static void awaitOutboxPending(long expected, String what) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        long now;
        while ((now = outboxPending()) != expected) {
            assertTrue(System.nanoTime() < deadline, what + ": " + now + " rows wait, expected " + expected);
            Thread.sleep(50);
        }
    }

    /** Asks the hub through {@code asker} until {@code name} is no longer online (its socket's close is processed). */
    private static void awaitOffline(SynapseClient asker, String name) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            asker.send(SynapseClient.frame("who_request", "System", "who"));
            JsonObject who = asker.expect(f -> "who_snapshot".equals(f.getString("type", "")), WAIT);
            if (!who.getJsonArray("online_agents").contains(jakarta.json.Json.createValue(name))) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, name + " still online");
            Thread.sleep(50);
        }
    }

    /** {@code sender} registers and gets the deferred receipt of {@code seq} that waited for it. */
    private static void takeWaitingReceipt(String sender, long seq, String clientMsgId) {
        // the outbox is flushed before the joined presence, which register() waits for: register by hand
        try (SynapseClient alice = SynapseClient.connect(hub.webSocketUri(), sender)) {
            alice.expectType("welcome");
            alice.send(SynapseClient.frame("heartbeat", "System", "online"));
            JsonObject deferred = alice.expect(f -> "delivery_receipt".equals(f.getString("type", ""))
                    && f.getBoolean("deferred", false), WAIT);
            assertEquals(seq, deferred.getJsonNumber("message_seq").longValue());
            assertEquals(clientMsgId, deferred.getString("client_msg_id"));
        }
    }

    /** {@code operation_outbox_pending} from {@code /health}: receipt-outbox rows waiting for their sender. */
    private static long outboxPending() throws Exception {
        String health = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(hub.http("/health"))
                .build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        return Json.createReader(new java.io.StringReader(health)).readObject().getJsonNumber("operation_outbox_pending").longValue();
    }

    /** {@code synapse_mailbox_indexed_chats} from {@code /metrics}. */
    private static long indexedChats() throws Exception {
        String metrics = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(hub.http("/metrics"))
                .build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        for (String line : metrics.split("\n")) {
            if (line.startsWith("synapse_mailbox_indexed_chats ")) {
                return (long) Double.parseDouble(line.substring(line.indexOf(' ') + 1).trim());
            }
        }
        throw new AssertionError("no synapse_mailbox_indexed_chats in /metrics");
    }

    private static int pending(SynapseClient client, String identity) {
        client.send(SynapseClient.frame("who_request", "System", "who"));
        JsonObject who = client.expectType("who_snapshot");
        return who.getJsonObject("mailbox_pending").getInt(identity);
    }
}
