package org.switchboard.synapse.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;

/** The delivery feature end to end on the plain-Java hub with an in-memory journal. */
class DeliveryServiceTest {

    static final String TOKEN = "ab".repeat(32);
    static final String INC = DeliveryDigests.incarnation(TOKEN);
    static final double NOW = 1_767_225_600.0;

    static JsonObjectBuilder recipientFields(String token) {
        return Json.createObjectBuilder().add("protocol_version", 3).add("delivery_session_token", token)
                .add("delivery_capabilities", Json.createObjectBuilder().add("follow_up", "native").add("next_turn", "emulated"));
    }

    static JsonObjectBuilder request(String id, String incarnation) {
        return Json.createObjectBuilder().add("type", "delivery_request").add("target", "builder").add("payload", "")
                .add("protocol_version", 3).add("request_id", id).add("idempotency_key", "ik-" + id)
                .add("target_incarnation", incarnation).add("mode", "steer")
                .add("allowed_fallbacks", Json.createArrayBuilder().add("follow_up")).add("task_id", "T-42")
                .add("body", "secret body " + id).add("deadline", NOW + 600.0);
    }

    static JsonObjectBuilder report(String type, JsonObject offer, String mutation, JsonObjectBuilder evidence) {
        return Json.createObjectBuilder().add("type", type).add("target", "System").add("protocol_version", 3)
                .add("operation_key", offer.getString("operation_key")).add("request_id", offer.getString("request_id"))
                .add("task_id", offer.getString("task_id")).add("mutation_id", mutation).add("evidence", evidence);
    }

    static TestHub.Client sender(TestHub hub) {
        return hub.register("planner", Json.createObjectBuilder().add("protocol_version", 3));
    }

    @Test
    void registrationBindsASessionAndNeverEchoesTheToken() {
        TestHub hub = new TestHub();
        TestHub.Client builder = hub.register("builder", recipientFields(TOKEN));
        JsonObject session = builder.peer().lastOfType("delivery_session");
        assertEquals(INC, session.getString("incarnation"));
        assertEquals(3, session.getInt("protocol_version"));
        assertEquals("native", session.getJsonObject("capabilities").getString("follow_up"));
        TestHub.Client planner = sender(hub);
        planner.send(TestHub.frame("who_request", "System", ""));
        JsonObject who = planner.peer().lastOfType("who_snapshot");
        assertEquals(INC, who.getJsonObject("delivery_sessions").getJsonObject("builder").getString("incarnation"));
        TestHub.Client old = hub.register("old", null);
        old.send(TestHub.frame("who_request", "System", ""));
        assertFalse(old.peer().lastOfType("who_snapshot").containsKey("delivery_sessions"));
        for (TestHub.Client c : List.of(builder, planner, old)) {
            assertFalse(c.peer().frames().toString().contains(TOKEN));
        }
        for (JournalEvent e : hub.journal.events()) {
            assertFalse(e.payload().toString().contains(TOKEN));
        }
    }

    @Test
    void refusedRegistrationsCloseWith4020() {
        TestHub hub = new TestHub();
        TestHub.Client badVersion = hub.register("r1", recipientFields(TOKEN).add("protocol_version", 2));
        assertEquals("unsupported_protocol", badVersion.peer().lastOfType("error").getString("reason_code"));
        assertEquals(4020, badVersion.peer().closeCode());
        TestHub.Client upper = hub.register("r2", recipientFields(TOKEN.toUpperCase()));
        assertEquals("invalid_shape", upper.peer().lastOfType("error").getString("reason_code"));
        TestHub.Client later = sender(hub);
        later.send(TestHub.frame("chat", "all", "hi").add("delivery_session_token", TOKEN));
        assertEquals("invalid_shape", later.peer().lastOfType("error").getString("reason_code"));
        assertEquals(4020, later.peer().closeCode());
        TestHub noJournal = new TestHub(SynapseSettings.defaults(), null);
        TestHub.Client r = noJournal.register("r3", recipientFields(TOKEN));
        assertEquals("unsupported_profile", r.peer().lastOfType("error").getString("reason_code"));
        assertEquals(4020, r.peer().closeCode());
    }

