package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.support.SecuredHub.ownerOnly;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SecuredHub;
import org.switchboard.itests.support.SynapseClient;

/**
 * The ACL layer against the packaged hub (synapse-advanced §6.6, §6.7, §2.7): one token-secured hub
 * with {@code HUB_ACL_POLICY} (a 0600 file), {@code HUB_REQUIRE_ACL=true} and {@code HUB_ROLE_GRANTS}.
 * Allowed frames pass; denied chat, claim, release and history requests are refused with the
 * decision and change nothing; role claims not granted are dropped; an {@code interrupt} delivery
 * request is granted only to a sender holding {@code delivery-control} when the target owns the
 * live claim.
 */
class AclIT {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final Duration QUIET = Duration.ofMillis(700);
    private static final String TOKEN = "acl-it-connect-token";
    private static final String POLICY = """
            {"rules":[
              {"permission":"message","target_kind":"agent","target_pattern":"ACME/*","namespace":"ACME","reason":"team chat"},
              {"permission":"message","target_kind":"agent","target_pattern":"ACME/worker","namespace":"OPS"},
              {"permission":"claim","target_kind":"claim","target_pattern":"T-*","namespace":"ACME"},
              {"permission":"claim","target_kind":"path","target_pattern":"src/*","namespace":"ACME"},
              {"permission":"release","target_kind":"claim","target_pattern":"T-*","namespace":"ACME"},
              {"permission":"recall","target_kind":"history","target_pattern":"global","namespace":"ACME"},
              {"permission":"delivery-control","target_kind":"agent","target_pattern":"ACME/work[!x]r","namespace":"ACME"}
            ]}""";
    private static final String GRANTS = """
            {"grants":[{"role":"ACME/reviewer","identities":["ACME/alice-r"]}]}""";

    private static HubServer hub;

