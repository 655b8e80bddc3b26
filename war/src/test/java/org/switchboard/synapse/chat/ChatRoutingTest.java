package org.switchboard.synapse.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;

class ChatRoutingTest {

    @Test
    void chatIsStampedJournalledAndEchoedToEveryRegisteredSocket() {
        TestHub test = new TestHub();
        TestHub.Client alice = test.register("proj/alice");
        TestHub.Client bob = test.register("proj/bob");
        TestHub.Client lurker = test.connect("lurker");
        alice.send(TestHub.frame("chat", "proj/bob", "hi").add("client_timestamp", 5).add("extra", "kept"));
        JsonObject relayed = bob.peer().lastOfType("chat");
        assertEquals("proj/alice", relayed.getString("sender"));
        assertEquals(1_767_225_599.5, relayed.getJsonNumber("client_timestamp").doubleValue(), "re-derived from timestamp");
        assertEquals(1_767_225_600.0, relayed.getJsonNumber("timestamp").doubleValue(), "hub clock");
        assertEquals(1, relayed.getInt("msg_id"));
        assertEquals("kept", relayed.getString("extra"));
        assertEquals("syn-0badc0de", relayed.getString("hub_id"));
        long seq = relayed.getJsonNumber("seq").longValue();
        JsonObject journalled = test.journal.at(seq).payload();
        assertEquals("chat", test.journal.at(seq).kind());
        assertEquals("hi", journalled.getString("payload"));
        assertFalse(journalled.containsKey("seq"), "the journalled frame has no seq");
        assertEquals(relayed, alice.peer().lastOfType("chat"), "sender gets its own copy");
        assertTrue(lurker.peer().ofType("chat").isEmpty(), "unregistered sockets get nothing");
        alice.chat("all", "second");
        assertEquals(2, bob.peer().lastOfType("chat").getInt("msg_id"));
    }

    @Test
    void chatWithoutTimestampLosesClientTimestamp() {
        TestHub test = new TestHub();
        TestHub.Client alice = test.register("proj/alice");
        alice.sendRaw("{\"type\":\"chat\",\"sender\":\"proj/alice\",\"payload\":\"x\",\"client_timestamp\":9}");
        JsonObject relayed = alice.peer().lastOfType("chat");
        assertFalse(relayed.containsKey("client_timestamp"));
        assertEquals("all", relayed.getString("target"));
    }

    @Test
    void privateDirectedModeSendsOnlyToRecipientsTheirSidecarsAndTheSender() {
        TestHub test = new TestHub(SynapseSettings.builder().privateDirectedMessages(true).build(), new InMemoryJournal());
        TestHub.Client alice = test.register("proj/alice");
        TestHub.Client bob = test.register("proj/bob");
        TestHub.Client bobRx = test.register("proj/bob-rx");
        TestHub.Client carol = test.register("proj/carol");
        TestHub.Client reviewer = test.register("other/dave", Json.createObjectBuilder()
                .add("roles", Json.createArrayBuilder().add("proj/reviewer")));
        alice.chat("proj/bob", "secret");
        assertEquals("secret", bob.peer().lastOfType("chat").getString("payload"));
        assertEquals("secret", bobRx.peer().lastOfType("chat").getString("payload"));
        assertEquals("secret", alice.peer().lastOfType("chat").getString("payload"));
        assertTrue(carol.peer().ofType("chat").isEmpty());
        alice.chat("proj/reviewer", "by role");
        assertEquals("by role", reviewer.peer().lastOfType("chat").getString("payload"));
        assertTrue(carol.peer().ofType("chat").isEmpty());
        alice.chat("all", "public");
        assertEquals("public", carol.peer().lastOfType("chat").getString("payload"));

        carol.send(TestHub.frame("history_request", "System", "h"));
        List<JsonObject> seen = carol.peer().lastOfType("history_snapshot").getJsonArray("history")
                .getValuesAs(JsonObject.class);
        assertEquals(List.of("public"), seen.stream().map(f -> f.getString("payload")).toList());
    }