    @Test
    void requestOfferStagesAndOutcomeWithBothFactsKeptWhenCancelRaces() {
        TestHub hub = new TestHub();
        TestHub.Client builder = hub.register("builder", recipientFields(TOKEN));
        TestHub.Client planner = sender(hub);
        planner.send(request("rq-1", INC));
        JsonObject status = planner.peer().lastOfType("delivery_status");
        assertEquals("queued", status.getString("stage"));
        assertEquals("follow_up", status.getString("selected_mode"));
        assertEquals("native", status.getString("quality"));
        assertTrue(status.getBoolean("receiver_reachable"));
        assertTrue(status.getJsonNumber("latest_event_seq").longValue() > 0);
        JsonObject offer = builder.peer().lastOfType("delivery_offer");
        assertEquals("planner", offer.getString("sender"));
        assertEquals("delivery:" + offer.getString("operation_key") + ":1", offer.getString("notification_id"));
        assertEquals(DeliveryDigests.operationKey(hub.hub.hubId(), "planner", "rq-1"), offer.getString("operation_key"));
        assertNotNull(hub.journal.last(DeliveryJournal.ACCEPTED));
        assertNotNull(hub.journal.last(DeliveryJournal.QUEUED));

        builder.send(report("delivery_boundary", offer, "b-1", Json.createObjectBuilder().add("boundary", "turn-end")));
        assertEquals("boundary_delivered", builder.peer().lastOfType("delivery_status").getString("stage"));
        JsonObject pushed = planner.peer().last(f -> f.containsKey("audience"));
        assertEquals("boundary_delivered", pushed.getString("stage"));
        assertEquals("recipient", pushed.getString("source"));
        builder.send(report("delivery_ack", offer, "a-1", Json.createObjectBuilder().add("receipt_id", "r-1")));
        planner.send(Json.createObjectBuilder().add("type", "delivery_cancel").add("protocol_version", 3)
                .add("operation_key", offer.getString("operation_key")).add("mutation_id", "c-1"));
        JsonObject cancelNote = builder.peer().last(f -> f.containsKey("audience") && f.getString("source").equals("sender"));
        assertTrue(cancelNote.getBoolean("cancel_requested"));
        builder.send(report("delivery_outcome", offer, "o-1", Json.createObjectBuilder().add("executor_ref", "turn-1")
                .add("outcome_code", "ok")).add("stage", "completed"));
        JsonObject done = builder.peer().lastOfType("delivery_status");
        assertEquals("completed", done.getString("stage"));
        assertTrue(done.getBoolean("cancel_requested"));
        assertTrue(done.getBoolean("task_completed"));
        assertTrue(done.getBoolean("boundary_delivered"));
        assertTrue(done.getBoolean("explicitly_acknowledged"));
        // replaying the same outcome is answered from the ledger without a new event (delivered marks aside)
        long changes = count(hub.journal, DeliveryJournal.TRANSITION);
        builder.send(report("delivery_outcome", offer, "o-1", Json.createObjectBuilder().add("executor_ref", "turn-1")
                .add("outcome_code", "ok")).add("stage", "completed"));
        assertEquals(changes, count(hub.journal, DeliveryJournal.TRANSITION));
        builder.send(report("delivery_outcome", offer, "o-1", Json.createObjectBuilder().add("executor_ref", "turn-2")
                .add("outcome_code", "ok")).add("stage", "completed"));
        assertEquals("id_conflict", builder.peer().lastOfType("delivery_refused").getString("reason_code"));
        builder.send(report("delivery_outcome", offer, "o-2", Json.createObjectBuilder().add("executor_ref", "turn-1")
                .add("outcome_code", "ok")).add("stage", "failed"));
        assertEquals("invalid_transition", builder.peer().lastOfType("delivery_refused").getString("reason_code"));
        planner.send(Json.createObjectBuilder().add("type", "delivery_cancel").add("protocol_version", 3)
                .add("operation_key", offer.getString("operation_key")).add("mutation_id", "c-2"));
        assertEquals("invalid_transition", planner.peer().lastOfType("delivery_refused").getString("reason_code"));
    }

    static long count(InMemoryJournal journal, String kind) {
        return journal.events().stream().filter(e -> e.kind().equals(kind)).count();
    }