    @BeforeAll
    static void start() throws IOException {
        Path dir = SecuredHub.directory("acl-it");
        hub = HubServer.start(HubServer.env("HUB_TOKEN", TOKEN, "HUB_METRICS_TOKEN", "acl-m-token",
                "HUB_ACL_POLICY", ownerOnly(dir.resolve("policy.json"), POLICY).toAbsolutePath().toString(),
                "HUB_REQUIRE_ACL", "true",
                "HUB_ROLE_GRANTS", ownerOnly(dir.resolve("grants.json"), GRANTS).toAbsolutePath().toString()));
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    private static SynapseClient login(String name, JsonObjectBuilder extra) {
        SynapseClient client = SynapseClient.connect(hub.webSocketUri(), name);
        JsonObjectBuilder heartbeat = SynapseClient.frame("heartbeat", "System", "online").add("token", TOKEN);
        if (extra != null) {
            extra.build().forEach(heartbeat::add);
        }
        client.send(heartbeat);
        client.expect(f -> "presence_update".equals(f.getString("type", "")) && name.equals(f.getString("agent", "")), WAIT);
        return client;
    }

    private static SynapseClient login(String name) {
        return login(name, null);
    }

    private static Predicate<JsonObject> type(String type) {
        return f -> type.equals(f.getString("type", ""));
    }

    private static JsonObject aclRefusal(SynapseClient client) {
        return client.expect(f -> "error".equals(f.getString("type", "")) && f.containsKey("acl_decision"), WAIT);
    }

    private static JsonObjectBuilder f(String type) {
        return SynapseClient.frame(type, "System", "");
    }

    @Test
    void allowedChatPassesAndADeniedOneIsRefusedWithTheDecision() {
        try (SynapseClient alice = login("ACME/alice"); SynapseClient bob = login("ACME/bob");
             SynapseClient eve = login("EVIL/eve")) {
            alice.send(SynapseClient.frame("chat", "ACME/bob", "hello bob"));
            assertEquals("hello bob", bob.expect(type("chat"), WAIT).getString("payload"));

            eve.send(SynapseClient.frame("chat", "ACME/bob", "phish"));
            JsonObject refusal = aclRefusal(eve);
            JsonObject decision = refusal.getJsonObject("acl_decision");
            assertFalse(decision.getBoolean("allowed"));
            assertEquals("message", decision.getString("permission"));
            assertEquals("agent:ACME/bob", decision.getString("target"));
            assertEquals("no matching rule", decision.getString("reason"));
            assertEquals("EVIL/eve", refusal.getString("target"), "private to the sender");
            bob.expectNone(f -> "chat".equals(f.getString("type", "")) && "phish".equals(f.getString("payload", "")), QUIET);

            // the refusal changed nothing and the connection stays usable
            eve.send(f("who_request"));
            eve.expect(type("who_snapshot"), WAIT);
        }
    }

    @Test
    void claimAndReleaseNeedTheirPermissionsAndARefusalChangesNothing() {
        try (SynapseClient carol = login("ACME/carol"); SynapseClient eve = login("EVIL/eve2")) {
            carol.send(f("claim").add("task_id", "T-acl-1").add("paths", Json.createArrayBuilder().add("src/t-acl-1")));
            carol.expect(f -> "claim_granted".equals(f.getString("type", "")) && "T-acl-1".equals(f.getString("task_id", "")), WAIT);

            eve.send(f("claim").add("task_id", "T-acl-2").add("paths", Json.createArrayBuilder().add("src/t-acl-2")));
            JsonObject claimRefusal = aclRefusal(eve).getJsonObject("acl_decision");
            assertEquals("claim", claimRefusal.getString("permission"));
            assertEquals("claim:T-acl-2", claimRefusal.getString("target"));
            carol.send(f("claim").add("task_id", "X-acl-3").add("paths", Json.createArrayBuilder().add("src/x-acl-3")));
            assertEquals("claim:X-acl-3", aclRefusal(carol).getJsonObject("acl_decision").getString("target"));

            eve.send(f("release").add("task_id", "T-acl-1").add("idem_key", "rel-op-1"));
            JsonObject releaseRefusal = aclRefusal(eve);
            assertEquals("release", releaseRefusal.getJsonObject("acl_decision").getString("permission"));
            assertEquals("T-acl-1", releaseRefusal.getString("task_id"));
            assertEquals("rel-op-1", releaseRefusal.getString("release_operation_id"));

            // nothing changed: T-acl-2 is free for carol, T-acl-1 is still carol's
            carol.send(f("claim").add("task_id", "T-acl-2").add("paths", Json.createArrayBuilder().add("src/t-acl-2")));
            carol.expect(f -> "claim_granted".equals(f.getString("type", "")) && "T-acl-2".equals(f.getString("task_id", "")), WAIT);
            carol.send(f("claim").add("task_id", "T-acl-4").add("paths", Json.createArrayBuilder().add("src/ok").add("etc/passwd")));
            assertEquals("path:etc/passwd", aclRefusal(carol).getJsonObject("acl_decision").getString("target"),
                    "every normalised path needs its own grant");
            carol.send(f("release").add("task_id", "T-acl-2"));
            carol.expect(f -> "release_granted".equals(f.getString("type", "")) && "T-acl-2".equals(f.getString("task_id", "")), WAIT);
            carol.send(f("release").add("task_id", "T-acl-1"));
            carol.expect(f -> "release_granted".equals(f.getString("type", "")) && "T-acl-1".equals(f.getString("task_id", "")), WAIT);
        }
    }

    @Test
    void historyRequestNeedsRecall() {
        try (SynapseClient alice = login("ACME/historian"); SynapseClient ops = login("OPS/reader")) {
            alice.send(f("history_request"));
            alice.expect(type("history_snapshot"), WAIT);
            ops.send(f("history_request"));
            JsonObject decision = aclRefusal(ops).getJsonObject("acl_decision");
            assertEquals("recall", decision.getString("permission"));
            assertEquals("history:global", decision.getString("target"));
        }
    }

    @Test
    void rolesNotGrantedAreDroppedSilently() {
        JsonObjectBuilder roles = Json.createObjectBuilder().add("roles", Json.createArrayBuilder().add("ACME/reviewer").add("ACME/admin"));
        try (SynapseClient alice = login("ACME/alice-r", roles); SynapseClient dan = login("ACME/dan",
                Json.createObjectBuilder().add("roles", Json.createArrayBuilder().add("ACME/reviewer")))) {
            dan.send(f("who_request"));
            JsonObject agentRoles = dan.expect(type("who_snapshot"), WAIT).getJsonObject("agent_roles");
            assertFalse(agentRoles.containsKey("ACME/dan") && !agentRoles.getJsonArray("ACME/dan").isEmpty(), agentRoles.toString());
            assertEquals(List.of("ACME/reviewer"), agentRoles.getJsonArray("ACME/alice-r").getValuesAs(jakarta.json.JsonString.class)
                    .stream().map(jakarta.json.JsonString::getString).toList());
        }
    }

    @Test
    void interruptIsGrantedOnlyWithDeliveryControlAndALiveClaimOfTheTarget() throws Exception {
        String sessionToken = "ab".repeat(32);
        String incarnation = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(sessionToken.getBytes(StandardCharsets.US_ASCII)));
        JsonObjectBuilder registration = Json.createObjectBuilder().add("protocol_version", 3)
                .add("delivery_session_token", sessionToken)
                .add("delivery_capabilities", Json.createObjectBuilder().add("interrupt", "native").add("follow_up", "native"));
        JsonObjectBuilder v3 = Json.createObjectBuilder().add("protocol_version", 3);
        try (SynapseClient worker = login("ACME/worker", registration);
             SynapseClient planner = login("ACME/planner", v3);
             SynapseClient ops = login("OPS/bot", Json.createObjectBuilder().add("protocol_version", 3))) {
            worker.send(f("claim").add("task_id", "T-int-1").add("paths", Json.createArrayBuilder().add("src/t-int-1")));
            worker.expect(f -> "claim_granted".equals(f.getString("type", "")) && "T-int-1".equals(f.getString("task_id", "")), WAIT);
            double deadline = Math.floor(System.currentTimeMillis() / 1000.0) + 600.5;

            planner.send(interrupt("rq-int-ok", incarnation, "T-int-1", deadline));
            JsonObject status = planner.expect(f -> "delivery_status".equals(f.getString("type", "")) && !f.containsKey("audience"), WAIT);
            assertEquals("interrupt", status.getString("selected_mode"), status.toString());
            worker.expect(type("delivery_offer"), WAIT);

            planner.send(interrupt("rq-int-noclaim", incarnation, "T-int-none", deadline));
            assertEquals("unauthorised_requester", planner.expect(type("delivery_refused"), WAIT).getString("reason_code"));

            ops.send(interrupt("rq-int-ops", incarnation, "T-int-1", deadline));
            assertEquals("unauthorised_requester", ops.expect(type("delivery_refused"), WAIT).getString("reason_code"),
                    "OPS/bot may message the worker but has no delivery-control");
        }
    }

    private static JsonObjectBuilder interrupt(String id, String incarnation, String task, double deadline) {
        return SynapseClient.frame("delivery_request", "ACME/worker", "").add("protocol_version", 3).add("request_id", id)
                .add("idempotency_key", "ik-" + id).add("target_incarnation", incarnation).add("mode", "interrupt")
                .add("task_id", task).add("body", "Stop and rebase. " + id).add("deadline", deadline);
    }

    @Test
    void metricsCountDenialsByPermission() throws Exception {
        try (SynapseClient eve = login("EVIL/eve3")) {
            eve.send(f("history_request"));
            aclRefusal(eve);
        }
        HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(hub.http("/metrics"))
                .header("Authorization", "Bearer acl-m-token").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode(), metrics.body());
        String line = metrics.body().lines().filter(l -> l.startsWith("synapse_acl_denied_total{permission=\"recall\"}"))
                .findFirst().orElseThrow();
        assertTrue(Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)) >= 1, line);
        assertFalse(metrics.body().contains(TOKEN));
    }
}
