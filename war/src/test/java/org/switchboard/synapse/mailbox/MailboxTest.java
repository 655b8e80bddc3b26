package org.switchboard.synapse.mailbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.ArrayDeque;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;

class MailboxTest {

    @Test
    void identityResolutionFollowsSidecarRules() {
        assertEquals("p/bob", MailboxService.identityFor("p/bob", null));
        assertEquals("p/bob", MailboxService.identityFor("p/bob-rx", "p/bob"));
        assertEquals("p/bob", MailboxService.identityFor("p/bob-pane-rx", "p/bob"));
        assertEquals("p/eve", MailboxService.identityFor("p/eve", "p/bob"), "foreign mailbox_for falls back");
        assertEquals("p/bob-rx", MailboxService.identityFor("p/bob-rx", " "));
    }

    @Test
    void deadLetteredChatIsReplayedAfterRestartWithReplayedAndSeq() {
        InMemoryJournal journal = new InMemoryJournal();
        TestHub first = new TestHub(journal);
        TestHub.Client alice = first.register("p/alice");
        alice.send(TestHub.frame("chat", "p/bob", "while you were out").add("receipt_requested", true));
        alice.chat("all", "broadcasts are not replayed");
        alice.chat("p/*", "audiences are not replayed");
        long seq = alice.peer().ofType("chat").get(0).getJsonNumber("seq").longValue();

        TestHub second = new TestHub(journal); // a restart: state rebuilt from the journal
        TestHub.Client bob = second.register("p/bob", Json.createObjectBuilder().add("mailbox", true).add("since_seq", 0));
        List<JsonObject> replayed = bob.peer().ofType("chat");
        assertEquals(1, replayed.size());
        JsonObject copy = replayed.get(0);
        assertTrue(copy.getBoolean("replayed"));
        assertEquals(seq, copy.getJsonNumber("seq").longValue());
        assertFalse(copy.containsKey("receipt_requested"));
        assertEquals("while you were out", copy.getString("payload"));
        int presenceIndex = bob.peer().frames().indexOf(bob.peer().lastOfType("presence_update"));
        assertTrue(presenceIndex < bob.peer().frames().indexOf(copy), "replay follows presence");

        TestHub.Client alice2 = second.register("p/alice");
        second.register("p/bob-rx"); // not needed for the ack, but its presence must not disturb counts
        msgIdContinues(second, alice2);
    }

    @Test
    void aChatWrittenLiveBeforeTheReplayRunsIsNotReplayedAgain() {
        ArrayDeque<Runnable> blocking = new ArrayDeque<>();
        TestHub test = new TestHub(SynapseSettings.defaults(), new InMemoryJournal(), blocking::add);
        TestHub.Client alice = test.register("p/alice");
        alice.chat("p/bob", "sent while bob was away");
        drain(blocking);
        TestHub.Client bob = test.register("p/bob", Json.createObjectBuilder().add("mailbox", true).add("since_seq", 0));
        alice.chat("p/bob", "sent after bob bound"); // written live while bob's replay step still waits
        drain(blocking);
        List<JsonObject> chats = bob.peer().ofType("chat");
        assertEquals(List.of("sent after bob bound", "sent while bob was away"),
                chats.stream().map(f -> f.getString("payload")).toList(), "each message exactly once");
        assertFalse(chats.get(0).containsKey("replayed"));
        assertTrue(chats.get(1).getBoolean("replayed"));
    }

    @Test
    void aChatTheReplayReadsBeforeItsLiveWriteRunsIsWrittenOnceByTheReplay() {
        ArrayDeque<Runnable> blocking = new ArrayDeque<>();
        ArrayDeque<Runnable> publish = new ArrayDeque<>();
        TestHub test = new TestHub(SynapseSettings.defaults(), new InMemoryJournal(), blocking::add, publish::add);
        TestHub.Client alice = test.register("p/alice");
        drain(publish);
        TestHub.Client bob = test.register("p/bob", Json.createObjectBuilder().add("mailbox", true).add("since_seq", 0));
        drain(publish);
        alice.chat("p/bob", "committed, fan-out still queued");
        drain(blocking); // the replay reads the journal first and finds the committed chat
        drain(publish); // then the live fan-out runs
        List<JsonObject> chats = bob.peer().ofType("chat");
        assertEquals(List.of("committed, fan-out still queued"), chats.stream().map(f -> f.getString("payload")).toList(),
                "exactly once");
        assertTrue(chats.get(0).getBoolean("replayed"));

        test.advance(ReplayGuard.KEEP_SECONDS + 1);
        alice.chat("p/bob", "long after the replay");
        drain(publish);
        assertEquals(2, bob.peer().ofType("chat").size());
        assertEquals(0, test.hub.mailbox().replayGuardCount(), "the finished replay's guard is gone");
    }