    /** The notification seqs listed by every {@code delivery_notifications_delivered} event so far, sorted. */
    static List<Long> marked(InMemoryJournal journal) {
        return journal.events().stream().filter(e -> e.kind().equals(DeliveryJournal.DELIVERED))
                .flatMap(e -> e.payload().getJsonArray("seqs").getValuesAs(jakarta.json.JsonNumber.class).stream())
                .map(jakarta.json.JsonNumber::longValue).sorted().toList();
    }

    /** Waits (the marks are appended MARK_DELAY_MS after the first send of a window) until {@code n} seqs are marked. */
    static List<Long> awaitMarked(InMemoryJournal journal, int n) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
        while (marked(journal).size() < n && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return marked(journal);
    }

    static JsonObjectBuilder outcome(JsonObject offer, String stage) {
        return report("delivery_outcome", offer, "o-" + offer.getString("request_id"),
                Json.createObjectBuilder().add("reason_code", "no")).add("stage", stage);
    }

    static List<JsonObject> notifications(TestHub.Client client) {
        return client.peer().ofType("delivery_status").stream().filter(f -> f.containsKey("audience")).toList();
    }

    /** Blocking work the test runs itself: a delivered-mark flush waits there until the test runs it. */
    static final class Held implements java.util.concurrent.Executor {
        final java.util.concurrent.LinkedBlockingQueue<Runnable> tasks = new java.util.concurrent.LinkedBlockingQueue<>();

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        /** Runs what is queued now. */
        void runQueued() {
            Runnable task;
            while ((task = tasks.poll()) != null) {
                task.run();
            }
        }

        /** Waits up to 5 s for a task (the mark window closing), then runs everything queued. */
        void awaitAndRun() throws InterruptedException {
            Runnable first = tasks.poll(5, java.util.concurrent.TimeUnit.SECONDS);
            assertNotNull(first, "a flush was scheduled");
            first.run();
            runQueued();
        }
    }

    @Test
    void admissionsAndChangesWriteOnlyTheirEventsAndSentNotificationsAreMarkedByOneEvent() throws Exception {
        InMemoryJournal journal = new InMemoryJournal();
        Held blocking = new Held();
        TestHub hub = new TestHub(SynapseSettings.defaults(), journal, blocking);
        TestHub.Client builder = hub.register("builder", recipientFields(TOKEN));
        blocking.runQueued(); // registration's replay steps
        TestHub.Client planner = sender(hub);
        blocking.runQueued();
        for (int i = 1; i <= 10; i++) {
            planner.send(request("rq-" + i, INC));
        }
        for (JsonObject offer : builder.peer().ofType("delivery_offer")) {
            builder.send(outcome(offer, "rejected"));
        }
        assertEquals(10, notifications(planner).size());
        // no notification row is written: the offer and the notification live in the journal's events
        assertEquals(0, journal.pendingOutboxCount());
        assertTrue(journal.pendingOutbox(DeliveryService.OUTBOX_PREFIX + "builder").isEmpty());
        assertTrue(journal.pendingOutbox(DeliveryService.OUTBOX_PREFIX + "planner").isEmpty());
        assertEquals(10, count(journal, DeliveryJournal.ACCEPTED));
        assertEquals(10, count(journal, DeliveryJournal.QUEUED));
        assertEquals(10, count(journal, DeliveryJournal.TRANSITION));
        assertFalse(journal.last(DeliveryJournal.QUEUED).containsKey("offer"));
        assertTrue(journal.last(DeliveryJournal.QUEUED).containsKey("offered_at"));
        assertEquals("planner", journal.last(DeliveryJournal.TRANSITION).getString("audience"));
        assertEquals(0, hub.hub.delivery().notificationsPending(), "every notification reached its socket");
        // every send made before the window's flush runs is marked by that one event
        assertEquals(0, count(journal, DeliveryJournal.DELIVERED));
        blocking.awaitAndRun();
        List<Long> transitions = journal.events().stream().filter(e -> e.kind().equals(DeliveryJournal.TRANSITION))
                .map(JournalEvent::seq).toList();
        assertEquals(1, count(journal, DeliveryJournal.DELIVERED));
        assertEquals(transitions, marked(journal));
        // the request and each stage change are what a client waits on; the delivered marker is not
        List<String> prompt = journal.promptKinds();
        assertEquals(10, prompt.stream().filter(DeliveryJournal.ACCEPTED::equals).count());
        assertEquals(10, prompt.stream().filter(DeliveryJournal.TRANSITION::equals).count());
        assertFalse(prompt.contains(DeliveryJournal.DELIVERED));
    }

