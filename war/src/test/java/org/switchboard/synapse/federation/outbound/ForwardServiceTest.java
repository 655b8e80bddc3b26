package org.switchboard.synapse.federation.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.TestHub;

/** The origin side over a real (in-memory) hub with a scripted peer: outbox, attempts, settlement, receipts, replay. */
class ForwardServiceTest {

    /** A peer that answers from a script (a frame, or null for a transport failure) and records what it was sent. */
    static final class ScriptedPeer implements PeerClient {
        final Deque<JsonObject> answers = new ArrayDeque<>();
        final List<JsonObject> forwards = new ArrayList<>();
        final List<JsonObject> registrations = new ArrayList<>();
        /** Run inside the next exchanges, one each (null: nothing), before its answer is taken. */
        final Deque<Runnable> during = new ArrayDeque<>();

        @Override
        public JsonObject exchange(MessagePeers.Peer peer, JsonObject registration, JsonObject forward, String forwardId)
                throws IOException {
            registrations.add(registration);
            forwards.add(forward);
            Runnable meanwhile = during.poll();
            if (meanwhile != null) {
                meanwhile.run(); // what happens elsewhere while this exchange is under way
            }
            JsonObject next = answers.isEmpty() ? null : answers.poll();
            if (next == null) {
                throw new IOException("connection refused");
            }
            return Json.createObjectBuilder(next).add("forward_id", forwardId).build();
        }
    }

    record Scheduled(String forwardId, long delayMillis) {
    }

    final TestHub test = new TestHub(new InMemoryJournal());
    final ScriptedPeer peer = new ScriptedPeer();
    final List<Scheduled> scheduled = new ArrayList<>();
    ForwardService service = install(MessagePeers.parse("hub-b=ws://127.0.0.1:9877/", "", 60));

    ForwardService install(MessagePeers peers) {
        ForwardService s = new ForwardService(test.hub.context(), peers, "peer-secret", peer,
                (id, delay) -> scheduled.add(new Scheduled(id, delay)));
        test.hub.forwarding(s);
        return s;
    }

    static JsonObject accepted() {
        return Json.createObjectBuilder().add("type", "multihub_message_result").add("disposition", "accepted")
                .add("answering_hub", "hub-b").add("reason_code", "").add("detail", "")
                .add("result", Json.createObjectBuilder().add("seq", 88).add("msg_id", 12).add("delivered", true)
                        .add("recipients", Json.createArrayBuilder().add("ACME/bob"))
                        .add("matched_recipients", Json.createArrayBuilder().add("ACME/bob"))
                        .add("stale_recipients", Json.createArrayBuilder()).add("reason", "").add("dead_lettered", false))
                .build();
    }

    TestHub.Client alice() {
        return test.register("ACME/alice");
    }

    void chat(TestHub.Client sender, String target) {
        sender.send(TestHub.frame("chat", target, "Build is green.").add("receipt_requested", true).add("client_msg_id", "c-1"));
    }

    List<String> kinds() {
        return test.journal.events().stream().map(JournalEvent::kind).collect(Collectors.toList());
    }

    String onlyForwardId() {
        assertEquals(1, scheduled.size(), "one attempt queued: " + scheduled);
        return scheduled.get(0).forwardId();
    }

    @Test
    void refusalsStoreNothing() {
        TestHub.Client alice = alice();
        int before = test.journal.events().size();
        chat(alice, "ACME/a@hub-b,ACME/b@hub-b");
        chat(alice, "ACME/bob@-bad");
        chat(alice, "all@hub-b");
        chat(alice, "ACME/*@hub-b");
        chat(alice, "ACME/bob@hub-c");
        List<String> errors = alice.peer().ofType("error").stream().map(f -> f.getString("payload")).toList();
        assertEquals(List.of(HubAddress.NOT_ONE_SEAT, HubAddress.INVALID_ADDRESS, HubAddress.NOT_SINGLE, HubAddress.NOT_SINGLE,
                "Hub 'hub-c' is not a configured message peer"), errors);
        assertEquals(before, test.journal.events().size());
        assertTrue(scheduled.isEmpty());
        assertTrue(peer.forwards.isEmpty());
    }