    @Test
    void receiptsReportEveryReason() {
        TestHub test = new TestHub();
        TestHub.Client alice = test.register("proj/alice");
        TestHub.Client bob = test.register("proj/bob", Json.createObjectBuilder().add("wake_capability", "direct"));

        alice.send(TestHub.frame("chat", "proj/bob", "1").add("receipt_requested", true));
        JsonObject positive = alice.peer().lastOfType("delivery_receipt");
        assertTrue(positive.getBoolean("delivered"));
        assertEquals("delivered to proj/bob (direct agent)", positive.getString("payload"));
        assertEquals(Json.createObjectBuilder().add("proj/bob", "direct").build(),
                positive.getJsonObject("recipient_wake_capabilities"));

        alice.send(TestHub.frame("chat", "proj/ghost", "2").add("receipt_requested", true));
        JsonObject none = alice.peer().lastOfType("delivery_receipt");
        assertEquals("no_online_recipient", none.getString("reason"));
        assertTrue(none.getBoolean("dead_lettered"));

        bob.peer().failWrites(true);
        alice.send(TestHub.frame("chat", "proj/bob", "3").add("receipt_requested", true));
        JsonObject transport = alice.peer().lastOfType("delivery_receipt");
        assertEquals("recipient_transport_unavailable", transport.getString("reason"));
        assertTrue(transport.getBoolean("dead_lettered"));
        bob.peer().failWrites(false);

        test.advance(91);
        alice.send(TestHub.frame("chat", "proj/bob", "4").add("receipt_requested", true));
        JsonObject stale = alice.peer().lastOfType("delivery_receipt");
        assertEquals("no_live_recipient", stale.getString("reason"));
        assertEquals("delivery failed: no live recipient matched proj/bob; stale sockets: proj/bob", stale.getString("payload"));
        assertEquals(List.of("proj/bob"), stale.getJsonArray("stale_recipients").getValuesAs(jakarta.json.JsonString.class)
                .stream().map(jakarta.json.JsonString::getString).toList());
        JsonObject warning = alice.peer().lastOfType("recipient_liveness_warning");
        assertTrue(warning.getString("payload").endsWith("; a directed message may sit unread"));

        alice.send(TestHub.frame("chat", "all", "5").add("receipt_requested", true));
        JsonObject audience = alice.peer().lastOfType("delivery_receipt");
        assertTrue(audience.getBoolean("delivered"));
        assertFalse(audience.getBoolean("dead_lettered"));
        assertFalse(audience.containsKey("receipt_notification_id"), "audience receipts have no outbox id");
    }

    @Test
    void deadLettersAreLedgeredClearedOnBindAndEscalatedAtTheThreshold() {
        TestHub test = new TestHub(SynapseSettings.builder().deadLetterEscalationThreshold(2).build(), new InMemoryJournal());
        TestHub.Client alice = test.register("proj/alice");
        TestHub.Client watcher = test.register("proj/watcher");
        alice.chat("proj/bob", "1");
        assertTrue(watcher.peer().ofType("dead_letter_escalation").isEmpty());
        alice.chat("proj/bob", "2");
        JsonObject escalation = watcher.peer().lastOfType("dead_letter_escalation");
        assertEquals("proj/bob", escalation.getString("escalation_target"));
        assertEquals(2, escalation.getInt("escalation_count"));
        assertEquals("proj/alice", escalation.getString("last_sender"));
        assertEquals(2, test.journal.last("dead_letter_escalation").getInt("count"));
        alice.chat("proj/*", "audience is never dead-lettered");
        List<DeadLetterLedger.Entry> ledger = test.hub.chat().deadLetters().snapshot(1_767_225_700.0);
        assertEquals(1, ledger.size());
        assertEquals(2, ledger.get(0).count());
        test.register("proj/bob");
        assertEquals(0, test.hub.chat().deadLetters().targets(), "binding the name clears its entry");
    }

