package org.switchboard.synapse.spend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.security.PolicyFileException;

/** {@code spend_request} (synapse-advanced §7.4) against an owner-only ledger file. */
class SpendServiceTest {

    static final String TOKEN = "spend-test-token-99";

    @TempDir
    Path dir;

    Path ledgerFile;
    TestHub hub;
    TestHub.Client a;

    static Path ownerOnly(Path p, String text) throws Exception {
        Files.writeString(p, text);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
        return p;
    }

    @BeforeEach
    void setUp() throws Exception {
        Path policy = ownerOnly(dir.resolve("multihub.json"), "{\"version\":1,\"grants\":["
                + "{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"message\",\"spend\"]},"
                + "{\"sender\":\"hub-m\",\"namespace\":\"ACME\",\"verbs\":[\"message\"]}]}");
        ledgerFile = ownerOnly(dir.resolve("spend.json"),
                "{\"version\":1,\"pools\":[{\"pool_id\":\"gpu\",\"window\":\"2026-12\",\"capacity\":\"10.05\"}]}");
        hub = new TestHub(SynapseSettings.builder().token(TOKEN).multihubPolicy(policy.toString())
                .spendLedger(ledgerFile.toString()).build(), new InMemoryJournal());
        a = peer("hub-a");
    }

    TestHub.Client peer(String id) {
        return hub.register(id, Json.createObjectBuilder().add("token", TOKEN).add("protocol_version", 5));
    }

    static JsonObjectBuilder reserve(String key, String amount) {
        return Json.createObjectBuilder().add("pool_id", "gpu").add("seat", "ACME/alice").add("task", "T-1")
                .add("operation", "train").add("key", key).add("amount", Json.createValue(new BigDecimal(amount)))
                .add("provenance", "ci:run/1");
    }

    static JsonObject spend(TestHub.Client c, String action, JsonObjectBuilder doc) {
        c.send(Json.createObjectBuilder().add("type", "spend_request").add("target", "System").add("spend_action", action)
                .add("spend", doc));
        JsonObject r = c.peer().lastOfType("spend_result");
        assertEquals(action, r.getString("spend_action"));
        return r.getJsonObject("spend_result");
    }

    @Test
    void reserveRetryConflictQueryAndSettle() throws Exception {
        JsonObject first = spend(a, "reserve", reserve("k1", "10.00"));
        assertTrue(first.getBoolean("admitted"), first.toString());
        assertEquals(new BigDecimal("10.00"), first.getJsonNumber("amount").bigDecimalValue(), "exact, never rounded");
        assertEquals(first, spend(a, "reserve", reserve("k1", "10.00")), "an identical retry gets the stored answer");
        JsonObject conflict = spend(a, "reserve", reserve("k1", "3"));
        assertFalse(conflict.getBoolean("admitted"));
        assertEquals("idempotency_conflict", conflict.getString("reason"));
        // 10.00 + 0.06 exceeds 10.05 exactly; 0.05 fits exactly
        assertEquals("not-admitted", spend(a, "reserve", reserve("k2", "0.06")).getString("reason"));
        assertTrue(spend(a, "reserve", reserve("k3", "0.05")).getBoolean("admitted"));
        JsonObject found = spend(a, "query", Json.createObjectBuilder().add("pool_id", "gpu").add("seat", "ACME/alice")
                .add("task", "T-1").add("operation", "train").add("key", "k1"));
        assertTrue(found.getBoolean("found"));
        assertEquals(first.getString("reservation_id"), found.getString("reservation_id"));
        assertEquals(Json.createObjectBuilder().add("found", false).build(), spend(a, "query", Json.createObjectBuilder()
                .add("pool_id", "gpu").add("seat", "ACME/alice").add("task", "T-1").add("operation", "train").add("key", "k9")));
        JsonObjectBuilder settle = Json.createObjectBuilder().add("pool_id", "gpu").add("reservation_id", first.getString("reservation_id"))
                .add("usage_ref", "u-1").add("amount", Json.createValue(new BigDecimal("4.5"))).add("provenance", "meter").add("final", true);
        assertTrue(spend(a, "settle", settle).getBoolean("settled"));
        // the final settlement released 5.5 of the reservation: another 5.5 fits, 5.51 does not
        assertEquals("not-admitted", spend(a, "reserve", reserve("k4", "5.51")).getString("reason"));
        assertTrue(spend(a, "reserve", reserve("k5", "5.5")).getBoolean("admitted"));
        // the ledger survives a restart: the retry of k1 is still the stored answer
        SpendLedger reloaded = SpendLedger.load(ledgerFile);
        assertEquals(first, reloaded.reserve("hub-a", reserve("k1", "10.00").build(), 0).result());
        assertEquals("[OWNER_READ, OWNER_WRITE]", String.valueOf(new java.util.TreeSet<>(Files.getPosixFilePermissions(ledgerFile))));
    }

