package org.switchboard.synapse.governance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.journal.JournalEvent;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.acl.AclLayer;
import org.switchboard.synapse.acl.AclPolicy;
import org.switchboard.synapse.acl.RoleGrants;
import org.switchboard.synapse.identity.TestKeys;

/** The governed verbs through the hub's pipeline (§7.1, §7.2, §7.3, §7.5): journal rows, effects, evictions, notices. */
class GovernanceServiceTest {

    static final TestKeys ADMIN = new TestKeys(1);
    static final TestKeys EVE = new TestKeys(40);
    static final TestKeys WORKER = new TestKeys(80);
    static final TestKeys OTHER = new TestKeys(120);
    static final TestKeys BOB = new TestKeys(160);
    static final TestKeys BOB2 = new TestKeys(200);

    static JsonObject json(String text) {
        return Jsons.PROVIDER.createReader(new StringReader(text)).readObject();
    }

    static void policy(TestHub test, String rules, RoleGrants grants) {
        AclLayer.of(test.hub.context()).install(AclPolicy.parse(json("{\"rules\":[" + rules + "]}")), false, grants);
    }

    static TestHub.Client signed(TestHub test, String name, TestKeys key, String keyId, String token) {
        TestHub.Client client = test.connect(name);
        JsonObjectBuilder heartbeat = TestHub.frame("heartbeat", "System", "online").add("sender", name);
        if (token != null) {
            heartbeat.add("token", token);
        }
        client.sendRaw(key.sign(heartbeat.build(), keyId).toString());
        return client;
    }

    static List<JournalEvent> rows(TestHub test, String kind) {
        return test.journal.events().stream().filter(e -> kind.equals(e.kind())).toList();
    }

    static JsonObjectBuilder reclaim(String pin, String key, boolean breakGlass) {
        JsonObjectBuilder f = TestHub.frame("identity_pin_reclaim", "System", "").add("pin_name", pin)
                .add("expected_key_id", key).add("reason", "laptop lost");
        return breakGlass ? f.add("break_glass", true) : f;
    }

    static final String RECLAIM_RULE = "{\"permission\":\"identity-pin-reclaim\",\"target_kind\":\"agent\","
            + "\"target_pattern\":\"ACME/*\",\"namespace\":\"OPS\"}";

    @Test
    void pinReclaimRefusesTheUnauthorisedWithoutAuditThenBreakGlassAppliesEvicts4017AndNotifies() {
        TestHub test = new TestHub(SynapseSettings.builder().build(), new InMemoryJournal());
        policy(test, RECLAIM_RULE, null);
        TestHub.Client admin = signed(test, "OPS/admin", ADMIN, "admin-1", null);
        TestHub.Client eve = signed(test, "EVIL/eve", EVE, "eve-1", null);
        TestHub.Client worker = signed(test, "ACME/worker", WORKER, "worker-1", null);
        assertEquals(3, test.hub.context().counters().identityPinsCreated.sum());

        eve.send(reclaim("ACME/worker", "worker-1", true));
        JsonObject refused = eve.peer().lastOfType("identity_pin_reclaim_result");
        assertFalse(refused.getBoolean("applied"));
        assertEquals(JsonValue.NULL, refused.get("audit_seq"));
        assertTrue(refused.getString("payload").contains("not authorised"), refused.toString());
        assertTrue(rows(test, "identity_pin_reclaim").isEmpty(), "an unauthorised refusal was journalled");

        admin.send(reclaim("ACME/worker", "worker-1", false));
        assertTrue(admin.peer().lastOfType("identity_pin_reclaim_result").getString("payload").contains("connected"));
        admin.send(reclaim("ACME/worker", "worker-9", true));
        assertTrue(admin.peer().lastOfType("identity_pin_reclaim_result").getString("payload").contains("expected_key_id"));
        assertEquals(0, worker.peer().closeCode());

        admin.send(reclaim("ACME/worker", "worker-1", true));
        JsonObject result = admin.peer().lastOfType("identity_pin_reclaim_result");
        assertTrue(result.getBoolean("applied"), result.toString());
        assertEquals(Set.of("sender", "target", "type", "payload", "timestamp", "hub_id", "applied", "pin_name",
                "expected_key_id", "break_glass", "audit_seq"), result.keySet());
        assertEquals(4017, worker.peer().closeCode());
        assertEquals("identity pin reclaimed", worker.peer().closeReason());
        List<JournalEvent> audit = rows(test, "identity_pin_reclaim");
        assertEquals(List.of("approved", "applied"), audit.stream().map(e -> e.payload().getString("status")).toList());
        assertEquals(audit.get(0).seq(), audit.get(1).payload().getJsonNumber("approved_seq").longValue());
        assertTrue(audit.get(1).payload().getBoolean("evicted_live_socket"));
        assertEquals(audit.get(1).seq(), result.getJsonNumber("audit_seq").longValue());
        assertEquals(WORKER.sign(json("{}"), "x").getString("identity_public_key").length() > 0, true);
        assertFalse(audit.toString().contains(WORKER.publicBase64()), "key material reached the audit row");
        JsonObject notice = admin.peer().lastOfType("system");
        assertEquals("identity_pin_reclaim", notice.getString("event_kind"));
        assertEquals("", notice.getString("payload"));
        assertEquals("worker-1", notice.getString("previous_key_id"));

        test.hub.closed(worker.connection());
        TestHub.Client fresh = signed(test, "ACME/worker", OTHER, "worker-2", null);
        assertEquals(0, fresh.peer().closeCode(), "the reclaimed name could not pin a new key");
        assertEquals(1L, test.hub.context().counters().governedVerbs.get("identity_pin_reclaim applied").sum());
    }