    @Test
    void afterARestartOnlyUndeliveredNotificationsAreReplayedAndOffersAreRebuiltByteForByte() throws Exception {
        InMemoryJournal journal = new InMemoryJournal();
        TestHub hub = new TestHub(journal);
        TestHub.Client builder = hub.register("builder", recipientFields(TOKEN));
        TestHub.Client planner = sender(hub);
        planner.send(request("rq-1", INC));
        planner.send(request("rq-2", INC));
        planner.send(request("rq-3", INC));
        List<JsonObject> offers = builder.peer().ofType("delivery_offer");
        builder.send(outcome(offers.get(0), "rejected")); // reaches the planner and is marked
        assertEquals(1, awaitMarked(journal, 1).size());
        planner.disconnect();
        builder.send(outcome(offers.get(1), "rejected")); // the planner is offline: pending
        String queuedOffer = hub.hub.delivery().book().get(offers.get(2).getString("operation_key")).offer();
        builder.disconnect();

        TestHub restarted = new TestHub(journal);
        assertEquals(queuedOffer, restarted.hub.delivery().book().get(offers.get(2).getString("operation_key")).offer(),
                "the offer rebuilt from the journalled request and offered_at has the same bytes");
        TestHub.Client again = restarted.register("builder", recipientFields(TOKEN));
        assertEquals(List.of(offers.get(2)), again.peer().ofType("delivery_offer"));
        TestHub.Client planner2 = sender(restarted);
        List<JsonObject> replayed = notifications(planner2);
        assertEquals(1, replayed.size(), "only the undelivered notification: " + replayed);
        assertEquals(offers.get(1).getString("operation_key"), replayed.get(0).getString("operation_key"));
        assertEquals("rejected", replayed.get(0).getString("stage"));
        assertEquals("delivery:" + offers.get(1).getString("operation_key") + ":2", replayed.get(0).getString("notification_id"));
        long transitionSeq = journal.events().stream().filter(e -> e.kind().equals(DeliveryJournal.TRANSITION))
                .mapToLong(JournalEvent::seq).max().orElseThrow();
        assertEquals(transitionSeq, replayed.get(0).getJsonNumber("event_seq").longValue());
        assertEquals(2, awaitMarked(journal, 2).size());
        planner2.disconnect();
        TestHub.Client planner3 = sender(new TestHub(journal));
        assertTrue(notifications(planner3).isEmpty(), "marked delivered before the second restart");
    }

    @Test
    void aNotificationReSentAfterARestartKeepsItsFirstTimestamp() {
        InMemoryJournal journal = new InMemoryJournal();
        Held blocking = new Held(); // the delivered mark is never flushed: as if killed inside the mark window
        TestHub hub = new TestHub(SynapseSettings.defaults(), journal, blocking);
        TestHub.Client builder = hub.register("builder", recipientFields(TOKEN));
        TestHub.Client planner = sender(hub);
        blocking.runQueued();
        planner.send(request("rq-1", INC));
        hub.advance(7.25);
        builder.send(outcome(builder.peer().lastOfType("delivery_offer"), "rejected"));
        JsonObject first = notifications(planner).get(0);
        assertEquals(NOW + 7.25, first.getJsonNumber("timestamp").doubleValue());

        TestHub restarted = new TestHub(journal);
        restarted.advance(300);
        List<JsonObject> again = notifications(sender(restarted));
        assertEquals(1, again.size(), "the unmarked notification is sent again: " + again);
        assertEquals(first.getString("notification_id"), again.get(0).getString("notification_id"));
        assertEquals(first, again.get(0), "the same frame, timestamp included");
    }