    @Test
    void everyRefusalIsTheUniformNotAdmittedShape() {
        TestHub.Client m = peer("hub-m"); // granted, but not for spend
        assertEquals(SpendService.notAdmitted("reserve"), spend(m, "reserve", reserve("k1", "1")));
        assertEquals(SpendService.notAdmitted("reserve"), spend(a, "reserve", reserve("k1", "1").add("pool_id", "nope")));
        assertEquals(SpendService.notAdmitted("reserve"), spend(a, "reserve", reserve("k1", "-1")));
        assertEquals(SpendService.notAdmitted("settle"), spend(a, "settle", Json.createObjectBuilder().add("pool_id", "gpu")));
        assertEquals(SpendService.notAdmitted("query"), spend(m, "query", Json.createObjectBuilder()));
        TestHub.Client agent = hub.register("ACME/x", Json.createObjectBuilder().add("token", TOKEN).add("protocol_version", 5));
        assertEquals(SpendService.notAdmitted("reserve"), spend(agent, "reserve", reserve("k1", "1")));
    }

    @Test
    void aMalformedRequestGetsThePlainError() {
        a.send(Json.createObjectBuilder().add("type", "spend_request").add("target", "System").add("spend_action", "steal")
                .add("spend", Json.createObjectBuilder()));
        a.send(Json.createObjectBuilder().add("type", "spend_request").add("target", "System").add("spend_action", "reserve")
                .add("spend", "x"));
        assertEquals(2, a.peer().ofType("error").stream()
                .filter(e -> SpendService.MALFORMED.equals(e.getString("payload", ""))).count());
        assertTrue(a.peer().ofType("spend_result").isEmpty());
    }

    @Test
    void aBadLedgerFileIsRefusedNamingTheKey() throws Exception {
        Path bad = ownerOnly(dir.resolve("bad.json"), "{\"version\":1,\"pools\":[{\"pool_id\":\"gpu\",\"window\":\"w\",\"capacity\":\"1e3\"}]}");
        PolicyFileException e = assertThrows(PolicyFileException.class, () -> SpendLedger.load(bad));
        assertEquals(SpendLedger.KEY, e.key());
    }

    // ---- bounds (issue 18) ----

    TestHub bounded(int maxLive, long retention) throws Exception {
        return new TestHub(SynapseSettings.builder().token(TOKEN).multihubPolicy(dir.resolve("multihub.json").toString())
                .spendLedger(ledgerFile.toString()).spendMaxLiveReservations(maxLive).spendRetentionSeconds(retention).build(),
                new InMemoryJournal());
    }

    static JsonObjectBuilder settleFinal(String reservationId, String amount) {
        return Json.createObjectBuilder().add("pool_id", "gpu").add("reservation_id", reservationId).add("usage_ref", "u-1")
                .add("amount", Json.createValue(new BigDecimal(amount))).add("provenance", "meter").add("final", true);
    }