    @Test
    void duplicateClientMsgIdIsSuppressedAndConflictsRefused() {
        TestHub test = new TestHub();
        TestHub.Client alice = test.register("proj/alice");
        TestHub.Client bob = test.register("proj/bob");
        alice.send(TestHub.frame("chat", "proj/bob", "x").add("client_msg_id", "  id-1  ").add("receipt_requested", true));
        JsonObject first = bob.peer().lastOfType("chat");
        assertEquals("id-1", first.getString("client_msg_id"));
        int chats = bob.peer().ofType("chat").size();
        int events = test.journal.events().size();
        alice.send(TestHub.frame("chat", "proj/bob", "x").add("client_msg_id", "id-1").add("timestamp", 99));
        assertEquals(chats, bob.peer().ofType("chat").size(), "not delivered again");
        assertEquals(events, test.journal.events().size(), "not journalled again");
        JsonObject notice = alice.peer().lastOfType("system");
        assertEquals("Duplicate chat suppressed.", notice.getString("payload"));
        assertEquals(first.getInt("msg_id"), notice.getInt("msg_id"));
        assertEquals(first.getJsonNumber("seq"), notice.getJsonNumber("seq"));
        alice.send(TestHub.frame("chat", "proj/bob", "y").add("client_msg_id", "id-1"));
        JsonObject conflict = alice.peer().lastOfType("error");
        assertEquals("client_msg_id_conflict", conflict.getString("error_code"));
        assertEquals("client_msg_id was already used for different content.", conflict.getString("payload"));

        alice.send(TestHub.frame("chat", "proj/nobody", "z").add("client_msg_id", "id-2"));
        alice.send(TestHub.frame("chat", "proj/nobody", "z").add("client_msg_id", "id-2"));
        assertEquals(2, alice.peer().ofType("chat").stream().filter(f -> "z".equals(f.getString("payload"))).count(),
                "a chat that reached nobody is not remembered");
        String invalid = "bad\u0001id";
        alice.send(TestHub.frame("chat", "all", "w").add("client_msg_id", invalid));
        assertFalse(alice.peer().lastOfType("chat").containsKey("client_msg_id"), "invalid ids are removed");
    }

    @Test
    void aResendOvertakingItsFirstCopyWaitsForThatCopysOutcome() {
        TestHub test = new TestHub();
        TestHub.Client alice = test.register("proj/alice");
        TestHub.Client bob = test.register("proj/bob");
        bob.peer().holdWrites(); // the first copy is queued to bob but not yet written
        alice.send(TestHub.frame("chat", "proj/bob", "x").add("client_msg_id", "fast-1"));
        alice.send(TestHub.frame("chat", "proj/bob", "x").add("client_msg_id", "fast-1"));
        assertEquals(1, bob.peer().ofType("chat").size(), "the resend is not delivered while the first is in flight");
        bob.peer().releaseWrites(true);
        assertEquals(1, bob.peer().ofType("chat").size(), "suppressed once the first copy was delivered");
        JsonObject notice = alice.peer().lastOfType("system");
        assertTrue(notice.getBoolean("duplicate"));
        assertEquals("fast-1", notice.getString("client_msg_id"));

        bob.peer().holdWrites();
        alice.send(TestHub.frame("chat", "proj/bob", "y").add("client_msg_id", "fast-2"));
        alice.send(TestHub.frame("chat", "proj/bob", "y").add("client_msg_id", "fast-2"));
        bob.peer().releaseWrites(false); // the first copy reached nobody: the resend is a genuine redelivery
        assertEquals(2, bob.peer().ofType("chat").stream().filter(f -> "y".equals(f.getString("payload"))).count());
    }

    @Test
    void ingressQuotaRefusesBeyondTheEventBudget() {
        TestHub test = new TestHub(SynapseSettings.builder().ingressQuotaEnabled(true).ingressQuotaMaxEvents(2).build(),
                new InMemoryJournal());
        TestHub.Client alice = test.register("proj/alice");
        alice.chat("all", "1");
        alice.chat("all", "2");
        alice.chat("all", "3");
        assertEquals("Durable ingress quota exceeded (events).", alice.peer().lastOfType("error").getString("payload"));
        assertEquals(2, alice.peer().ofType("chat").size());
        test.advance(61);
        alice.chat("all", "4");
        assertEquals(3, alice.peer().ofType("chat").size());
    }