    @Test
    void undeliveredNotificationsOfAnAbsentSenderAreBoundedOldestFirstAndStayDroppedAfterARestart() throws Exception {
        InMemoryJournal journal = new InMemoryJournal();
        Held blocking = new Held();
        SynapseSettings bounded = SynapseSettings.builder().deliveryNotificationsMaxPerAudience(3).deliveryNotificationsMax(100).build();
        TestHub hub = new TestHub(bounded, journal, blocking);
        TestHub.Client builder = hub.register("builder", recipientFields(TOKEN));
        TestHub.Client planner = sender(hub);
        blocking.runQueued();
        for (int i = 1; i <= 5; i++) {
            planner.send(request("rq-" + i, INC));
        }
        planner.disconnect(); // and never comes back to this hub
        List<JsonObject> offers = builder.peer().ofType("delivery_offer");
        for (JsonObject offer : offers) {
            builder.send(outcome(offer, "rejected"));
        }
        assertEquals(3, hub.hub.delivery().notificationsPending(), "the planner's bound");
        assertEquals(2, hub.hub.delivery().notificationsDropped());
        blocking.awaitAndRun(); // the dropped ones are marked like delivered ones
        assertEquals(2, marked(journal).size());

        TestHub restarted = new TestHub(bounded, journal, Runnable::run);
        assertEquals(3, restarted.hub.delivery().notificationsPending(), "dropped ones are not rebuilt");
        List<String> keys = notifications(sender(restarted)).stream().map(f -> f.getString("operation_key")).toList();
        assertEquals(offers.subList(2, 5).stream().map(o -> o.getString("operation_key")).toList(), keys, "the newest three");
    }

    @Test
    void aRecipientsCancelNoticeIsReplayedUntilItsRequestIsTerminalThenRetired() {
        InMemoryJournal journal = new InMemoryJournal();
        TestHub hub = new TestHub(journal);
        TestHub.Client builder = hub.register("builder", recipientFields(TOKEN));
        TestHub.Client planner = sender(hub);
        planner.send(request("rq-1", INC).add("deadline", NOW + 10.0));
        planner.send(request("rq-2", INC));
        List<JsonObject> offers = builder.peer().ofType("delivery_offer");
        builder.disconnect();
        for (JsonObject offer : offers) {
            planner.send(Json.createObjectBuilder().add("type", "delivery_cancel").add("protocol_version", 3)
                    .add("operation_key", offer.getString("operation_key")).add("mutation_id", "c"));
        }
        // rq-1 expires while the recipient is away: its cancel notice is retired, rq-2's is still due
        TestHub restarted = new TestHub(journal);
        restarted.advance(11);
        restarted.hub.delivery().sweep();
        TestHub.Client again = restarted.register("builder", recipientFields(TOKEN));
        List<JsonObject> seen = notifications(again);
        assertEquals(1, seen.size(), "rq-1's notice retired: " + seen);
        assertEquals(offers.get(1).getString("operation_key"), seen.get(0).getString("operation_key"));
        assertTrue(seen.get(0).getBoolean("cancel_requested"));
        assertEquals("sender", seen.get(0).getString("source"));
    }

    /** Polls until {@code done} holds (marks are flushed on another thread), at most 5 s. */
    static boolean eventually(java.util.function.BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return done.getAsBoolean();
    }