    @Test
    void aReclaimWhoseApprovalCannotBeJournalledChangesNothing() {
        TestHub test = new TestHub(SynapseSettings.builder().build(), new InMemoryJournal());
        policy(test, RECLAIM_RULE, null);
        TestHub.Client admin = signed(test, "OPS/admin", ADMIN, "admin-1", null);
        TestHub.Client worker = signed(test, "ACME/worker", WORKER, "worker-1", null);
        worker.disconnect();
        test.journal.failAppends(true);
        admin.send(reclaim("ACME/worker", "worker-1", false));
        JsonObject result = admin.peer().lastOfType("identity_pin_reclaim_result");
        assertFalse(result.getBoolean("applied"));
        test.journal.failAppends(false);
        TestHub.Client impostor = signed(test, "ACME/worker", OTHER, "worker-2", null);
        assertEquals(4013, impostor.peer().closeCode(), "the pin was removed although nothing was journalled");
        // offline owner, no lease: no break glass needed
        admin.send(reclaim("ACME/worker", "worker-1", false));
        assertTrue(admin.peer().lastOfType("identity_pin_reclaim_result").getBoolean("applied"));
        assertFalse(rows(test, "identity_pin_reclaim").get(1).payload().getBoolean("evicted_live_socket"));
    }

    static Path ownerOnly(Path file, String text) throws Exception {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    static final RoleGrants ENROLLER = new RoleGrants() {
        @Override
        public boolean configured() {
            return true;
        }

        @Override
        public boolean mayClaim(String identity, String role) {
            return "OPS/admin".equals(identity) && "OPS/identity-enroller".equals(role);
        }
    };

    static JsonObjectBuilder enrol(String name, String keyId, TestKeys key, String expected) {
        JsonObjectBuilder f = TestHub.frame("identity_enroll", "System", "").add("name", name).add("key_id", keyId)
                .add("public_key", key.publicBase64()).add("reason", "new laptop");
        return expected == null ? f : f.add("expected_key_id", expected);
    }

    static JsonObjectBuilder revoke(String name, String keyId) {
        return TestHub.frame("identity_revoke", "System", "").add("name", name).add("key_id", keyId).add("reason", "left");
    }

    @Test
    void enrolmentAddsAKeyUsableWithoutRestartRevocationEvicts4018AndOnlyAuthorisedRefusalsAreJournalled(@TempDir Path dir)
            throws Exception {
        Path trust = ownerOnly(dir.resolve("trust.json"), "{\"keys\":[{\"key_id\":\"admin-1\",\"public_key\":\""
                + ADMIN.publicBase64() + "\",\"senders\":[\"OPS/admin\"]},{\"key_id\":\"clerk-1\",\"public_key\":\""
                + EVE.publicBase64() + "\",\"senders\":[\"OPS/clerk\"]}]}");
        Path overlay = ownerOnly(dir.resolve("enrolments.json"), "{\"keys\":[]}");
        SynapseSettings settings = SynapseSettings.builder().identityTrust(trust.toString()).requireIdentityBinding(true)
                .identityEnrollments(overlay.toString()).identityEnrollNamespaces(Set.of("ACME"))
                .identityEnrollRateLimit(2).build();
        InMemoryJournal journal = new InMemoryJournal();
        TestHub test = new TestHub(settings, journal);
        policy(test, "{\"permission\":\"identity-enroll\",\"target_kind\":\"agent\",\"target_pattern\":\"ACME/*\"}", ENROLLER);
        TestHub.Client admin = signed(test, "OPS/admin", ADMIN, "admin-1", null);
        TestHub.Client clerk = signed(test, "OPS/clerk", EVE, "clerk-1", null);
        TestHub.Client early = signed(test, "ACME/bob", BOB, "bob-1", null);
        assertEquals(4013, early.peer().closeCode(), "an unenrolled key registered");

        clerk.send(enrol("ACME/bob", "bob-1", BOB, null));
        JsonObject refused = clerk.peer().lastOfType("identity_enroll_result");
        assertTrue(refused.getString("payload").contains("identity-enroller"), refused.toString());
        assertTrue(rows(test, "identity_enrollment").isEmpty(), "an unauthorised refusal was journalled");

        admin.send(enrol("ACME/bob", "bob-1", BOB, null));
        JsonObject applied = admin.peer().lastOfType("identity_enroll_result");
        assertTrue(applied.getBoolean("applied"), applied.toString());
        assertEquals(Set.of("sender", "target", "type", "payload", "timestamp", "hub_id", "name", "key_id", "applied",
                "audit_seq"), applied.keySet());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(overlay)));
        assertTrue(Files.readString(overlay).contains("bob-1"));
        List<JournalEvent> audit = rows(test, "identity_enrollment");
        assertEquals(List.of("approved", "applied"), audit.stream().map(e -> e.payload().getString("status")).toList());
        assertEquals(GovernanceService.sha256(BOB.publicKey), audit.get(0).payload().getString("public_key_sha256"));
        assertFalse(journal.events().toString().contains(BOB.publicBase64()), "a public key reached the journal");
        assertEquals("enroll", admin.peer().lastOfType("system").getString("action"));