    @Test
    void structuredResponsesAreValidated() {
        TestHub test = new TestHub();
        TestHub.Client alice = test.register("proj/alice");
        TestHub.Client bob = test.register("proj/bob");
        alice.chat("proj/bob", "please review");
        long seq = bob.peer().lastOfType("chat").getJsonNumber("seq").longValue();
        bob.send(TestHub.frame("chat", "proj/alice", "ok").add("response_to_seq", seq));
        assertEquals("semantic response needs response_to_seq, response_status, and response_evidence_scope",
                bob.peer().lastOfType("error").getString("payload"));
        bob.send(TestHub.frame("chat", "proj/alice", "ok").add("response_to_seq", seq)
                .add("response_status", "maybe").add("response_evidence_scope", "recipient"));
        assertEquals("response_status is not recognised", bob.peer().lastOfType("error").getString("payload"));
        bob.send(TestHub.frame("chat", "proj/carol", "ok").add("response_to_seq", seq)
                .add("response_status", "completed").add("response_evidence_scope", "recipient"));
        assertEquals("semantic response target must match the referenced message sender",
                bob.peer().lastOfType("error").getString("payload"));
        TestHub.Client carol = test.register("proj/carol");
        carol.send(TestHub.frame("chat", "proj/alice", "ok").add("response_to_seq", seq)
                .add("response_status", "completed").add("response_evidence_scope", "recipient"));
        assertEquals("recipient semantic response requires an addressee of the referenced message",
                carol.peer().lastOfType("error").getString("payload"));
        bob.send(TestHub.frame("chat", "proj/alice", "done").add("response_to_seq", seq)
                .add("response_status", "completed").add("response_evidence_scope", "recipient"));
        assertEquals("done", alice.peer().lastOfType("chat").getString("payload"));
        bob.send(TestHub.frame("chat", "proj/alice", "ok").add("response_to_seq", 9999)
                .add("response_status", "completed").add("response_evidence_scope", "recipient"));
        assertEquals("response_to_seq does not name a durable chat", bob.peer().lastOfType("error").getString("payload"));
    }

    @Test
    void privateChannelsDeliverOnlyToMembers() {
        TestHub test = new TestHub();
        TestHub.Client alice = test.register("proj/alice");
        TestHub.Client bob = test.register("proj/bob");
        TestHub.Client carol = test.register("proj/carol");
        alice.send(TestHub.frame("channel_create", "System", "c").add("channel", "ops").add("label", "Ops"));
        assertTrue(alice.peer().lastOfType("channel_result").getBoolean("ok"));
        bob.send(TestHub.frame("channel_join", "System", "j").add("channel", "ops"));
        assertFalse(bob.peer().lastOfType("channel_result").getBoolean("ok"), "join needs an invite");
        alice.send(TestHub.frame("channel_invite", "System", "i").add("channel", "ops").add("invitee", "proj/bob"));
        bob.send(TestHub.frame("channel_join", "System", "j").add("channel", "ops"));
        JsonObject joined = bob.peer().lastOfType("channel_result");
        assertTrue(joined.getBoolean("ok"));
        assertEquals(2, joined.getJsonArray("members").size());
        int carolChats = carol.peer().ofType("chat").size();
        alice.send(TestHub.frame("chat", "all", "members only").add("channel", "ops").add("receipt_requested", true));
        assertEquals("members only", bob.peer().lastOfType("chat").getString("payload"));
        assertEquals(carolChats, carol.peer().ofType("chat").size());
        assertTrue(alice.peer().lastOfType("delivery_receipt").getBoolean("delivered"));
        carol.send(TestHub.frame("chat", "all", "let me in").add("channel", "ops"));
        JsonObject refused = carol.peer().lastOfType("error");
        assertEquals("not a member of channel 'ops'", refused.getString("payload"));
        assertEquals("ops", refused.getString("channel"));
        alice.send(TestHub.frame("history_request", "System", "h"));
        assertTrue(alice.peer().lastOfType("history_snapshot").getJsonArray("history").isEmpty(),
                "channel chats stay out of public history");
        bob.send(TestHub.frame("channel_history_request", "System", "h").add("channel", "ops"));
        assertEquals(1, bob.peer().lastOfType("channel_history").getJsonArray("messages").size());
        assertNotEquals(null, test.journal.last("chat").getString("channel", null), "journalled with its channel");
    }

    @Test
    void aFailedJournalAppendPublishesNothingAndTellsTheSender() {
        TestHub test = new TestHub();
        TestHub.Client alice = test.register("proj/alice");
        TestHub.Client bob = test.register("proj/bob");
        test.journal.failAppends(true);
        alice.chat("proj/bob", "lost");
        assertTrue(bob.peer().ofType("chat").isEmpty());
        assertEquals("journal_append_failed", alice.peer().lastOfType("error").getString("error_code"));
        alice.send(TestHub.frame("history_request", "System", "h"));
        assertTrue(alice.peer().lastOfType("history_snapshot").getJsonArray("history").isEmpty());
        test.journal.failAppends(false);
        alice.chat("proj/bob", "kept");
        assertEquals("kept", bob.peer().lastOfType("chat").getString("payload"));
    }
}
