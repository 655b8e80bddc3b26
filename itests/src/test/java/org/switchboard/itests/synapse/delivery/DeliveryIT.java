package org.switchboard.itests.synapse.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.StringReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Session-bound delivery (wire v3, synapse-advanced §2) against the packaged hub: registration and
 * its 4020 refusals, the §2.20 flow, every locally reachable refusal code of §2.18, idempotent retry,
 * cancel racing completion, supersede, the expiry sweep, and — last, on the same hub — kill -9:
 * queued requests are offered again after restart under the same identities, and expire after it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DeliveryIT {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static HubServer hub;

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

    static String token(char c) {
        return String.valueOf(c).repeat(64);
    }

    static String incarnation(String token) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII)));
    }

    static double now() {
        return System.currentTimeMillis() / 1000.0;
    }

    /**
     * Registers {@code name} as a delivery recipient and returns once both its {@code delivery_session} and its
     * {@code joined} presence arrived. The presence (pipeline step 10) can go out before the session is bound
     * (step 11), so a request sent on seeing the presence alone could find no session (it did once in CI);
     * the {@code delivery_session} frame leaves only after the binding.
     */
    static SynapseClient recipient(String name, String token, JsonObjectBuilder capabilities) {
        SynapseClient client = SynapseClient.connect(hub.webSocketUri(), name);
        client.expectType("welcome");
        client.send(SynapseClient.frame("heartbeat", "System", "online").add("protocol_version", 3)
                .add("delivery_session_token", token).add("delivery_capabilities", capabilities));
        Predicate<JsonObject> joined = f -> "presence_update".equals(f.getString("type", ""))
                && "joined".equals(f.getString("event", "")) && name.equals(f.getString("agent", ""));
        boolean[] sawJoined = {false};
        client.expect(f -> {
            sawJoined[0] |= joined.test(f);
            return "delivery_session".equals(f.getString("type", ""));
        }, WAIT);
        if (!sawJoined[0]) {
            client.expect(joined, WAIT);
        }
        return client;
    }

    static JsonObjectBuilder caps() {
        return Json.createObjectBuilder().add("follow_up", "native").add("next_turn", "emulated");
    }

    static SynapseClient sender(String name) {
        return SynapseClient.register(hub.webSocketUri(), name, Json.createObjectBuilder().add("protocol_version", 3).build());
    }

    /** One deadline for every request of the run, so a retry carries exactly the same content. */
    private static final double DEADLINE = Math.floor(now()) + 3000.5;

    static JsonObjectBuilder request(String target, String id, String incarnation) {
        return SynapseClient.frame("delivery_request", target, "").add("protocol_version", 3).add("request_id", id)
                .add("idempotency_key", "ik-" + id).add("target_incarnation", incarnation).add("mode", "steer")
                .add("allowed_fallbacks", Json.createArrayBuilder().add("follow_up")).add("task_id", "T-42")
                .add("body", "Rebase on main before continuing. " + id).add("deadline", DEADLINE);
    }

    static JsonObjectBuilder report(String type, JsonObject offer, String mutation, JsonObjectBuilder evidence) {
        return SynapseClient.frame(type, "System", "").add("protocol_version", 3)
                .add("operation_key", offer.getString("operation_key")).add("request_id", offer.getString("request_id"))
                .add("task_id", offer.getString("task_id")).add("mutation_id", mutation).add("evidence", evidence);
    }

    static JsonObjectBuilder keyed(String type, String operationKey) {
        return SynapseClient.frame(type, "System", "").add("protocol_version", 3).add("operation_key", operationKey);
    }

    static Predicate<JsonObject> type(String type) {
        return f -> type.equals(f.getString("type", ""));
    }

    static JsonObject status(SynapseClient client) {
        return client.expect(f -> "delivery_status".equals(f.getString("type", "")) && !f.containsKey("audience"), WAIT);
    }

    static JsonObject notification(SynapseClient client, String stage) {
        return client.expect(f -> "delivery_status".equals(f.getString("type", "")) && f.containsKey("audience")
                && stage.equals(f.getString("stage", "")), WAIT);
    }

    static String refusal(SynapseClient client) {
        return client.expect(type("delivery_refused"), WAIT).getString("reason_code");
    }

    static JsonObject health() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(hub.http("/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        return Json.createReader(new StringReader(response.body())).readObject();
    }

    @Test
    @Order(1)
    void registrationSessionsAndWho() throws Exception {
        String token = token('1');
        try (SynapseClient builder = SynapseClient.connect(hub.webSocketUri(), "acme/builder1")) {
            JsonObject welcome = builder.expectType("welcome");
            assertEquals(6, welcome.getInt("protocol_version"));
            builder.send(SynapseClient.frame("heartbeat", "System", "online").add("protocol_version", 3)
                    .add("delivery_session_token", token).add("delivery_capabilities", caps()));
            JsonObject session = builder.expectType("delivery_session");
            assertEquals(incarnation(token), session.getString("incarnation"));
            assertEquals(3, session.getInt("protocol_version"));
            assertEquals("emulated", session.getJsonObject("capabilities").getString("next_turn"));
            assertFalse(session.toString().contains(token));
            try (SynapseClient v3 = sender("acme/who3"); SynapseClient v2 = SynapseClient.register(hub.webSocketUri(), "acme/who2")) {
                v3.send(SynapseClient.frame("who_request", "System", ""));
                JsonObject who = v3.expectType("who_snapshot");
                JsonObject entry = who.getJsonObject("delivery_sessions").getJsonObject("acme/builder1");
                assertEquals(incarnation(token), entry.getString("incarnation"));
                assertEquals(health().getString("hub_id"), entry.getString("hub_id"));
                assertFalse(who.toString().contains(token));
                v2.send(SynapseClient.frame("who_request", "System", ""));
                assertFalse(v2.expectType("who_snapshot").containsKey("delivery_sessions"));
            }
        }
        assertEquals(6, health().getInt("protocol_version"));
        assertFalse(Files_read(hub.logFile()).contains(token), "the token never reaches the log");
    }

    static String Files_read(java.nio.file.Path path) throws Exception {
        return java.nio.file.Files.exists(path) ? java.nio.file.Files.readString(path, StandardCharsets.UTF_8) : "";
    }

    @Test
    @Order(2)
    void refusedRegistrationsGetAReasonCodeAndClose4020() {
        record Case(String name, JsonObjectBuilder first, JsonObjectBuilder second, String code) { }
        List<Case> cases = List.of(
                new Case("acme/r-version", SynapseClient.frame("heartbeat", "System", "").add("protocol_version", 2)
                        .add("delivery_session_token", token('2')).add("delivery_capabilities", caps()), null, "unsupported_protocol"),
                new Case("acme/r-upper", SynapseClient.frame("heartbeat", "System", "").add("protocol_version", 3)
                        .add("delivery_session_token", "AB".repeat(32)).add("delivery_capabilities", caps()), null, "invalid_shape"),
                new Case("acme/r-caps", SynapseClient.frame("heartbeat", "System", "").add("protocol_version", 3)
                        .add("delivery_session_token", token('2')).add("delivery_capabilities",
                                Json.createObjectBuilder().add("follow_up", "sometimes")), null, "invalid_shape"),
                new Case("acme/r-chat", SynapseClient.frame("chat", "all", "hello").add("protocol_version", 3)
                        .add("delivery_session_token", token('2')).add("delivery_capabilities", caps()), null, "invalid_shape"),
                new Case("acme/r-later", SynapseClient.frame("heartbeat", "System", "").add("protocol_version", 3),
                        SynapseClient.frame("heartbeat", "System", "").add("delivery_session_token", token('2'))
                                .add("delivery_capabilities", caps()), "invalid_shape"));
        for (Case c : cases) {
            try (SynapseClient client = SynapseClient.connect(hub.webSocketUri(), c.name())) {
                client.expectType("welcome");
                client.send(c.first());
                if (c.second() != null) {
                    client.send(c.second());
                }
                JsonObject error = client.expect(f -> "error".equals(f.getString("type", "")) && f.containsKey("reason_code"), WAIT);
                assertEquals(c.code(), error.getString("reason_code"), c.name());
                assertFalse(error.toString().contains(token('2')));
                assertEquals(4020, client.awaitClose(WAIT), c.name());
            }
        }
    }

    /** §2.20: steer with a follow_up fallback to a recipient that advertised only follow_up, then its stages. */
    @Test
    @Order(3)
    void theSection220FlowWithCancelRacingCompletion() throws Exception {
        String token = token('3');
        try (SynapseClient builder = recipient("ACME/builder", token, Json.createObjectBuilder().add("follow_up", "native"));
             SynapseClient planner = sender("ACME/planner")) {
            planner.send(request("ACME/builder", "rq-7781", incarnation(token)));
            JsonObject queued = status(planner);
            assertEquals("queued", queued.getString("stage"));
            assertEquals("follow_up", queued.getString("selected_mode"));
            assertEquals("native", queued.getString("quality"));
            assertTrue(queued.getBoolean("receiver_reachable"));
            assertTrue(queued.getBoolean("active_session"));
            assertFalse(queued.getBoolean("task_completed"));
            assertEquals(3, queued.getInt("protocol_version"));
            JsonObject offer = builder.expectType("delivery_offer");
            assertEquals("ACME/planner", offer.getString("sender"));
            assertEquals(queued.getString("operation_key"), offer.getString("operation_key"));
            assertEquals("delivery:" + offer.getString("operation_key") + ":1", offer.getString("notification_id"));
            assertEquals("steer", offer.getString("requested_mode"));
            assertEquals("Rebase on main before continuing. rq-7781", offer.getString("body"));

            builder.send(report("delivery_boundary", offer, "b-1", Json.createObjectBuilder().add("boundary", "turn-end")));
            assertEquals("boundary_delivered", status(builder).getString("stage"));
            assertEquals("recipient", notification(planner, "boundary_delivered").getString("source"));
            builder.send(report("delivery_ack", offer, "a-1", Json.createObjectBuilder().add("receipt_id", "rcpt-1")));
            assertTrue(status(builder).getBoolean("explicitly_acknowledged"));
            notification(planner, "acknowledged");

            planner.send(keyed("delivery_cancel", offer.getString("operation_key")).add("mutation_id", "cancel-1"));
            JsonObject cancelled = status(planner);
            assertEquals("acknowledged", cancelled.getString("stage"), "a cancel is a request, not a decision");
            assertTrue(cancelled.getBoolean("cancel_requested"));
            JsonObject toRecipient = notification(builder, "acknowledged");
            assertEquals("sender", toRecipient.getString("source"));
            assertTrue(toRecipient.getBoolean("cancel_requested"));
            // a second cancel with another mutation id: current status, no new notification to the recipient
            planner.send(keyed("delivery_cancel", offer.getString("operation_key")).add("mutation_id", "cancel-2"));
            assertTrue(status(planner).getBoolean("cancel_requested"));

            builder.send(report("delivery_outcome", offer, "out-1", Json.createObjectBuilder().add("executor_ref", "turn-0193")
                    .add("outcome_code", "ok")).add("stage", "completed"));
            JsonObject done = status(builder);
            assertEquals("completed", done.getString("stage"));
            assertTrue(done.getBoolean("cancel_requested"), "both facts are kept");
            assertTrue(done.getBoolean("task_completed"));
            builder.expectNone(f -> f.containsKey("audience") && "sender".equals(f.getString("source", "")), Duration.ofMillis(300));
            JsonObject completedNote = notification(planner, "completed");
            assertTrue(completedNote.getBoolean("cancel_requested"));
            assertTrue(completedNote.getJsonNumber("event_seq").longValue() > 0);

            planner.send(keyed("delivery_status_request", offer.getString("operation_key")));
            JsonObject read = status(planner);
            assertEquals("completed", read.getString("stage"));
            assertEquals(done.getJsonNumber("latest_event_seq"), read.getJsonNumber("latest_event_seq"));
            // an outcome replayed with the same mutation id is answered, one with changed content conflicts
            builder.send(report("delivery_outcome", offer, "out-1", Json.createObjectBuilder().add("executor_ref", "turn-0193")
                    .add("outcome_code", "ok")).add("stage", "completed"));
            assertEquals(done.getJsonNumber("latest_event_seq"), status(builder).getJsonNumber("latest_event_seq"));
            builder.send(report("delivery_outcome", offer, "out-1", Json.createObjectBuilder().add("executor_ref", "turn-0194")
                    .add("outcome_code", "ok")).add("stage", "completed"));
            assertEquals("id_conflict", refusal(builder));
            builder.send(report("delivery_outcome", offer, "out-2", Json.createObjectBuilder().add("executor_ref", "x")
                    .add("outcome_code", "bad")).add("stage", "failed"));
            assertEquals("invalid_transition", refusal(builder));
            planner.send(keyed("delivery_cancel", offer.getString("operation_key")).add("mutation_id", "cancel-3"));
            assertEquals("invalid_transition", refusal(planner));
        }
    }

    @Test
    @Order(4)
    void idempotentRetryAndIdConflict() throws Exception {
        String token = token('4');
        try (SynapseClient builder = recipient("acme/retry-r", token, caps()); SynapseClient planner = sender("acme/retry-s")) {
            planner.send(request("acme/retry-r", "rq-1", incarnation(token)));
            JsonObject first = status(planner);
            JsonObject offer = builder.expectType("delivery_offer");
            planner.send(request("acme/retry-r", "rq-1", incarnation(token)));
            JsonObject again = status(planner);
            assertEquals(first.getString("operation_key"), again.getString("operation_key"));
            assertEquals(first.getJsonNumber("latest_event_seq"), again.getJsonNumber("latest_event_seq"));
            assertEquals(offer, builder.expectType("delivery_offer"), "the still-queued offer is re-sent byte-identically");
            planner.send(request("acme/retry-r", "rq-1", incarnation(token)).add("body", "changed body"));
            JsonObject refused = planner.expect(type("delivery_refused"), WAIT);
            assertEquals("id_conflict", refused.getString("reason_code"));
            assertEquals("rq-1", refused.getString("request_id"));
            assertFalse(refused.toString().contains("changed body"));
        }
    }

    /** Every §2.18 code a local, black-box client can cause (the others are unit-tested; see the conformance notes). */
    @Test
    @Order(5)
    void refusalCodes() throws Exception {
        String token = token('5');
        String inc = incarnation(token);
        try (SynapseClient builder = recipient("acme/ref-r", token, Json.createObjectBuilder().add("follow_up", "native").add("steer", "native"));
             SynapseClient planner = sender("acme/ref-s"); SynapseClient stranger = sender("acme/ref-x");
             SynapseClient old = SynapseClient.register(hub.webSocketUri(), "acme/ref-v2")) {
            old.send(request("acme/ref-r", "rq-v2", inc));
            assertEquals("unsupported_protocol", refusal(old));
            planner.send(request("acme/ref-r", "rq-p", inc).add("protocol_version", 2));
            assertEquals("unsupported_protocol", refusal(planner));
            planner.send(request("acme/ref-r", "rq-k", inc).add("colour", "red"));
            assertEquals("invalid_shape", refusal(planner));
            planner.send(request("acme/ref-r", "bad\u0001id", inc).add("body", ""));
            JsonObject noEcho = planner.expect(type("delivery_refused"), WAIT);
            assertEquals("invalid_shape", noEcho.getString("reason_code"));
            assertEquals("", noEcho.getString("request_id"));
            planner.send(request("acme/ref-r", "rq-m", inc).add("mode", "shout"));
            assertEquals("unsupported_mode", refusal(planner));
            planner.send(request("acme/ref-r", "rq-m2", inc).add("mode", "interrupt").add("allowed_fallbacks", Json.createArrayBuilder().add("next_turn")));
            assertEquals("unsupported_mode", refusal(planner));
            planner.send(request("acme/ref-r", "rq-d", inc).add("deadline", now() - 1));
            assertEquals("deadline_expired", refusal(planner));
            planner.send(request("acme/nobody", "rq-u", inc));
            assertEquals("unavailable_recipient", refusal(planner));
            planner.send(request("acme/ref-r", "rq-st", "0".repeat(64)));
            assertEquals("stale_incarnation", refusal(planner));
            planner.send(request("acme/ref-r", "rq-steer", inc).remove("allowed_fallbacks"));
            assertEquals("unauthorised_requester", refusal(planner), "steer is never granted without an ACL layer");
            planner.send(keyed("delivery_status_request", "f".repeat(64)));
            assertEquals("unknown_request", refusal(planner));
            planner.send(keyed("delivery_status_request", "F".repeat(64)));
            assertEquals("invalid_shape", refusal(planner));
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                planner.send(request("acme/ref-r", "rq-cap-" + i, inc).add("mode", "follow_up").remove("allowed_fallbacks"));
                keys.add(status(planner).getString("operation_key"));
            }
            planner.send(request("acme/ref-r", "rq-cap-16", inc).add("mode", "follow_up").remove("allowed_fallbacks"));
            assertEquals("recipient_queue_full", refusal(planner));
            stranger.send(keyed("delivery_status_request", keys.get(0)));
            assertEquals("unauthorised_requester", refusal(stranger));
            stranger.send(keyed("delivery_cancel", keys.get(0)).add("mutation_id", "m"));
            assertEquals("unauthorised_requester", refusal(stranger));
            planner.send(keyed("delivery_boundary", keys.get(0)).add("request_id", "rq-cap-0").add("task_id", "T-42")
                    .add("mutation_id", "m").add("evidence", Json.createObjectBuilder().add("boundary", "b")));
            assertEquals("unauthorised_requester", refusal(planner));
            JsonObject offer = builder.expect(f -> "delivery_offer".equals(f.getString("type", ""))
                    && keys.get(0).equals(f.getString("operation_key")), WAIT);
            builder.send(report("delivery_ack", offer, "a", Json.createObjectBuilder().add("receipt_id", "r")));
            assertEquals("invalid_transition", refusal(builder), "queued -> acknowledged skips the boundary");
            builder.send(report("delivery_boundary", offer, "b", Json.createObjectBuilder()));
            assertEquals("invalid_shape", refusal(builder), "a boundary needs evidence.boundary");
            builder.send(report("delivery_boundary", offer, "b", Json.createObjectBuilder().add("boundary", "x").add("extra", "y")));
            assertEquals("invalid_shape", refusal(builder));
            builder.send(report("delivery_boundary", offer, "b", Json.createObjectBuilder().add("boundary", "x")).add("task_id", "T-other"));
            assertEquals("invalid_shape", refusal(builder));
            // terminal requests free their slots
            builder.send(report("delivery_outcome", offer, "rej", Json.createObjectBuilder().add("reason_code", "busy")).add("stage", "rejected"));
            assertEquals("rejected", status(builder).getString("stage"));
            planner.send(request("acme/ref-r", "rq-cap-16", inc).add("mode", "follow_up").remove("allowed_fallbacks"));
            assertEquals("queued", status(planner).getString("stage"));
            // the connection stays usable after every refusal
            planner.send(SynapseClient.frame("who_request", "System", ""));
            planner.expectType("who_snapshot");
        }
    }

    @Test
    @Order(6)
    void aNewTokenSupersedesOpenWorkAndTheSweepExpiresIt() throws Exception {
        String oldToken = token('6');
        try (SynapseClient planner = sender("acme/sup-s")) {
            String key;
            try (SynapseClient builder = recipient("acme/sup-r", oldToken, caps())) {
                planner.send(request("acme/sup-r", "rq-sup", incarnation(oldToken)));
                key = status(planner).getString("operation_key");
                builder.expectType("delivery_offer");
            }
            String newToken = token('7');
            try (SynapseClient fresh = recipient("acme/sup-r", newToken, caps())) {
                JsonObject superseded = notification(planner, "superseded");
                assertEquals(key, superseded.getString("operation_key"));
                assertEquals("hub", superseded.getString("source"));
                fresh.expectNone(type("delivery_offer"), Duration.ofMillis(500));
                planner.send(request("acme/sup-r", "rq-exp", incarnation(newToken)).add("mode", "follow_up")
                        .remove("allowed_fallbacks").add("deadline", now() + 2));
                String expiring = status(planner).getString("operation_key");
                JsonObject expired = planner.expect(f -> f.containsKey("audience") && "expired".equals(f.getString("stage", ""))
                        && expiring.equals(f.getString("operation_key", "")), Duration.ofSeconds(15));
                assertEquals("hub", expired.getString("source"));
            }
        }
    }

    /** Last: kill -9 with queued work, restart, and the same offers come back; a short deadline expires after restart. */
    @Test
    @Order(7)
    void queuedRequestsSurviveKillNine() throws Exception {
        final int QUEUED = 15; // one sender may hold 16 open requests per recipient incarnation: 15 + the expiring one
        String token = token('8');
        List<JsonObject> offers = new ArrayList<>();
        String expiringKey;
        try (SynapseClient builder = recipient("acme/crash-r", token, caps()); SynapseClient planner = sender("acme/crash-s")) {
            for (int i = 0; i < QUEUED; i++) {
                planner.send(request("acme/crash-r", "rq-crash-" + i, incarnation(token)).add("mode", "next_turn")
                        .remove("allowed_fallbacks"));
            }
            for (int i = 0; i < QUEUED; i++) {
                assertEquals("queued", status(planner).getString("stage"));
                offers.add(builder.expectType("delivery_offer"));
            }
            planner.send(request("acme/crash-r", "rq-crash-exp", incarnation(token)).add("mode", "next_turn")
                    .remove("allowed_fallbacks").add("deadline", now() + 12));
            expiringKey = status(planner).getString("operation_key");
            builder.expectType("delivery_offer");
            hub.kill9();
        }
        hub.restart();
        try (SynapseClient builder = recipient("acme/crash-r", token, caps())) {
            List<JsonObject> again = new ArrayList<>();
            while (again.size() < QUEUED) {
                JsonObject offer = builder.expectType("delivery_offer");
                if (!expiringKey.equals(offer.getString("operation_key"))) {
                    again.add(offer);
                }
            }
            for (int i = 0; i < QUEUED; i++) {
                assertEquals(offers.get(i).getString("operation_key"), again.get(i).getString("operation_key"));
                assertEquals(offers.get(i).getString("notification_id"), again.get(i).getString("notification_id"));
                assertEquals(offers.get(i), again.get(i), "re-sent byte-identically");
            }
            try (SynapseClient planner = sender("acme/crash-s")) {
                // the short deadline passed while the hub was down: swept after restart, and the sender's
                // notification is pushed or replayed when it registers (before any reply it asks for)
                JsonObject expired = planner.expect(f -> f.containsKey("audience") && "expired".equals(f.getString("stage", ""))
                        && expiringKey.equals(f.getString("operation_key", "")), Duration.ofSeconds(25));
                assertEquals("hub", expired.getString("source"));
                planner.send(keyed("delivery_status_request", offers.get(0).getString("operation_key")));
                assertEquals("queued", status(planner).getString("stage"));
                planner.send(keyed("delivery_status_request", expiringKey));
                assertEquals("expired", status(planner).getString("stage"));
            }
        }
    }

    /**
     * A finished request, once the hub packed it into its terminal archive (the 5 s sweep at the latest),
     * answers status reads, retries, replayed reports and late reports exactly as before.
     */
    @Test
    @Order(8)
    void aFinishedRequestAnswersTheSameOnceArchived() throws Exception {
        String token = token('a');
        try (SynapseClient builder = recipient("acme/archive-r", token, caps()); SynapseClient planner = sender("acme/archive-s")) {
            planner.send(request("acme/archive-r", "rq-arch", incarnation(token)));
            status(planner);
            JsonObject offer = builder.expectType("delivery_offer");
            String key = offer.getString("operation_key");
            builder.send(report("delivery_boundary", offer, "b-1", Json.createObjectBuilder().add("boundary", "turn")));
            assertEquals("boundary_delivered", status(builder).getString("stage"));
            builder.send(report("delivery_ack", offer, "a-1", Json.createObjectBuilder().add("receipt_id", "r-1")));
            assertEquals("acknowledged", status(builder).getString("stage"));
            builder.send(completed(offer, "ok"));
            assertEquals("completed", status(builder).getString("stage"));
            notification(planner, "completed");
            planner.send(keyed("delivery_status_request", key));
            JsonObject before = status(planner);

            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while ((hub.metric("synapse_delivery_terminal_archived") < 1
                    || hub.metric("synapse_delivery_terminal_archived") < hub.metric("synapse_delivery_terminal_held"))
                    && System.nanoTime() < until) {
                Thread.sleep(250);
            }
            assertTrue(hub.metric("synapse_delivery_terminal_archived") >= 1);
            assertEquals(hub.metric("synapse_delivery_terminal_held"), hub.metric("synapse_delivery_terminal_archived"),
                    "every finished request archived, this one included");

            planner.send(keyed("delivery_status_request", key));
            assertEquals(withoutTimestamp(before), withoutTimestamp(status(planner)), "the same status view");
            planner.send(request("acme/archive-r", "rq-arch", incarnation(token)));
            assertEquals(withoutTimestamp(before), withoutTimestamp(status(planner)), "a retry gets the current status");
            planner.send(request("acme/archive-r", "rq-arch", incarnation(token)).add("body", "changed body"));
            assertEquals("id_conflict", refusal(planner));
            planner.send(request("acme/archive-r", "rq-arch-2", incarnation(token)).add("idempotency_key", "ik-rq-arch"));
            assertEquals("id_conflict", refusal(planner), "the idempotency pair still names the archived request");

            builder.send(completed(offer, "ok"));
            assertEquals("completed", status(builder).getString("stage"), "a replayed report gets the status");
            builder.send(completed(offer, "other"));
            assertEquals("id_conflict", refusal(builder), "its mutation id with other content conflicts");
            builder.send(report("delivery_ack", offer, "a-2", Json.createObjectBuilder().add("receipt_id", "r-2")));
            assertEquals("invalid_transition", refusal(builder));
            planner.send(keyed("delivery_cancel", key).add("mutation_id", "cancel-1"));
            assertEquals("invalid_transition", refusal(planner));
        }
    }

    private static JsonObjectBuilder completed(JsonObject offer, String outcomeCode) {
        return report("delivery_outcome", offer, "out-1", Json.createObjectBuilder().add("executor_ref", "x")
                .add("outcome_code", outcomeCode)).add("stage", "completed");
    }

    private static JsonObject withoutTimestamp(JsonObject frame) {
        return Json.createObjectBuilder(frame).remove("timestamp").build();
    }
}