        TestHub.Client bob = signed(test, "ACME/bob", BOB, "bob-1", null);
        assertEquals(0, bob.peer().closeCode(), "the enrolled key was not usable without a restart");

        admin.send(enrol("ACME/bob", "bob-2", BOB2, null));
        JsonObject denied = admin.peer().lastOfType("identity_enroll_result");
        assertFalse(denied.getBoolean("applied"));
        JournalEvent deniedRow = rows(test, "identity_enrollment").get(2);
        assertEquals("denied", deniedRow.payload().getString("status"));
        assertEquals(deniedRow.seq(), denied.getJsonNumber("audit_seq").longValue());

        admin.send(revoke("ACME/bob", "bob-1"));
        assertTrue(admin.peer().lastOfType("identity_revoke_result").getBoolean("applied"));
        assertEquals(4018, bob.peer().closeCode());
        assertEquals("identity key rotated or revoked", bob.peer().closeReason());
        test.hub.closed(bob.connection());
        TestHub.Client again = signed(test, "ACME/bob", BOB, "bob-1", null);
        assertEquals(4013, again.peer().closeCode(), "a revoked key still registers");

        admin.send(enrol("ACME/carol", "carol-1", BOB2, null));
        assertTrue(admin.peer().lastOfType("identity_enroll_result").getString("payload").contains("rate"),
                "the third change within the window was applied");