    @Test
    void chatAndOutboxEntryAreJournalledInOneAppendBeforeTheFirstAttempt() {
        TestHub.Client alice = alice();
        chat(alice, "ACME/bob@hub-b");
        String id = onlyForwardId();
        assertEquals(0, scheduled.get(0).delayMillis());
        assertTrue(peer.forwards.isEmpty(), "nothing sent before the queue hands the attempt over");
        List<JournalEvent> events = test.journal.events();
        JournalEvent queued = events.get(events.size() - 1);
        JournalEvent chat = events.get(events.size() - 2);
        assertEquals(ForwardJournal.QUEUED, queued.kind());
        assertEquals("chat", chat.kind());
        assertEquals(chat.seq() + 1, queued.seq());
        assertEquals(id, chat.payload().getString("forward_id"));
        assertEquals(id, queued.payload().getString("forward_id"));
        assertEquals("ACME/bob@hub-b", chat.payload().getString("target"));
        assertEquals(1, service.outbox().pending().size());
        // the sender sees its own chat with the forward_id, as a local directed chat
        assertEquals(id, alice.peer().lastOfType("chat").getString("forward_id"));
    }

    @Test
    void acceptedOnTheFirstAttempt() {
        TestHub.Client alice = alice();
        chat(alice, "ACME/bob@hub-b");
        String id = onlyForwardId();
        peer.answers.add(accepted());
        service.attempt(id);
        JsonObject forward = peer.forwards.get(0);
        assertEquals("multihub_message_forward", forward.getString("type"));
        assertEquals(test.hub.hubId(), forward.getString("sender"));
        assertEquals("chat", forward.getString("kind"));
        assertEquals("ACME/alice", forward.getString("sender_seat"));
        assertEquals("ACME/bob", forward.getString("target_seat"));
        assertEquals("Build is green.", forward.getJsonObject("body").getString("payload"));
        assertEquals("c-1", forward.getJsonObject("body").getString("client_msg_id"));
        JsonObject registration = peer.registrations.get(0);
        assertEquals(test.hub.hubId(), registration.getString("sender"));
        assertEquals(5, registration.getInt("protocol_version"));
        assertEquals("peer-secret", registration.getString("token"));
        List<JsonObject> receipts = alice.peer().ofType("delivery_receipt");
        assertEquals(1, receipts.size());
        JsonObject r = receipts.get(0);
        assertEquals("accepted", r.getString("forward_state"));
        assertFalse(r.getBoolean("deferred"));
        assertTrue(r.getBoolean("delivered"));
        assertEquals(Json.createArrayBuilder().add("ACME/bob@hub-b").build(), r.getJsonArray("recipients"));
        assertEquals(ForwardJournal.SETTLED, kinds().get(kinds().size() - 1));
        assertTrue(service.outbox().pending().isEmpty());
        assertNull(service.outbox().get(id), "settled, nothing owed: dropped");
    }