    @Test
    void anEarlierVersionsStoredOffersAndNotificationRowsAreStillSentAndMarked() throws Exception {
        InMemoryJournal current = new InMemoryJournal();
        TestHub hub = new TestHub(current);
        TestHub.Client builder = hub.register("builder", recipientFields(TOKEN));
        TestHub.Client planner = sender(hub);
        planner.send(request("rq-1", INC));
        planner.send(request("rq-2", INC));
        List<JsonObject> offers = builder.peer().ofType("delivery_offer");
        planner.disconnect();
        builder.send(outcome(offers.get(0), "rejected"));
        builder.disconnect();
        // The same history as the version before this one stored it: the offer inside the queued event and
        // as an outbox row, no audience on the change, the sender's notification as an undelivered outbox row.
        InMemoryJournal legacy = new InMemoryJournal();
        String noticeId = null;
        for (JournalEvent e : current.events()) {
            JsonObjectBuilder payload = Json.createObjectBuilder(e.payload());
            List<org.switchboard.journal.OutboxRow> rows = List.of();
            String key = e.payload().getString("operation_key");
            JsonObject offer = offers.stream().filter(o -> o.getString("operation_key").equals(key)).findFirst().orElseThrow();
            if (e.kind().equals(DeliveryJournal.QUEUED)) {
                payload.remove("offered_at").add("offer", offer);
                rows = List.of(new org.switchboard.journal.OutboxRow("delivery:" + key + ":1", 0, "delivery_offer",
                        "delivery@builder", offer, 1, true));
            } else if (e.kind().equals(DeliveryJournal.TRANSITION)) {
                payload.remove("audience");
                noticeId = e.payload().getString("notification_id");
                JsonObject notice = Json.createObjectBuilder().add("sender", "System").add("target", "planner")
                        .add("type", "delivery_status").add("payload", "Delivery state changed.").add("audience", "planner")
                        .add("operation_key", key).add("request_id", "rq-1").add("task_id", "T-42").add("target", "builder")
                        .add("target_incarnation", INC).add("stage", "rejected").add("cancel_requested", false)
                        .add("notification_id", noticeId).add("source", "recipient").add("protocol_version", 3).build();
                rows = List.of(new org.switchboard.journal.OutboxRow(noticeId, 0, "delivery_status", "delivery@planner", notice, 0, false));
            }
            legacy.append(List.of(new JournalEvent.Draft(e.kind(), payload.build())), rows);
        }
        assertEquals(1, legacy.pendingOutboxCount());

        TestHub restarted = new TestHub(legacy);
        TestHub.Client builder2 = restarted.register("builder", recipientFields(TOKEN));
        assertEquals(List.of(offers.get(1)), builder2.peer().ofType("delivery_offer"), "the stored offer, as stored");
        TestHub.Client planner2 = sender(restarted);
        List<JsonObject> replayed = notifications(planner2);
        assertEquals(1, replayed.size());
        assertEquals(noticeId, replayed.get(0).getString("notification_id"));
        long transitionSeq = legacy.events().stream().filter(e -> e.kind().equals(DeliveryJournal.TRANSITION))
                .mapToLong(JournalEvent::seq).max().orElseThrow();
        assertEquals(transitionSeq, replayed.get(0).getJsonNumber("event_seq").longValue());
        assertTrue(eventually(() -> legacy.pendingOutboxCount() == 0), "the earlier version's row is marked delivered");
        // new changes on that journal are stored the new way, next to the old rows
        builder2.send(outcome(offers.get(1), "rejected"));
        assertEquals(2, notifications(planner2).size());
        assertEquals(1, awaitMarked(legacy, 1).size());
        planner2.disconnect();
        assertTrue(notifications(sender(new TestHub(legacy))).isEmpty(), "both marked: nothing replayed");
    }

    @Test
    void retryIsIdempotentAndChangedContentConflicts() {
        TestHub hub = new TestHub();
        TestHub.Client builder = hub.register("builder", recipientFields(TOKEN));
        TestHub.Client planner = sender(hub);
        planner.send(request("rq-1", INC));
        int events = hub.journal.events().size();
        planner.send(request("rq-1", INC));
        assertEquals(events, hub.journal.events().size());
        assertEquals(2, builder.peer().ofType("delivery_offer").size());
        assertEquals(builder.peer().ofType("delivery_offer").get(0), builder.peer().ofType("delivery_offer").get(1));
        planner.send(request("rq-1", INC).add("body", "other"));
        JsonObject refused = planner.peer().lastOfType("delivery_refused");
        assertEquals("id_conflict", refused.getString("reason_code"));
        assertFalse(refused.toString().contains("other"));
    }