        // a restart reads the overlay: the revoked key stays refused, the file is authoritative
        TestHub restarted = new TestHub(settings, journal);
        TestHub.Client afterRestart = signed(restarted, "ACME/bob", BOB, "bob-1", null);
        assertEquals(4013, afterRestart.peer().closeCode());
    }

    static final String ADVERT = "{\"schema\":1,\"pool_alias\":\"team-gpu\",\"unit\":\"gpu-hours\",\"resource_kind\":null,"
            + "\"capabilities\":[\"train\"],\"data_classes\":[],\"eligible_projects\":[\"ACME\"],\"account_usable\":true,"
            + "\"as_of\":\"2026-12-02T01:00:00Z\",\"windows\":[]}";

    @Test
    void anEntitlementAdvertIsAnAuditRowNeverBroadcastAndAnExtraKeyIsRefused() {
        TestHub test = new TestHub(SynapseSettings.builder().build(), new InMemoryJournal());
        policy(test, "{\"permission\":\"entitlement-advertise\",\"target_kind\":\"pool-alias\",\"target_pattern\":\"team-*\"}", null);
        TestHub.Client admin = signed(test, "OPS/admin", ADMIN, "admin-1", null);
        TestHub.Client watcher = test.register("ACME/watcher");
        int seen = watcher.peer().frames().size();
        JsonObject advert = json(ADVERT);

        admin.send(TestHub.frame("entitlement_advert", "System", "").add("advert",
                Jsons.PROVIDER.createObjectBuilder(advert).add("note", "x")));
        JsonObject refused = admin.peer().lastOfType("entitlement_advert_result");
        assertFalse(refused.getBoolean("applied"));
        assertEquals(JsonValue.NULL, refused.get("audit_seq"));

        admin.send(TestHub.frame("entitlement_advert", "System", "").add("advert", advert));
        JsonObject result = admin.peer().lastOfType("entitlement_advert_result");
        assertTrue(result.getBoolean("applied"), result.toString());
        assertEquals("team-gpu", result.getString("pool_alias"));
        List<JournalEvent> audit = rows(test, "entitlement_advert");
        assertEquals(1, audit.size());
        assertEquals(audit.get(0).seq(), result.getJsonNumber("audit_seq").longValue());
        assertEquals(advert, audit.get(0).payload().getJsonObject("advert"));
        assertEquals("admin-1", audit.get(0).payload().getString("advertiser_key_id"));
        assertEquals(seen, watcher.peer().frames().size(), "the advert reached another socket");

        TestHub.Client unproven = test.register("OPS/unsigned");
        unproven.send(TestHub.frame("entitlement_advert", "System", "").add("advert", advert));
        assertTrue(unproven.peer().lastOfType("entitlement_advert_result").getString("payload").contains("not proven"));
    }

    static final String HEX = "ab".repeat(32);

    static JsonObjectBuilder guard(String idem) {
        JsonObjectBuilder f = TestHub.frame("guard_denial", "System", "").add("provider", "codex")
                .add("reason_code", "GUARD_NO_CLAIM").add("path_count", 2).add("actor_sha256", HEX)
                .add("call_sha256", HEX).add("scope_sha256", HEX);
        return idem == null ? f : f.add("idem_key", idem);
    }

    @Test
    void guardDenialIsRecordedDigestOnlyReplayedByIdemKeyAcrossARestartAndRateLimited() {
        SynapseSettings settings = SynapseSettings.builder().token("guard-t0ken").build();
        InMemoryJournal journal = new InMemoryJournal();
        TestHub test = new TestHub(settings, journal);
        TestHub.Client hook = test.register("claim-hook/alice-1", Jsons.PROVIDER.createObjectBuilder().add("token", "guard-t0ken"));

        hook.send(guard("k-1"));
        JsonObject ack = hook.peer().lastOfType("guard_denial_recorded");
        assertNotNull(ack, hook.peer().frames().toString());
        List<JournalEvent> audit = rows(test, "guard_denial");
        assertEquals(1, audit.size());
        assertEquals(audit.get(0).seq(), ack.getJsonNumber("audit_seq").longValue());
        assertEquals(Set.of("sender", "target", "type", "payload", "timestamp", "hub_id", "audit_seq", "call_sha256",
                "reason_code"), ack.keySet());
        JsonObject row = audit.get(0).payload();
        assertEquals("deny", row.getString("decision"));
        assertEquals(GovernanceService.sha256("claim-hook/alice-1".getBytes()), row.getString("recorder_sha256"));
        assertFalse(row.toString().contains("claim-hook/alice-1") || row.toString().contains("k-1")
                || row.toString().contains("auth-token:"), "a raw identifier reached the row: " + row);

        hook.send(guard("k-1"));
        assertEquals(ack.toString(), hook.peer().lastOfType("guard_denial_recorded").toString());
        assertEquals(1, rows(test, "guard_denial").size(), "a replay appended a second row");
        hook.send(guard("k-1").add("path_count", 3));
        assertEquals("idempotency_conflict", hook.peer().lastOfType("error").getString("error_code"));

        TestHub restarted = new TestHub(settings, journal);
        TestHub.Client again = restarted.register("claim-hook/alice-1", Jsons.PROVIDER.createObjectBuilder().add("token", "guard-t0ken"));
        again.send(guard("k-1"));
        assertEquals(ack.getJsonNumber("audit_seq"), again.peer().lastOfType("guard_denial_recorded").getJsonNumber("audit_seq"));
        assertEquals(1, rows(restarted, "guard_denial").size());

        // the window is per process (a restart empties it): 100 more fit, the 101st within 60 s does not
        for (int i = 0; i < 100; i++) {
            again.send(guard(null));
        }
        assertEquals(101, rows(restarted, "guard_denial").size());
        again.send(guard(null));
        JsonObject limited = again.peer().lastOfType("error");
        assertEquals("guard_evidence_rate_limited", limited.getString("error_code"));
        assertEquals("events", limited.getString("limit_reason"));
        assertEquals(101, rows(restarted, "guard_denial").size());
        restarted.advance(61);
        again.send(guard(null));
        assertEquals(102, rows(restarted, "guard_denial").size(), "the window did not slide");

        again.send(guard(null).add("provider", "vim"));
        assertEquals("guard_evidence", again.peer().lastOfType("error").getString("error_code"));
    }

    @Test
    void anOpenHubHasNoGuardEvidence() {
        TestHub test = new TestHub();
        TestHub.Client hook = test.register("claim-hook/a-1");
        hook.send(guard(null));
        assertEquals("guard_evidence_unavailable", hook.peer().lastOfType("error").getString("error_code"));
        assertTrue(rows(test, "guard_denial").isEmpty());
        assertTrue(hook.peer().ofType("guard_denial_recorded").isEmpty());
    }
}