    @Test
    void retriesWithBackoffReuseTheForwardAndSendASecondReceipt() {
        TestHub.Client alice = alice();
        chat(alice, "ACME/bob@hub-b");
        String id = onlyForwardId();
        service.attempt(id); // transport failure
        assertEquals(new Scheduled(id, 1000), scheduled.get(1));
        JsonObject pending = alice.peer().lastOfType("delivery_receipt");
        assertEquals("pending", pending.getString("forward_state"));
        assertEquals("forward_pending", pending.getString("reason"));
        assertTrue(pending.getBoolean("deferred"));
        assertTrue(pending.containsKey("message_seq"));
        service.attempt(id); // a stale copy of the item, before the entry is due: nothing sent
        assertEquals(1, peer.forwards.size());
        test.advance(1);
        service.attempt(id); // fails again: 2 s
        assertEquals(new Scheduled(id, 2000), scheduled.get(2));
        test.advance(2);
        peer.answers.add(accepted());
        service.attempt(id);
        assertEquals(3, peer.forwards.size());
        assertEquals(peer.forwards.get(0), peer.forwards.get(2), "every attempt sends the identical forward");
        List<JsonObject> receipts = alice.peer().ofType("delivery_receipt");
        assertEquals(2, receipts.size(), "pending, then the settlement");
        JsonObject settled = receipts.get(1);
        assertEquals("accepted", settled.getString("forward_state"));
        assertTrue(settled.getBoolean("deferred"));
        assertFalse(settled.containsKey("message_seq"));
        assertEquals(ForwardJournal.NOTIFIED, kinds().get(kinds().size() - 1));
        assertEquals(2, kinds().stream().filter(ForwardJournal.FAILED::equals).count());
    }

    @Test
    void anErrorFrameSettlesRefusedPeerRejectedWithoutRetry() {
        TestHub.Client alice = alice();
        chat(alice, "ACME/bob@hub-b");
        String id = onlyForwardId();
        peer.answers.add(Json.createObjectBuilder().add("type", "error").add("payload", "Unknown type").build());
        service.attempt(id);
        assertEquals(1, scheduled.size());
        JsonObject r = alice.peer().lastOfType("delivery_receipt");
        assertEquals("refused", r.getString("forward_state"));
        assertEquals("forward_refused", r.getString("reason"));
        JournalEvent settled = test.journal.events().get(test.journal.events().size() - 1);
        assertEquals("peer_rejected", settled.payload().getString("reason_code"));
    }

    @Test
    void thePeersRefusalSettlesRefused() {
        TestHub.Client alice = alice();
        chat(alice, "ACME/bob@hub-b");
        String id = onlyForwardId();
        peer.answers.add(Json.createObjectBuilder(accepted()).add("disposition", "refused")
                .add("reason_code", "namespace_not_granted").build());
        service.attempt(id);
        assertEquals("refused", alice.peer().lastOfType("delivery_receipt").getString("forward_state"));
        assertEquals(1, scheduled.size());
    }

    @Test
    void expiresAfterTheTtl() {
        TestHub.Client alice = alice();
        chat(alice, "ACME/bob@hub-b");
        String id = onlyForwardId();
        service.attempt(id);
        test.advance(59);
        service.expireDue();
        assertEquals(1, service.outbox().pending().size());
        test.advance(1);
        service.expireDue();
        assertTrue(service.outbox().pending().isEmpty());
        JsonObject r = alice.peer().lastOfType("delivery_receipt");
        assertEquals("expired", r.getString("forward_state"));
        assertEquals("forward_expired", r.getString("reason"));
        service.attempt(id);
        assertEquals(1, peer.forwards.size(), "an expired forward is never sent again");
    }

    @Test
    void aSenderOfflineAtSettlementGetsTheReceiptOnItsNextRegistrationEvenAfterARestart() {
        TestHub.Client alice = alice();
        chat(alice, "ACME/bob@hub-b");
        String id = onlyForwardId();
        service.attempt(id);
        alice.disconnect();
        test.advance(1);
        peer.answers.add(accepted());
        service.attempt(id);
        assertEquals(1, alice.peer().ofType("delivery_receipt").size(), "only the pending one while online");
        // a restart: a new service rebuilt from the journal still owes the receipt
        ForwardService restarted = new ForwardService(test.hub.context(), service.peers(), "", peer, (f, d) -> { });
        test.journal.events().forEach(restarted::replay);
        assertTrue(restarted.outbox().get(id).receiptOwed());
        test.hub.forwarding(restarted);
        TestHub.Client back = alice();
        JsonObject r = back.peer().lastOfType("delivery_receipt");
        assertEquals("accepted", r.getString("forward_state"));
        assertTrue(r.getBoolean("deferred"));
        assertNull(restarted.outbox().get(id), "told: forgotten");
        TestHub.Client again = test.register("ACME/alice");
        assertTrue(again.peer().ofType("delivery_receipt").isEmpty(), "told once");
    }