    private static void drain(ArrayDeque<Runnable> tasks) {
        while (!tasks.isEmpty()) {
            tasks.poll().run();
        }
    }

    private static void msgIdContinues(TestHub hub, TestHub.Client alice) {
        alice.chat("all", "after restart");
        assertEquals(4, alice.peer().lastOfType("chat").getInt("msg_id"), "msg_id resumes from the journal high-water");
    }

    @Test
    void ackAdvancesTheWatermarkLowersPendingAndSettlesTheReceipt() {
        InMemoryJournal journal = new InMemoryJournal();
        TestHub test = new TestHub(journal);
        TestHub.Client alice = test.register("p/alice");
        alice.send(TestHub.frame("chat", "p/bob", "one").add("receipt_requested", true).add("client_msg_id", "c1"));
        alice.chat("p/bob", "two");
        JsonObject pendingReceipt = alice.peer().lastOfType("delivery_receipt");
        long seq = pendingReceipt.getJsonNumber("message_seq").longValue();
        assertEquals("delivery-receipt:" + seq + ":pending", pendingReceipt.getString("receipt_notification_id"));

        alice.send(TestHub.frame("who_request", "System", "who"));
        assertEquals(2, alice.peer().lastOfType("who_snapshot").getJsonObject("mailbox_pending").getInt("p/bob"));

        TestHub.Client bobRx = test.register("p/bob-rx", Json.createObjectBuilder().add("mailbox", true)
                .add("mailbox_for", "p/bob"));
        assertEquals(2, bobRx.peer().ofType("chat").stream().filter(f -> f.containsKey("replayed")).count());
        // an ack from a non-recipient changes nothing
        TestHub.Client eve = test.register("p2/eve");
        eve.send(TestHub.frame("ack", "all", "").add("seq", seq));
        assertTrue(eve.peer().ofType("error").isEmpty(), "ack never errors");
        assertTrue(alice.peer().ofType("delivery_receipt").stream().noneMatch(f -> f.getBoolean("deferred")));

        bobRx.send(TestHub.frame("ack", "all", "").add("seq", seq).add("mailbox_for", "p/bob"));
        JsonObject deferred = alice.peer().lastOfType("delivery_receipt");
        assertTrue(deferred.getBoolean("deferred"));
        assertTrue(deferred.getBoolean("delivered"));
        assertEquals("delivered to p/bob on reconnect", deferred.getString("payload"));
        assertEquals("c1", deferred.getString("client_msg_id"));
        assertEquals("delivery-receipt:" + seq + ":deferred", deferred.getString("receipt_notification_id"));
        assertEquals(seq, test.journal.last("mailbox_watermark").getJsonNumber("through_seq").longValue());

        alice.send(TestHub.frame("who_request", "System", "who"));
        assertEquals(1, alice.peer().lastOfType("who_snapshot").getJsonObject("mailbox_pending").getInt("p/bob"));
        bobRx.send(TestHub.frame("ack", "all", "").add("seq", true));
        bobRx.send(TestHub.frame("ack", "all", "").add("seq", "x"));
        assertTrue(bobRx.peer().ofType("error").isEmpty());
    }

    @Test
    void undeliveredReceiptsWaitInTheOutboxUntilTheSenderRebinds() {
        InMemoryJournal journal = new InMemoryJournal();
        TestHub test = new TestHub(journal);
        TestHub.Client alice = test.register("p/alice");
        alice.send(TestHub.frame("chat", "p/bob", "one").add("receipt_requested", true));
        alice.disconnect();
        TestHub.Client bob = test.register("p/bob", Json.createObjectBuilder().add("mailbox", true));
        long seq = bob.peer().lastOfType("chat").getJsonNumber("seq").longValue();
        bob.send(TestHub.frame("ack", "all", "").add("seq", seq));
        assertEquals(1, journal.pendingOutboxCount(), "the deferred receipt waits for alice");
        TestHub.Client back = test.register("p/alice");
        JsonObject deferred = back.peer().lastOfType("delivery_receipt");
        assertEquals("delivery-receipt:" + seq + ":deferred", deferred.getString("receipt_notification_id"));
        assertEquals(0, journal.pendingOutboxCount());
    }