    static JsonObjectBuilder query(String key) {
        return Json.createObjectBuilder().add("pool_id", "gpu").add("seat", "ACME/alice").add("task", "T-1")
                .add("operation", "train").add("key", key);
    }

    @Test
    void aPeerBeyondItsLiveReservationCapIsNotAdmittedAndClosedOnesAreBounded() throws Exception {
        hub = bounded(2, 86_400);
        a = peer("hub-a");
        JsonObject k1 = spend(a, "reserve", reserve("k1", "0.01"));
        assertTrue(k1.getBoolean("admitted"));
        assertTrue(spend(a, "reserve", reserve("k2", "0.01")).getBoolean("admitted"));
        assertEquals(SpendService.notAdmitted("reserve"), spend(a, "reserve", reserve("k3", "0.01")), "third live one");
        assertEquals(k1, spend(a, "reserve", reserve("k1", "0.01")), "a retry is not a new reservation");
        assertTrue(spend(a, "settle", settleFinal(k1.getString("reservation_id"), "0.01")).getBoolean("settled"));
        JsonObject k3 = spend(a, "reserve", reserve("k3", "0.01"));
        assertTrue(k3.getBoolean("admitted"), "the final settlement freed a slot");
        JsonObject k2 = spend(a, "query", query("k2"));
        spend(a, "settle", settleFinal(k2.getString("reservation_id"), "0.01"));
        spend(a, "settle", settleFinal(k3.getString("reservation_id"), "0.01"));
        hub.advance(1);
        // close many: at most 2 closed ones stay per (caller, pool), the oldest dropped first
        for (int i = 4; i < 10; i++) {
            JsonObject r = spend(a, "reserve", reserve("c" + i, "0.01"));
            assertTrue(r.getBoolean("admitted"), r.toString());
            spend(a, "settle", settleFinal(r.getString("reservation_id"), "0.01"));
            hub.advance(1);
        }
        SpendLedger file = SpendLedger.load(ledgerFile);
        // closed c8, c9, each with its settlement
        assertEquals(2 * 2, file.size(), Files.readString(ledgerFile));
        assertEquals(SpendService.notAdmitted("query"), spend(a, "query", query("c4")), "dropped");
        assertTrue(spend(a, "query", query("c9")).getBoolean("found"));
    }

    @Test
    void closedReservationsAreDroppedAfterTheRetentionWithoutGivingCapacityBack() throws Exception {
        hub = bounded(1024, 100);
        a = peer("hub-a");
        JsonObject k1 = spend(a, "reserve", reserve("k1", "10.00"));
        assertTrue(spend(a, "settle", settleFinal(k1.getString("reservation_id"), "4.5")).getBoolean("settled"));
        hub.advance(99);
        assertEquals(k1, spend(a, "reserve", reserve("k1", "10.00")), "within the retention a retry gets the stored answer");
        hub.advance(2);
        assertTrue(spend(a, "reserve", reserve("k2", "5.5")).getBoolean("admitted"), "the 4.5 settled stays used: 5.5 fits");
        assertEquals(SpendService.notAdmitted("query"), spend(a, "query", query("k1")), "k1 dropped after 100 s");
        assertEquals(SpendService.notAdmitted("reserve"), spend(a, "reserve", reserve("k3", "0.06")), "4.5 + 5.5 + 0.06 > 10.05");
        // the consumption survives a restart of the file
        SpendLedger reloaded = SpendLedger.load(ledgerFile);
        assertEquals(1, reloaded.size(), Files.readString(ledgerFile));
        assertTrue(reloaded.reserve("hub-a", reserve("k4", "0.05").build(), hub.hub.context().frames().now()).result()
                .getBoolean("admitted"));
        assertTrue(SpendLedger.load(ledgerFile).reserve("hub-a", reserve("k5", "0.01").build(),
                hub.hub.context().frames().now()).notAdmitted());
    }
}
