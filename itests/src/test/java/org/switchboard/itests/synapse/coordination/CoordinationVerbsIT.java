package org.switchboard.itests.synapse.coordination;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Black-box coordination verbs over WebSocket against the packaged hub: claims (grant broadcast,
 * every denial reason code, release with receipt, keyed verdicts and release confirmation,
 * task_update, handoff, checkpoint, wait cycles), idempotency (private verbatim replay, conflicts,
 * non-canonical requests), the blackboard (declare, CAS, causal_parent, progress, snapshot),
 * capabilities, resources with aliases, and the state_snapshot / health / metrics projections.
 * Each test uses its own names and task ids, so the shared server's state never couples tests.
 */
class CoordinationVerbsIT {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final int DARK_SEAT_GRACE_SECONDS = 6;
    private static HubServer hub;

    @BeforeAll
    static void start() {
        // a short dark-seat grace keeps the §14 case from idling 30 s (the rule is the same at any grace)
        hub = CoordinationHub.start("coord-verbs", java.util.Map.of("HUB_DARK_SEAT_GRACE_SECONDS",
                Integer.toString(DARK_SEAT_GRACE_SECONDS)));
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    private static SynapseClient agent(String name) {
        return SynapseClient.register(hub.webSocketUri(), name);
    }

    private static JsonObjectBuilder f(String type) {
        return SynapseClient.frame(type, "System", "");
    }

    private static JsonObject await(SynapseClient c, String type, Predicate<JsonObject> more) {
        return c.expect(x -> type.equals(x.getString("type", "")) && more.test(x), WAIT);
    }

    private static JsonObject await(SynapseClient c, String type) {
        return await(c, type, x -> true);
    }

    private static Predicate<JsonObject> task(String id) {
        return x -> id.equals(x.getString("task_id", ""));
    }

    private static JsonArray paths(String... p) {
        var a = Json.createArrayBuilder();
        for (String s : p) {
            a.add(s);
        }
        return a.build();
    }

    @Test
    void claimIsBroadcastAndEveryDenialReasonIsPrivateWithItsCode() {
        try (SynapseClient alice = agent("cv/alice"); SynapseClient bob = agent("cv/bob")) {
            alice.send(f("claim").add("task_id", "cv-1").add("paths", paths("src/parser")).add("ttl_seconds", 5));
            JsonObject granted = await(bob, "claim_granted", task("cv-1"));
            assertEquals("all", granted.getString("target"));
            assertEquals("cv/alice", granted.getString("owner"));
            assertEquals(30, granted.getJsonNumber("lease_expires_at").doubleValue()
                    - granted.getJsonNumber("timestamp").doubleValue(), 1.0, "ttl clamped to 30 s");
            await(alice, "claim_granted", task("cv-1"));

            bob.send(f("claim").add("task_id", "cv-1"));
            JsonObject live = await(bob, "claim_denied");
            assertEquals("LEASE_LIVE", live.getString("reason_code"));
            assertEquals("Task 'cv-1' is already claimed by cv/alice.", live.getString("payload"));
            assertEquals("cv/bob", live.getString("target"));

            bob.send(f("claim").add("task_id", "cv-2").add("paths", paths("src/parser/lexer.py")));
            JsonObject scope = await(bob, "claim_denied");
            assertEquals("SCOPE_CONFLICT", scope.getString("reason_code"));
            assertEquals("Task 'cv-2' file scope conflicts with 'cv-1' held by cv/alice.", scope.getString("payload"));

            bob.send(f("claim").add("task_id", "  "));
            JsonObject noId = await(bob, "claim_denied");
            assertEquals("TASK_ID_REQUIRED", noId.getString("reason_code"));
            assertEquals("Task ID is required.", noId.getString("payload"));

            bob.send(f("claim").add("task_id", "cv-3").add("path_identity", "not-an-object"));
            assertEquals("PATH_IDENTITY_INVALID", await(bob, "claim_denied").getString("reason_code"));

            alice.expectNone(x -> "claim_denied".equals(x.getString("type", "")), Duration.ofMillis(500));
            alice.send(f("release").add("task_id", "cv-1"));
            await(alice, "release_granted", task("cv-1"));
        }
    }

    /** Every socket of this test run shares the open-hub principal {@code open-host:127.0.0.1}. */
    @Test
    void quotaOfLiveClaimsPerPrincipalIsEnforced() {
        try (SynapseClient q = agent("cv/quota")) {
            int granted = 0;
            JsonObject denied = null;
            for (int i = 0; i <= 128 && denied == null; i++) {
                String id = "q-" + i;
                q.send(f("claim").add("task_id", id).add("paths", paths("quota/" + i)));
                JsonObject answer = q.expect(x -> ("claim_granted".equals(x.getString("type", "")) && id.equals(x.getString("task_id", "")))
                        || "claim_denied".equals(x.getString("type", "")), WAIT);
                if ("claim_denied".equals(answer.getString("type"))) {
                    denied = answer;
                } else {
                    granted++;
                }
            }
            assertTrue(denied != null && granted > 0, "granted " + granted + " then denied");
            assertEquals("QUOTA_EXCEEDED", denied.getString("reason_code"));
            assertEquals("Task '" + denied.getString("task_id") + "' denied: claim quota of 128 live claims reached.",
                    denied.getString("payload"));
            for (int i = 0; i < granted; i++) {
                q.send(f("release").add("task_id", "q-" + i));
            }
            for (int i = 0; i < granted; i++) {
                await(q, "release_granted", task("q-" + i));
            }
        }
    }

    @Test
    void releaseChecksOwnerAndEpochAndCarriesTheReceiptAndKeyedVerdict() {
        try (SynapseClient alice = agent("rl/alice"); SynapseClient bob = agent("rl/bob")) {
            alice.send(f("claim").add("task_id", "rl-1").add("paths", paths("rl/one")));
            long epoch = await(alice, "claim_granted", task("rl-1")).getJsonNumber("epoch").longValue();

            bob.send(f("release").add("task_id", "rl-1"));
            JsonObject notOwner = await(bob, "release_denied");
            assertEquals("Task 'rl-1' is owned by rl/alice, not rl/bob.", notOwner.getString("payload"));
            alice.send(f("release").add("task_id", "rl-1").add("epoch", epoch + 100));
            assertEquals("Task 'rl-1' epoch is stale (current " + epoch + ").",
                    await(alice, "release_denied").getString("payload"));
            alice.send(f("release").add("task_id", "rl-0"));
            assertEquals("Task 'rl-0' is not currently claimed.", await(alice, "release_denied").getString("payload"));

            alice.send(f("release").add("task_id", "rl-1").add("epoch", epoch).add("idem_key", "rel-1")
                    .add("evidence", paths("tests green")).add("freshness_seconds", 10));
            JsonObject released = await(bob, "release_granted", task("rl-1"));
            JsonObject receipt = released.getJsonObject("receipt");
            assertTrue(receipt.getBoolean("released"));
            assertEquals(paths("tests green"), receipt.getJsonArray("evidence"));
            assertEquals("rel-1", released.getString("release_operation_id"));
            String digest = released.getString("request_digest");
            assertEquals(64, digest.length());
            await(bob, "ledger_progress_posted");
            JsonObject mine = await(alice, "release_granted", task("rl-1"));

            // release confirmation: read-only state query, confirmed only with the right digest
            alice.send(f("state_request").add("release_confirmation", Json.createObjectBuilder()
                    .add("task_id", "rl-1").add("operation_id", "rel-1").add("request_digest", digest)));
            JsonObject confirmed = await(alice, "state_snapshot").getJsonObject("release_confirmation");
            assertEquals("confirmed", confirmed.getString("status"), confirmed.toString());
            alice.send(f("state_request").add("release_confirmation", Json.createObjectBuilder()
                    .add("task_id", "rl-1").add("operation_id", "rel-1").add("request_digest", "0".repeat(64))));
            assertEquals("unknown", await(alice, "state_snapshot").getJsonObject("release_confirmation").getString("status"));
            bob.send(f("state_request").add("release_confirmation", Json.createObjectBuilder()
                    .add("task_id", "rl-1").add("operation_id", "rel-1").add("request_digest", digest)));
            assertEquals("unknown", await(bob, "state_snapshot").getJsonObject("release_confirmation").getString("status"),
                    "another sender's namespace never confirms");

            // a retry of the keyed release replays the stored frame privately and verbatim
            alice.send(f("release").add("task_id", "rl-1").add("epoch", epoch).add("idem_key", "rel-1")
                    .add("evidence", paths("tests green")).add("freshness_seconds", 10));
            JsonObject replay = await(alice, "release_granted", task("rl-1"));
            assertEquals(mine, replay);
            bob.expectNone(x -> "release_granted".equals(x.getString("type", "")), Duration.ofMillis(700));
        }
    }

    @Test
    void idempotentClaimReplaysAfterReconnectAndConflictsOnChangedContent() {
        JsonObject first;
        try (SynapseClient a = agent("id/alice")) {
            a.send(f("claim").add("task_id", "id-1").add("idem_key", "k1").add("paths", paths("id/a")));
            first = await(a, "claim_granted", task("id-1"));
        }
        try (SynapseClient a = agent("id/alice"); SynapseClient watcher = agent("id/watch")) {
            a.send(f("claim").add("task_id", "id-1").add("idem_key", "k1").add("paths", paths("id/a")));
            JsonObject again = await(a, "claim_granted", task("id-1"));
            assertEquals(first, again, "replayed verbatim, same timestamp and epoch");
            watcher.expectNone(x -> "claim_granted".equals(x.getString("type", "")), Duration.ofMillis(700));

            a.send(f("claim").add("task_id", "id-1").add("idem_key", "k1").add("paths", paths("id/b")));
            JsonObject conflict = await(a, "error", x -> "idempotency_conflict".equals(x.getString("error_code", "")));
            assertFalse(conflict.getString("payload").isEmpty());

            // timestamp and client_timestamp are outside the digest: a retry stamped later still replays
            a.send(f("claim").add("task_id", "id-1").add("idem_key", "k1").add("paths", paths("id/a"))
                    .add("timestamp", 1.0).add("client_timestamp", 2.0));
            assertEquals(first, await(a, "claim_granted", task("id-1")));
            a.send(f("release").add("task_id", "id-1"));
            await(a, "release_granted", task("id-1"));
        }
    }

    @Test
    void taskUpdateHandoffCheckpointAndWaitCycles() {
        try (SynapseClient a = agent("tu/alice"); SynapseClient b = agent("tu/bob")) {
            a.send(f("claim").add("task_id", "tu-1").add("paths", paths("tu/one")));
            await(a, "claim_granted", task("tu-1"));
            a.send(f("task_update").add("task_id", "tu-1").add("status", "working").add("data_ref", "r1"));
            JsonObject updated = await(b, "task_updated", task("tu-1"));
            assertEquals(1, updated.getInt("version"));
            assertEquals("working", updated.getString("status"));
            b.send(f("task_update").add("task_id", "tu-1").add("status", "done"));
            assertEquals("error", b.expect(x -> x.getString("type", "").equals("error"), WAIT).getString("type"));
            a.send(f("task_update").add("task_id", "tu-1").add("status", "bogus"));
            assertEquals("Unknown task status 'bogus'.", await(a, "error").getString("payload"));

            a.send(f("checkpoint").add("task_id", "tu-1").add("checkpoint", "step-3"));
            JsonObject saved = await(a, "checkpoint_saved");
            assertEquals("tu-1", saved.getString("task_id"));
            b.send(f("checkpoint").add("task_id", "tu-1").add("checkpoint", "x"));
            await(b, "checkpoint_denied");

            // wait edges: b waits for a's task; a waiting for b's task would close a cycle
            b.send(f("claim").add("task_id", "tu-2").add("paths", paths("tu/two")));
            await(b, "claim_granted", task("tu-2"));
            b.send(f("wait_request").add("task_id", "tu-1"));
            assertEquals("tu/alice", await(b, "wait_granted").getString("holder"));
            a.send(f("wait_request").add("task_id", "tu-2"));
            JsonObject cycle = await(a, "wait_denied");
            assertEquals("tu/bob", cycle.getString("holder"));

            b.send(f("handoff").add("task_id", "tu-1").add("to_agent", "tu/bob"));
            await(b, "handoff_denied");
            a.send(f("handoff").add("task_id", "tu-1").add("to_agent", "tu/nobody"));
            assertEquals("Handoff target 'tu/nobody' is not online.", await(a, "handoff_denied").getString("payload"));
            a.send(f("handoff").add("task_id", "tu-1").add("to_agent", "tu/bob"));
            JsonObject handed = await(b, "handoff_granted", task("tu-1"));
            assertEquals("tu/bob", handed.getString("owner"));
            a.send(f("state_request"));
            JsonArray claims = await(a, "state_snapshot").getJsonObject("snapshot").getJsonArray("active_claims");
            JsonObject tu1 = claims.stream().map(JsonValue::asJsonObject)
                    .filter(c -> "tu-1".equals(c.getString("task_id"))).findFirst().orElseThrow();
            assertEquals("tu/bob", tu1.getString("owner"));
            assertEquals("working", tu1.getString("status"), "status carried over");
            assertEquals("step-3", tu1.getString("checkpoint"), "checkpoint carried over");
            b.send(f("release").add("task_id", "tu-1"));
            b.send(f("release").add("task_id", "tu-2"));
            await(b, "release_granted", task("tu-2"));
        }
    }

    @Test
    void blackboardDeclareCasCausalParentProgressAndSnapshot() {
        try (SynapseClient a = agent("bb/alice"); SynapseClient b = agent("bb/bob")) {
            a.send(f("ledger_task").add("task_id", "T-1").add("title", "split parser").add("suggested_owner", "bb/bob"));
            JsonObject posted = await(b, "ledger_task_posted");
            assertEquals(1, posted.getJsonObject("task").getInt("version"));
            a.send(f("ledger_task").add("task_id", "T-2").add("title", "x").add("depends_on", paths("T-3")));
            await(a, "ledger_task_posted", x -> "T-2".equals(x.getJsonObject("task").getString("task_id")));
            a.send(f("ledger_task").add("task_id", "T-3").add("title", "y").add("depends_on", paths("T-2")));
            assertEquals("Task 'T-3' dependencies would form a cycle.", await(a, "error").getString("payload"));

            b.send(f("ledger_task_update").add("task_id", "T-1").add("status", "in_progress").add("expected_version", 1));
            assertEquals(2, await(a, "ledger_task_updated").getJsonObject("task").getInt("version"));
            b.send(f("ledger_task_update").add("task_id", "T-1").add("status", "done").add("expected_version", 1));
            assertEquals("Task 'T-1' version conflict: expected v1, board has v2.", await(b, "error").getString("payload"));
            b.send(f("ledger_task_update").add("task_id", "T-1").add("expected_version", "two"));
            assertEquals("Malformed frame: 'expected_version' must be an integer.", await(b, "error").getString("payload"));
            b.send(f("ledger_task_update").add("task_id", "T-1").add("causal_parent", "x"));
            assertEquals("Malformed frame: causal_parent must be an object", await(b, "error").getString("payload"));
            b.send(f("ledger_task_update").add("task_id", "T-9").add("status", "done"));
            assertEquals("Task 'T-9' is not on the board.", await(b, "error").getString("payload"));
            b.send(f("ledger_task_update").add("task_id", "T-1").add("status", "weird"));
            assertEquals("Unknown ledger status 'weird'.", await(b, "error").getString("payload"));

            b.send(f("ledger_progress").add("task_id", "T-1").add("text", "halfway").add("idem_key", "p1"));
            JsonObject note = await(a, "ledger_progress_posted");
            assertEquals("Progress from bb/bob", note.getString("payload"));
            b.send(f("ledger_progress").add("task_id", "T-1").add("text", "x").add("kind", "gossip"));
            assertEquals("Unknown progress kind 'gossip'.", await(b, "error").getString("payload"));

            a.send(f("board_request"));
            JsonObject board = await(a, "board_snapshot").getJsonObject("board");
            Set<String> ids = new HashSet<>();
            board.getJsonArray("tasks").forEach(t -> ids.add(t.asJsonObject().getString("task_id")));
            assertTrue(ids.containsAll(Set.of("T-1", "T-2")), board.toString());
            assertFalse(ids.contains("T-3"));
            assertTrue(board.getJsonArray("progress").stream()
                    .anyMatch(n -> "halfway".equals(n.asJsonObject().getString("text", ""))), board.toString());
        }
    }

    @Test
    void capabilitiesAndResources() throws Exception {
        try (SynapseClient a = agent("cap/alice"); SynapseClient b = agent("cap/bob")) {
            a.send(f("advertise").add("skills", paths("python")).add("persist", true));
            JsonObject adv = await(b, "capability_advertised");
            assertEquals("cap/alice", adv.getString("agent"));
            assertTrue(adv.getJsonObject("card").getBoolean("persistent"));
            a.send(f("advertise").add("persist", "yes"));
            assertEquals("Malformed frame: 'persist' must be a boolean.", await(a, "error").getString("payload"));
            b.send(f("manifest_request"));
            JsonArray manifest = await(b, "manifest_snapshot").getJsonArray("manifest");
            assertTrue(manifest.stream().anyMatch(c -> "cap/alice".equals(c.asJsonObject().getString("agent"))));

            a.send(f("resource").add("kind", "compute").add("name", "h200-0"));
            JsonObject offered = await(b, "resource_offered");
            assertEquals("cap/alice:compute:h200-0", offered.getString("key"));
            a.send(f("resource_offer").add("resource_kind", "gpu").add("resource_name", "g1").add("capacity", 4));
            assertEquals("cap/alice:gpu:g1", await(b, "resource_offered", x -> x.getString("key").endsWith("g1")).getString("key"));
            a.send(f("offer_resource").add("kind", "disk").add("name", "d1"));
            await(b, "resource_offered", x -> x.getString("key").endsWith("d1"));
            a.send(f("resource").add("kind", "compute"));
            assertEquals("resource offer requires kind+name", await(a, "error").getString("payload"));

            b.send(f("state_request"));
            JsonObject snapshot = await(b, "state_snapshot").getJsonObject("snapshot");
            assertTrue(snapshot.getJsonArray("resources").stream().anyMatch(r ->
                    "g1".equals(r.asJsonObject().getString("name")) && r.asJsonObject().getInt("capacity") == 4), snapshot.toString());
            String metrics = CoordinationHub.get(hub, "/metrics").body();
            assertTrue(metrics.lines().anyMatch(l -> l.startsWith("synapse_resource_offers ") && !l.endsWith(" 0")), metrics);
        }
    }

    @Test
    void healthAndMetricsCountLiveClaims() throws Exception {
        try (SynapseClient a = agent("hm/alice")) {
            long before = CoordinationHub.health(hub).getJsonNumber("active_claims").longValue();
            a.send(f("claim").add("task_id", "hm-1").add("paths", paths("hm/one")));
            await(a, "claim_granted", task("hm-1"));
            assertEquals(before + 1, CoordinationHub.health(hub).getJsonNumber("active_claims").longValue());
            assertEquals(6, CoordinationHub.health(hub).getInt("protocol_version"));
            String metrics = CoordinationHub.get(hub, "/metrics").body();
            assertTrue(metrics.contains("synapse_active_claims " + (before + 1)), metrics);
            a.send(f("release").add("task_id", "hm-1"));
            await(a, "release_granted", task("hm-1"));
            assertNotEquals(before + 1, CoordinationHub.health(hub).getJsonNumber("active_claims").longValue());
        }
    }

    /** §14: an owner of live work without a live -rx waiter gets one broadcast alert per episode after the grace. */
    @Test
    void darkSeatIsAlertedOncePerEpisode() {
        try (SynapseClient a = agent("ds/alice"); SynapseClient watch = agent("ds/watch")) {
            a.send(f("claim").add("task_id", "ds-1").add("paths", paths("ds/one")));
            await(a, "claim_granted", task("ds-1"));
            JsonObject alert = watch.expect(x -> "dark_seat_alert".equals(x.getString("type", ""))
                    && "ds/alice".equals(x.getString("identity", "")), Duration.ofSeconds(60));
            assertEquals("all", alert.getString("target"));
            assertEquals(paths("ds-1"), alert.getJsonArray("claims"));
            assertTrue(alert.getJsonNumber("missing_for_seconds").doubleValue() >= DARK_SEAT_GRACE_SECONDS, alert.toString());
            assertEquals("Dark seat: ds/alice owns live work without a fresh -rx waiter.", alert.getString("payload"));
            watch.expectNone(x -> "dark_seat_alert".equals(x.getString("type", ""))
                    && "ds/alice".equals(x.getString("identity", "")), Duration.ofSeconds(11));
            a.send(f("release").add("task_id", "ds-1"));
            await(a, "release_granted", task("ds-1"));
        }
    }
}