    @Test
    void aRestartRebuildsPendingEntriesAndRequeuesThemUnderTheSameId() {
        TestHub.Client alice = alice();
        chat(alice, "ACME/bob@hub-b");
        String id = onlyForwardId();
        service.attempt(id);
        List<Scheduled> requeued = new ArrayList<>();
        ForwardService restarted = new ForwardService(test.hub.context(), service.peers(), "", peer,
                (f, d) -> requeued.add(new Scheduled(f, d)));
        test.journal.events().forEach(restarted::replay);
        ForwardEntry e = restarted.outbox().get(id);
        assertEquals(1, e.attempts());
        assertEquals(id, e.request().getString("forward_id"));
        assertEquals(1, restarted.redrive(0));
        assertEquals(id, requeued.get(0).forwardId());
        assertEquals(1, restarted.stats().get("hub-b").pending());
    }

    @Test
    void aPeerRemovedFromTheConfigurationSettlesPeerNotConfigured() {
        TestHub.Client alice = alice();
        chat(alice, "ACME/bob@hub-b");
        String id = onlyForwardId();
        service.attempt(id);
        ForwardService restarted = new ForwardService(test.hub.context(), MessagePeers.none(), "", peer, (f, d) -> { });
        test.journal.events().forEach(restarted::replay);
        test.advance(1);
        restarted.attempt(id);
        JournalEvent settled = test.journal.events().stream().filter(e -> ForwardJournal.SETTLED.equals(e.kind()))
                .reduce((a, b) -> b).orElseThrow();
        assertEquals("refused", settled.payload().getString("state"));
        assertEquals("peer_not_configured", settled.payload().getString("reason_code"));
        assertEquals(1, peer.forwards.size());
    }

    @Test
    void remoteRoster() {
        TestHub.Client alice = alice();
        peer.answers.add(Json.createObjectBuilder(accepted()).add("result", Json.createObjectBuilder()
                .add("online_agents", Json.createArrayBuilder().add("ACME/bob"))
                .add("delivery_sessions", Json.createObjectBuilder().add("ACME/bob",
                        Json.createObjectBuilder().add("incarnation", "ab".repeat(32)).add("capabilities",
                                Json.createArrayBuilder())))).build());
        alice.send(TestHub.frame("who_request", "System", "").add("hub", "hub-b"));
        assertEquals("who", peer.forwards.get(0).getString("kind"));
        JsonObject who = alice.peer().lastOfType("who_snapshot");
        assertEquals("hub-b", who.getString("remote_hub"));
        assertEquals(Json.createArrayBuilder().add("ACME/bob@hub-b").build(), who.getJsonArray("online_agents"));
        assertEquals("hub-b", who.getJsonObject("delivery_sessions").getJsonObject("ACME/bob@hub-b").getString("hub_id"));
        alice.send(TestHub.frame("who_request", "System", "").add("hub", "hub-b")); // peer down now
        assertTrue(alice.peer().lastOfType("error").getString("payload")
                .startsWith("Roster of hub 'hub-b' unavailable (peer_unreachable)"));
        alice.send(TestHub.frame("who_request", "System", "").add("hub", "hub-z"));
        assertTrue(alice.peer().lastOfType("error").getString("payload")
                .startsWith("Roster of hub 'hub-z' unavailable (unknown_hub)"));
    }

