package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.support.SecuredHub.ownerOnly;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SecuredHub;
import org.switchboard.itests.support.SynapseClient;

/**
 * The governed operator verbs (synapse-advanced §7.1, §7.2, §7.3, §7.5) against the packaged hub.
 * One token-secured hub with TOFU pins and an ACL policy (0600 files) serves pin reclaim, the
 * entitlement advert and guard evidence; enrolment needs an operator trust bundle with required
 * binding, so its test starts a second hub with the bundle, role grants, the enrolment overlay and
 * the namespace allow-list.
 * Every connection of the first hub shares one connect token, hence one guard-evidence window: the
 * test that fills it runs last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GovernedVerbsIT {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final Duration QUIET = Duration.ofMillis(700);
    private static final String TOKEN = "gov-it-connect-token";
    private static final String POLICY = """
            {"rules":[
              {"permission":"identity-pin-reclaim","target_kind":"agent","target_pattern":"ACME/*","namespace":"OPS"},
              {"permission":"entitlement-advertise","target_kind":"pool-alias","target_pattern":"team-*","namespace":"OPS"},
              {"permission":"identity-enroll","target_kind":"agent","target_pattern":"ACME/*","namespace":"OPS"}
            ]}""";
    private static final IdentityBindingIT.Key ADMIN = new IdentityBindingIT.Key(11);
    private static final IdentityBindingIT.Key EVE = new IdentityBindingIT.Key(41);
    private static final IdentityBindingIT.Key WORKER = new IdentityBindingIT.Key(71);
    private static final IdentityBindingIT.Key REPLACEMENT = new IdentityBindingIT.Key(101);
    private static final IdentityBindingIT.Key BOB = new IdentityBindingIT.Key(131);
    private static final String HEX = "5e".repeat(32);

    private static Path dir;
    private static HubServer hub;

    @BeforeAll
    static void start() throws IOException {
        dir = SecuredHub.directory("governed-verbs-it");
        hub = HubServer.start(HubServer.env("HUB_TOKEN", TOKEN, "HUB_METRICS_TOKEN", "gov-m-token",
                "HUB_ACL_POLICY", ownerOnly(dir.resolve("policy.json"), POLICY).toAbsolutePath().toString()));
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    private static Predicate<JsonObject> type(String type) {
        return f -> type.equals(f.getString("type", ""));
    }

    private static Predicate<JsonObject> joined(String name) {
        return f -> "presence_update".equals(f.getString("type", "")) && name.equals(f.getString("agent", ""));
    }

    /** A signed registration on {@code server} (token included when given); waits for the name to join. */
    private static SynapseClient signed(HubServer server, String name, IdentityBindingIT.Key key, String keyId, String token) {
        SynapseClient client = SynapseClient.connect(server.webSocketUri(), name);
        client.sendRaw(key.registration(name, keyId, token));
        client.expect(joined(name), WAIT);
        return client;
    }

    /** An unsigned registration with the connect token (the secured hub welcomes only after it). */
    private static SynapseClient unsigned(String name) {
        SynapseClient client = SynapseClient.connect(hub.webSocketUri(), name);
        client.send(SynapseClient.frame("heartbeat", "System", "online").add("token", TOKEN));
        client.expect(joined(name), WAIT);
        return client;
    }

    private static JsonObjectBuilder reclaim(String pin, String key, boolean breakGlass) {
        JsonObjectBuilder f = SynapseClient.frame("identity_pin_reclaim", "System", "").add("pin_name", pin)
                .add("expected_key_id", key).add("reason", "laptop stolen");
        return breakGlass ? f.add("break_glass", true) : f;
    }

    private static JsonObjectBuilder guard(String idem) {
        JsonObjectBuilder f = SynapseClient.frame("guard_denial", "System", "").add("provider", "shell")
                .add("reason_code", "GUARD_NOT_EDITABLE").add("path_count", 1).add("actor_sha256", HEX)
                .add("call_sha256", HEX).add("scope_sha256", HEX);
        return idem == null ? f : f.add("idem_key", idem);
    }

    private static long seq(JsonObject frame) {
        return frame.getJsonNumber("audit_seq").longValue();
    }

    @Test
    @Order(1)
    void pinReclaimIsRefusedWithoutAuditForTheUnauthorisedAndAppliedWithBreakGlassClosing4017() throws Exception {
        try (SynapseClient admin = signed(hub, "OPS/admin", ADMIN, "admin-1", TOKEN);
             SynapseClient eve = signed(hub, "EVIL/eve", EVE, "eve-1", TOKEN);
             SynapseClient worker = signed(hub, "ACME/worker", WORKER, "worker-1", TOKEN);
             SynapseClient hook = unsigned("claim-hook/probe-1")) {
            // a guard-evidence row marks the journal's current end: later audit seqs are counted from it
            hook.send(guard(null));
            long before = seq(hook.expect(type("guard_denial_recorded"), WAIT));

            eve.send(reclaim("ACME/worker", "worker-1", true));
            JsonObject refused = eve.expect(type("identity_pin_reclaim_result"), WAIT);
            assertFalse(refused.getBoolean("applied"));
            assertEquals(JsonValue.NULL, refused.get("audit_seq"));
            assertTrue(refused.getString("payload").contains("not authorised"), refused.toString());

            admin.send(reclaim("ACME/worker", "worker-1", false));
            JsonObject online = admin.expect(type("identity_pin_reclaim_result"), WAIT);
            assertFalse(online.getBoolean("applied"));
            assertTrue(online.getString("payload").contains("break_glass"), online.toString());

            admin.send(reclaim("ACME/worker", "worker-1", true));
            // §7.1: the body-free notice is broadcast, then the requester gets its result
            JsonObject notice = admin.expect(f -> "system".equals(f.getString("type", ""))
                    && "identity_pin_reclaim".equals(f.getString("event_kind", "")), WAIT);
            JsonObject applied = admin.expect(type("identity_pin_reclaim_result"), WAIT);
            assertTrue(applied.getBoolean("applied"), applied.toString());
            assertTrue(applied.getBoolean("break_glass"));
            // approved = before + 1, applied = before + 2: neither refusal wrote a row
            assertEquals(before + 2, seq(applied), "the refusals were journalled (or the audit rows are missing)");
            assertEquals(4017, worker.awaitClose(WAIT));
            assertEquals("identity pin reclaimed", worker.closeReason());
            assertEquals("", notice.getString("payload"));
            assertEquals(seq(applied), seq(notice));
            assertFalse(applied.toString().contains(WORKER.publicBase64()) || notice.toString().contains(WORKER.publicBase64()));
        }
        // the pin is gone: another key may pin the name now
        try (SynapseClient fresh = signed(hub, "ACME/worker", REPLACEMENT, "worker-2", TOKEN)) {
            assertFalse(fresh.isClosed());
        }
        HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(hub.http("/metrics"))
                .header("Authorization", "Bearer gov-m-token").build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(metrics.body().contains("synapse_governed_verbs_total{verb=\"identity_pin_reclaim\",result=\"applied\"} 1"),
                metrics.body().lines().filter(l -> l.contains("governed")).toList().toString());
    }

    @Test
    @Order(2)
    void anEntitlementAdvertWithAnExtraKeyIsRefusedAndAValidOneRecordedNotBroadcast() {
        JsonObject advert = Json.createObjectBuilder().add("schema", 1).add("pool_alias", "team-gpu")
                .add("unit", "gpu-hours").add("resource_kind", JsonValue.NULL)
                .add("capabilities", Json.createArrayBuilder().add("train")).add("data_classes", Json.createArrayBuilder())
                .add("eligible_projects", Json.createArrayBuilder().add("ACME")).add("account_usable", true)
                .add("as_of", "2026-12-02T01:00:00+00:00").add("windows", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("window_ref", "00112233aabbccdd").add("ends_at", "2026-12-02T06:00:00Z").add("current", true)
                        .add("remaining_bucket", ">50%").add("balance_evidence", "estimated")
                        .add("observation_age_seconds", 30).add("forecast_state", "quiet").add("confidence", "operator")))
                .build();
        try (SynapseClient admin = signed(hub, "OPS/advertiser", ADMIN, "adv-1", TOKEN);
             SynapseClient watcher = unsigned("ACME/watcher")) {
            admin.send(SynapseClient.frame("entitlement_advert", "System", "")
                    .add("advert", Json.createObjectBuilder(advert).add("owner_email", "x@example.com")));
            JsonObject refused = admin.expect(type("entitlement_advert_result"), WAIT);
            assertFalse(refused.getBoolean("applied"));
            assertEquals(JsonValue.NULL, refused.get("audit_seq"));
            assertTrue(refused.getString("payload").contains("unexpected key"), refused.toString());

            admin.send(SynapseClient.frame("entitlement_advert", "System", "").add("advert", advert));
            JsonObject recorded = admin.expect(type("entitlement_advert_result"), WAIT);
            assertTrue(recorded.getBoolean("applied"), recorded.toString());
            assertEquals("team-gpu", recorded.getString("pool_alias"));
            assertTrue(seq(recorded) > 0);
            watcher.expectNone(f -> f.toString().contains("team-gpu") || f.toString().contains("entitlement"), QUIET);
        }
    }

    @Test
    @Order(4)
    void guardDenialIsRecordedReplayedByIdemKeyWithoutASecondAppendAndRateLimitedPastTheWindow() {
        try (SynapseClient hook = unsigned("claim-hook/alice-1")) {
            hook.send(guard("retry-1"));
            JsonObject first = hook.expect(type("guard_denial_recorded"), WAIT);
            assertEquals(HEX, first.getString("call_sha256"));
            assertEquals("GUARD_NOT_EDITABLE", first.getString("reason_code"));
            hook.send(guard("retry-1"));
            JsonObject replay = hook.expect(type("guard_denial_recorded"), WAIT);
            assertEquals(first.toString(), replay.toString(), "the retry was not the first acknowledgement");
            // more fill the credential's window of 100 events per 60 s; each takes the next seq (no second append above).
            // The first test's probe used the same credential: if it is still inside the window it counts too.
            long last = seq(first);
            int recorded = 1;
            JsonObject limited = null;
            for (int i = 0; i < 100 && limited == null; i++) {
                hook.send(guard(null));
                JsonObject answer = hook.expect(f -> "guard_denial_recorded".equals(f.getString("type", ""))
                        || "error".equals(f.getString("type", "")), WAIT);
                if ("error".equals(answer.getString("type"))) {
                    limited = answer;
                } else {
                    long next = seq(answer);
                    assertTrue(next > last);
                    last = next;
                    recorded++;
                }
            }
            assertNotNull(limited, "101 guard events inside 60 s were all recorded");
            assertTrue(recorded == 100 || recorded == 99, "limited after " + recorded + " events of this credential");
            assertEquals("guard_evidence_rate_limited", limited.getString("error_code"), limited.toString());
            assertEquals("events", limited.getString("limit_reason"));
            hook.send(guard(null).add("provider", "notepad"));
            assertEquals("guard_evidence", hook.expect(type("error"), WAIT).getString("error_code"));
        }
    }

    @Test
    @Order(3)
    void anEnrolledKeyRegistersWithoutARestartAndItsRevocationEvicts4018() throws Exception {
        Path trust = ownerOnly(dir.resolve("trust.json"), "{\"keys\":[{\"key_id\":\"admin-1\",\"public_key\":\""
                + ADMIN.publicBase64() + "\",\"senders\":[\"OPS/admin\"]}]}");
        Path grants = ownerOnly(dir.resolve("grants.json"),
                "{\"grants\":[{\"role\":\"OPS/identity-enroller\",\"identities\":[\"OPS/admin\"]}]}");
        Path overlay = ownerOnly(dir.resolve("enrolments.json"), "{\"keys\":[]}");
        try (HubServer bound = HubServer.start(HubServer.env("HUB_IDENTITY_TRUST", trust.toAbsolutePath().toString(),
                "HUB_REQUIRE_IDENTITY_BINDING", "true",
                "HUB_ACL_POLICY", dir.resolve("policy.json").toAbsolutePath().toString(),
                "HUB_ROLE_GRANTS", grants.toAbsolutePath().toString(),
                "HUB_IDENTITY_ENROLLMENTS", overlay.toAbsolutePath().toString(),
                "HUB_IDENTITY_ENROLL_NAMESPACES", "ACME"))) {
            try (SynapseClient early = SynapseClient.connect(bound.webSocketUri(), "ACME/bob")) {
                early.sendRaw(BOB.registration("ACME/bob", "bob-1", null));
                assertEquals(4013, early.awaitClose(WAIT), "a key nobody enrolled registered");
            }
            try (SynapseClient admin = signed(bound, "OPS/admin", ADMIN, "admin-1", null)) {
                admin.send(SynapseClient.frame("identity_enroll", "System", "").add("name", "ACME/bob")
                        .add("key_id", "bob-1").add("public_key", BOB.publicBase64()).add("reason", "new laptop"));
                JsonObject enrolled = admin.expect(type("identity_enroll_result"), WAIT);
                assertTrue(enrolled.getBoolean("applied"), enrolled.toString());
                assertTrue(seq(enrolled) > 0);
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(overlay)));

                SynapseClient bob = signed(bound, "ACME/bob", BOB, "bob-1", null);
                admin.send(SynapseClient.frame("identity_revoke", "System", "").add("name", "ACME/bob")
                        .add("key_id", "bob-1").add("reason", "left the team"));
                JsonObject revoked = admin.expect(type("identity_revoke_result"), WAIT);
                assertTrue(revoked.getBoolean("applied"), revoked.toString());
                assertEquals(4018, bob.awaitClose(WAIT));
                assertEquals("identity key rotated or revoked", bob.closeReason());
                bob.close();
                assertTrue(Files.readString(overlay).contains("\"revoked\":true"));
            }
            try (SynapseClient again = SynapseClient.connect(bound.webSocketUri(), "ACME/bob")) {
                again.sendRaw(BOB.registration("ACME/bob", "bob-1", null));
                assertEquals(4013, again.awaitClose(WAIT), "a revoked key still registers");
            }
        }
    }
}