    @Test
    void capsTaskControlAndRecipientChecks() {
        TestHub hub = new TestHub();
        hub.register("builder", Json.createObjectBuilder().add("protocol_version", 3).add("delivery_session_token", TOKEN)
                .add("delivery_capabilities", Json.createObjectBuilder().add("follow_up", "native").add("steer", "native")));
        TestHub.Client planner = sender(hub);
        planner.send(request("rq-s", INC));
        assertEquals("unauthorised_requester", planner.peer().lastOfType("delivery_refused").getString("reason_code"));
        for (int i = 0; i < 16; i++) {
            planner.send(request("rq-" + i, INC).add("mode", "follow_up").remove("allowed_fallbacks"));
        }
        assertEquals(16, planner.peer().ofType("delivery_status").size());
        planner.send(request("rq-16", INC).add("mode", "follow_up").remove("allowed_fallbacks"));
        assertEquals("recipient_queue_full", planner.peer().lastOfType("delivery_refused").getString("reason_code"));
        planner.send(request("rq-x", "0".repeat(64)).add("mode", "follow_up").remove("allowed_fallbacks"));
        assertEquals("stale_incarnation", planner.peer().lastOfType("delivery_refused").getString("reason_code"));
        planner.send(request("rq-y", INC).add("target", "nobody"));
        assertEquals("unavailable_recipient", planner.peer().lastOfType("delivery_refused").getString("reason_code"));
        planner.send(request("rq-z", INC).add("mode", "interrupt").add("allowed_fallbacks", Json.createArrayBuilder().add("next_turn")));
        assertEquals("unsupported_mode", planner.peer().lastOfType("delivery_refused").getString("reason_code"));
        TestHub.Client v2 = hub.register("v2", null);
        v2.send(request("rq-v2", INC));
        assertEquals("unsupported_protocol", v2.peer().lastOfType("delivery_refused").getString("reason_code"));
        assertEquals("rq-v2", v2.peer().lastOfType("delivery_refused").getString("request_id"));
    }

    @Test
    void expirySupersedeAndReplayAfterRestart() {
        InMemoryJournal journal = new InMemoryJournal();
        TestHub hub = new TestHub(journal);
        TestHub.Client builder = hub.register("builder", recipientFields(TOKEN));
        TestHub.Client planner = sender(hub);
        planner.send(request("rq-1", INC).add("deadline", NOW + 10.0));
        planner.send(request("rq-2", INC));
        JsonObject offer2 = builder.peer().ofType("delivery_offer").get(1);
        builder.disconnect();
        planner.disconnect();

        TestHub restarted = new TestHub(journal);
        TestHub.Client again = restarted.register("builder", recipientFields(TOKEN));
        List<JsonObject> offers = again.peer().ofType("delivery_offer");
        assertEquals(2, offers.size());
        assertEquals(offer2, offers.get(1));
        restarted.advance(11);
        restarted.hub.delivery().sweep();
        TestHub.Client planner2 = sender(restarted);
        JsonObject expired = planner2.peer().last(f -> f.containsKey("audience") && "expired".equals(f.getString("stage")));
        assertEquals("hub", expired.getString("source"));
        assertEquals(offers.get(0).getString("operation_key"), expired.getString("operation_key"));
        // a new token supersedes the still-open request of the old incarnation
        again.disconnect();
        TestHub.Client fresh = restarted.register("builder", recipientFields("cd".repeat(32)));
        JsonObject superseded = planner2.peer().last(f -> f.containsKey("audience") && "superseded".equals(f.getString("stage")));
        assertEquals(offer2.getString("operation_key"), superseded.getString("operation_key"));
        assertTrue(fresh.peer().ofType("delivery_offer").isEmpty());
    }

    @Test
    void anotherHubsJournalRefusesToStart() {
        InMemoryJournal journal = new InMemoryJournal();
        TestHub hub = new TestHub(journal);
        hub.register("builder", recipientFields(TOKEN));
        sender(hub).send(request("rq-1", INC));
        SynapseSettings renamed = SynapseSettings.builder().configuredHubId("hub-other").build();
        assertThrows(DeliveryJournal.HubIdentityMismatch.class, () -> new TestHub(renamed, journal));
    }

    @Test
    void anUndecodableRowQuarantinesItsRequestOnly() {
        DeliveryBook book = new DeliveryBook();
        JsonObject bogus = Json.createObjectBuilder().add("operation_key", "a".repeat(64)).add("stage", "queued").build();
        assertEquals("a".repeat(64), DeliveryJournal.replay(new JournalEvent(1, DeliveryJournal.QUEUED, bogus, NOW), book, "h"));
        assertNull(DeliveryJournal.replay(new JournalEvent(2, "chat", bogus, NOW), book, "h"));
    }
}