    @Test
    void aSettlementRacingTheSendersRegistrationFlushIsToldOnce() {
        TestHub.Client alice = alice();
        chat(alice, "ACME/bob@hub-b");
        String id = onlyForwardId();
        service.attempt(id);
        test.advance(1);
        alice.peer().holdWrites(); // the settlement receipt is on its way, not yet taken by the socket
        peer.answers.add(accepted());
        service.attempt(id);
        service.flushReceipts(alice.connection()); // step 12 of a registration at that moment
        alice.peer().releaseWrites(true);
        assertEquals(1, alice.peer().ofType("delivery_receipt").stream()
                .filter(r -> "accepted".equals(r.getString("forward_state"))).count());
        assertNull(service.outbox().get(id));
    }

    @Test
    void aReceiptTheSocketDidNotTakeIsOwedStill() {
        TestHub.Client alice = alice();
        chat(alice, "ACME/bob@hub-b");
        String id = onlyForwardId();
        service.attempt(id);
        test.advance(1);
        alice.peer().failWrites(true);
        peer.answers.add(accepted());
        service.attempt(id);
        assertTrue(service.outbox().get(id).receiptOwed());
        alice.peer().failWrites(false);
        service.flushReceipts(alice.connection());
        assertEquals("accepted", alice.peer().lastOfType("delivery_receipt").getString("forward_state"));
        assertNull(service.outbox().get(id));
    }

    // ---- outbox caps (issue 18) ----

    void plainChat(TestHub.Client sender, String target, String text) {
        sender.send(TestHub.frame("chat", target, text));
    }

    @Test
    void aPeerAtItsPendingCapRefusesTheChatBeforeAnythingIsJournalled() {
        service = install(MessagePeers.parse("hub-b=ws://127.0.0.1:9877/,hub-c=ws://127.0.0.1:9878/", "", 60)
                .withPendingCaps(2, MessagePeers.DEFAULT_MAX_PENDING_BYTES));
        TestHub.Client alice = alice();
        plainChat(alice, "ACME/bob@hub-b", "one");
        plainChat(alice, "ACME/bob@hub-b", "two");
        assertEquals(2, service.outbox().pendingFor("hub-b"));
        int journalled = test.journal.events().size();
        plainChat(alice, "ACME/bob@hub-b", "three");
        assertEquals(ForwardService.peerQueueFull("hub-b", 2), alice.peer().lastOfType("error").getString("payload"));
        assertEquals(journalled, test.journal.events().size(), "refused before the journal");
        assertEquals(2, scheduled.size());
        assertEquals(1, service.refusedFull());
        plainChat(alice, "ACME/carol@hub-c", "another peer has its own cap");
        assertEquals(1, service.outbox().pendingFor("hub-c"));
        // one settles: room for one more
        peer.answers.add(accepted());
        service.attempt(scheduled.get(0).forwardId());
        assertEquals(1, service.outbox().pendingFor("hub-b"));
        int errors = alice.peer().ofType("error").size();
        plainChat(alice, "ACME/bob@hub-b", "four");
        assertEquals(errors, alice.peer().ofType("error").size());
        assertEquals(2, service.outbox().pendingFor("hub-b"));
        // the counts are rebuilt by the replay at start: the cap holds across a restart
        ForwardService restarted = new ForwardService(test.hub.context(), service.peers(), "", peer, (f, d) -> { });
        test.journal.events().forEach(restarted::replay);
        assertEquals(2, restarted.outbox().pendingFor("hub-b"));
        assertEquals(1, restarted.outbox().pendingFor("hub-c"));
        assertEquals(ForwardService.peerQueueFull("hub-b", 2),
                restarted.refusal("ACME/alice", "ACME/bob@hub-b", TestHub.frame("chat", "ACME/bob@hub-b", "x").build()));
    }