    @Test
    void pendingReceiptsSurviveARestart() {
        InMemoryJournal journal = new InMemoryJournal();
        TestHub first = new TestHub(journal);
        TestHub.Client alice = first.register("p/alice");
        alice.send(TestHub.frame("chat", "p/bob", "one").add("receipt_requested", true));
        long seq = alice.peer().lastOfType("delivery_receipt").getJsonNumber("message_seq").longValue();
        TestHub second = new TestHub(journal);
        TestHub.Client alice2 = second.register("p/alice");
        TestHub.Client bob = second.register("p/bob");
        bob.send(TestHub.frame("ack", "all", "").add("seq", seq));
        assertTrue(alice2.peer().lastOfType("delivery_receipt").getBoolean("deferred"));
    }

    @Test
    void inboxQueryPagesAnIdentitysAddressedChats() {
        TestHub test = new TestHub();
        TestHub.Client alice = test.register("p/alice");
        for (int i = 0; i < 3; i++) {
            alice.chat("p/bob", "m" + i);
        }
        alice.chat("all", "not inbox");
        TestHub.Client bob = test.register("p/bob");
        bob.send(TestHub.frame("history_request", "System", "h").add("request_id", "r1")
                .add("inbox_query", Json.createObjectBuilder().add("version", 1).add("identity", "p/bob")
                        .add("hub_id", "").add("since_seq", 0).add("limit", 2)));
        JsonObject reply = bob.peer().lastOfType("history_snapshot");
        assertEquals("r1", reply.getString("request_id"));
        JsonObject page = reply.getJsonObject("inbox_page");
        assertTrue(page.getBoolean("available"));
        assertEquals(2, page.getJsonArray("messages").size());
        assertTrue(page.getBoolean("has_more"));
        long cursor = page.getJsonNumber("cursor").longValue();
        bob.send(TestHub.frame("history_request", "System", "h").add("request_id", "r2")
                .add("inbox_query", Json.createObjectBuilder().add("version", 1).add("identity", "p/bob")
                        .add("hub_id", page.getString("hub_id")).add("since_seq", cursor).add("limit", 2)));
        JsonObject second = bob.peer().lastOfType("history_snapshot").getJsonObject("inbox_page");
        assertEquals(1, second.getJsonArray("messages").size());
        assertEquals("m2", second.getJsonArray("messages").getJsonObject(0).getString("payload"));
        bob.send(TestHub.frame("history_request", "System", "h").add("request_id", "r3")
                .add("inbox_query", Json.createObjectBuilder().add("version", 1).add("identity", "p/alice")
                        .add("hub_id", "").add("since_seq", 0).add("limit", 2)));
        JsonObject foreign = bob.peer().lastOfType("history_snapshot").getJsonObject("inbox_page");
        assertFalse(foreign.getBoolean("available"));
        assertEquals("foreign_identity", foreign.getString("reason"));
        bob.send(TestHub.frame("history_request", "System", "h").add("request_id", "r4")
                .add("inbox_query", Json.createObjectBuilder().add("version", 1).add("identity", "p/bob")
                        .add("hub_id", "syn-other").add("since_seq", 0).add("limit", 2)));
        assertEquals("hub_changed", bob.peer().lastOfType("history_snapshot").getJsonObject("inbox_page").getString("reason"));
    }

    @Test
    void acksThroughTheHubEmptyTheDirectedIndexAndThePendingCounts() {
        TestHub test = new TestHub(new InMemoryJournal());
        List<TestHub.Client> senders = new java.util.ArrayList<>();
        List<TestHub.Client> receivers = new java.util.ArrayList<>();
        for (int p = 0; p < 3; p++) {
            senders.add(test.register("churn/s" + p));
            receivers.add(test.register("churn/r" + p));
        }
        for (int round = 0; round < 20; round++) {
            for (int p = 0; p < 3; p++) {
                senders.get(p).chat("churn/r" + p, "churn " + round);
            }
            for (int p = 0; p < 3; p++) {
                String own = "churn/r" + p; // every socket sees every chat here (compatibility fan-out)
                List<JsonObject> mine = receivers.get(p).peer().ofType("chat").stream()
                        .filter(f -> own.equals(f.getString("target"))).toList();
                long seq = mine.get(mine.size() - 1).getJsonNumber("seq").longValue();
                receivers.get(p).send(TestHub.frame("ack", "all", "").add("seq", seq));
            }
        }
        for (int p = 0; p < 3; p++) {
            assertEquals(0, test.hub.mailbox().pendingFor("churn/r" + p, List.of()));
        }
        assertEquals(0, test.hub.mailbox().indexedDirectedChats());
        assertEquals(0, test.hub.mailbox().pendingSnapshot().getInt("churn/r0"));
    }
}