    @Test
    void theHubWideCapCountsThePendingHeapOfEveryPeer() {
        long room = 2 * ForwardOutbox.ENTRY_OVERHEAD_BYTES + 2 * 10 + 2 * 10;
        service = install(MessagePeers.parse("hub-b=ws://127.0.0.1:9877/,hub-c=ws://127.0.0.1:9878/", "", 60)
                .withPendingCaps(1000, room));
        TestHub.Client alice = alice();
        plainChat(alice, "ACME/bob@hub-b", "0123456789");
        plainChat(alice, "ACME/carol@hub-c", "0123456789");
        assertEquals(room, service.outbox().pendingBytes());
        int journalled = test.journal.events().size();
        plainChat(alice, "ACME/dave@hub-c", "x");
        assertEquals(ForwardService.HUB_QUEUE_FULL, alice.peer().lastOfType("error").getString("payload"));
        assertEquals(journalled, test.journal.events().size());
        // an expiry frees the room as a settlement does
        test.advance(61);
        service.expireDue();
        assertEquals(0, service.outbox().pendingBytes());
        assertEquals(0, service.outbox().pendingFor("hub-b"));
    }

    @Test
    void aSettledEntryNoLongerHoldsItsRequest() {
        TestHub.Client alice = alice();
        chat(alice, "ACME/bob@hub-b");
        String id = onlyForwardId();
        service.attempt(id); // fails: pending, request kept for the retry
        assertEquals(id, service.outbox().get(id).request().getString("forward_id"));
        test.advance(1);
        alice.disconnect(); // the settlement receipt stays owed: the entry stays in memory
        peer.answers.add(accepted());
        service.attempt(id);
        ForwardEntry owed = service.outbox().get(id);
        assertTrue(owed.receiptOwed());
        assertNull(owed.request(), "an owed receipt keeps no payload");
    }

    @Test
    void capsBelowOneAreAStartUpFault() {
        assertEquals("SYNAPSE refuses to serve: " + MessagePeers.MAX_PENDING_PER_PEER_KEY + ": must be at least 1",
                MessagePeers.parse("hub-b=ws://127.0.0.1:9877/", "", 60).withPendingCaps(0, 1 << 20).fault());
        assertTrue(MessagePeers.parse("hub-b=ws://127.0.0.1:9877/", "", 60).withPendingCaps(5, 10).fault()
                .contains(MessagePeers.MAX_PENDING_BYTES_KEY));
    }

    @Test
    void thePeersFirstAnswerAfterAnOutageRequeuesItsWaitingForwardsAtOnce() {
        TestHub.Client alice = alice();
        plainChat(alice, "ACME/bob@hub-b", "one");
        plainChat(alice, "ACME/bob@hub-b", "two");
        String first = scheduled.get(0).forwardId();
        String second = scheduled.get(1).forwardId();
        service.attempt(first);  // no answer: due in 1 s
        service.attempt(second); // no answer: due in 1 s
        test.advance(1);
        service.attempt(second); // no answer again: due in 2 s
        assertEquals(test.hub.context().frames().now() + 2, service.outbox().get(second).nextAttemptAt());
        int queued = scheduled.size();
        peer.answers.add(accepted());
        service.attempt(first); // the peer is back
        assertEquals(new Scheduled(second, 0), scheduled.get(queued), "the waiting forward is re-queued now");
        peer.answers.add(accepted());
        service.attempt(second); // not dropped as early: it was made due
        assertNull(service.outbox().get(second));
        assertEquals(5, peer.forwards.size(), "two failed attempts of the second, one of the first, then both accepted");
    }

    @Test
    void firstAttemptsBeyondTheCapPerPeerWaitInMemoryForTheNextFreeSlot() {
        List<Runnable> running = new ArrayList<>();
        service.directAttempts(running::add, 1);
        TestHub.Client alice = alice();
        plainChat(alice, "ACME/bob@hub-b", "one");
        assertTrue(scheduled.isEmpty(), "no queue item for a direct first attempt");
        assertEquals(1, running.size());
        plainChat(alice, "ACME/bob@hub-b", "two"); // one direct attempt already running for hub-b
        assertEquals(1, running.size(), "no second worker beyond the cap");
        assertTrue(scheduled.isEmpty(), "beyond the cap: waits in memory, no queue item");
        peer.answers.add(accepted());
        peer.answers.add(accepted());
        running.get(0).run(); // the worker takes the waiting attempt after its own
        assertEquals(List.of("one", "two"), peer.forwards.stream()
                .map(f -> f.getJsonObject("body").getString("payload")).collect(Collectors.toList()));
        assertEquals(0, service.outbox().pending().size(), "both settled");
        plainChat(alice, "ACME/bob@hub-b", "three"); // the slot is free again
        assertEquals(2, running.size());
        assertTrue(scheduled.isEmpty());
    }

    @Test
    void withDirectAttemptsThePeersReturnMakesItsWaitingForwardsDueInMemory() {
        List<Runnable> running = new ArrayList<>();
        service.directAttempts(running::add, 1);
        TestHub.Client alice = alice();
        plainChat(alice, "ACME/bob@hub-b", "one");
        running.get(0).run(); // no answer: back-off item due in 1 s
        assertEquals(List.of(new Scheduled(scheduled.get(0).forwardId(), 1000)), scheduled);
        String waiting = scheduled.get(0).forwardId();
        plainChat(alice, "ACME/bob@hub-b", "two");
        peer.answers.add(accepted());
        peer.answers.add(accepted());
        running.get(1).run(); // the peer answers "two": "one" is made due, and this worker (the peer's one slot) takes it
        assertEquals(1, scheduled.size(), "no new queue item for the made-due forward");
        assertEquals(2, running.size());
        assertEquals(3, peer.forwards.size());
        assertNull(service.outbox().get(waiting), "settled without waiting out its back-off");
    }

    @Test
    void thePeersReturnAlsoRequeuesForwardsAlreadyOverdue() {
        List<Runnable> running = new ArrayList<>();
        service.directAttempts(running::add, 1);
        TestHub.Client alice = alice();
        plainChat(alice, "ACME/bob@hub-b", "one");
        running.get(0).run(); // no answer: back-off item due in 1 s
        String overdue = scheduled.get(0).forwardId();
        test.advance(5); // its queue item is late (a broker backlog after an outage): the entry is overdue, not waiting
        plainChat(alice, "ACME/bob@hub-b", "two");
        peer.answers.add(accepted());
        peer.answers.add(accepted());
        running.get(1).run(); // "two" answered: the overdue "one" is taken in memory, not left to its queue item
        assertEquals(1, scheduled.size(), "no new queue item");
        assertEquals(3, peer.forwards.size());
        assertNull(service.outbox().get(overdue), "settled without its late queue item");
    }

    @Test
    void anAttemptThatFailsWhileThePeerAnswersAnotherIsRetriedSoonNotAfterItsBackOff() {
        List<Runnable> running = new ArrayList<>();
        service.directAttempts(running::add, 2);
        TestHub.Client alice = alice();
        plainChat(alice, "ACME/bob@hub-b", "one");
        running.get(0).run(); // no answer: 1 s
        String slow = scheduled.get(0).forwardId();
        for (int wait = 1; wait <= 4; wait *= 2) { // the peer stays down: then 2, 4, 8 s (the TTL here is 60 s)
            test.advance(wait);
            service.attempt(slow);
        }
        assertEquals(8000, scheduled.get(scheduled.size() - 1).delayMillis());
        test.advance(8);
        // the fifth attempt hangs on the restarting peer; meanwhile the peer is back and answers "two"
        plainChat(alice, "ACME/bob@hub-b", "two");
        Runnable two = running.get(running.size() - 1);
        peer.during.add(() -> {
            peer.answers.add(accepted());
            two.run();
        });
        service.attempt(slow); // then times out: the answer to "two" came after it started
        assertEquals(new Scheduled(slow, 1000), scheduled.get(scheduled.size() - 1),
                "retried in 1 s, not after the 16 s back-off");
        assertEquals(1, service.outbox().pending().size(), "only the slow one is left");
    }
}
