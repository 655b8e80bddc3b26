package org.switchboard.itests.synapse.coordination;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Black-box races and crash recovery: many WebSocket clients race for overlapping scopes (never two
 * holders at once) and compare-and-set one board task (exactly one winner per version); then the
 * hub is killed with SIGKILL and restarted, and claims with their lease deadlines, board versions,
 * persistent capability registrations, resource offers and idempotency results are as they were.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CoordinationDurabilityIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int RACERS = 10;
    private static HubServer hub;

    private static final String LABEL = "coord-durability";
    private static final int CAS_ROUNDS = 8;
    /** Grants the racers observed in the race (the journal must hold at least these claims). */
    private static final AtomicInteger RACE_GRANTS = new AtomicInteger();

    @BeforeAll
    static void start() {
        // offers live 300 s after their last refresh by default; on a loaded machine kill -9 plus a
        // restart has taken longer than that, and this class tests durability, not the offer TTL
        hub = CoordinationHub.start(LABEL, Map.of("HUB_RESOURCES_TTL_SECONDS", "3600"));
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    private static JsonObjectBuilder f(String type) {
        return SynapseClient.frame(type, "System", "");
    }

    /** A holding interval as the client saw it: from receiving the grant to sending the release. */
    private record Hold(String owner, String task, String path, long from, long to) {

        /** Whether the hub may never grant both at once (synapse-core §9.4: same task, or overlapping paths). */
        boolean conflictsWith(Hold other) {
            return task.equals(other.task) || path.equals(other.path)
                    || path.startsWith(other.path + "/") || other.path.startsWith(path + "/");
        }
    }

    /**
     * Every racer claims a task under the shared tree {@code race/}: the even ones the whole tree, the odd
     * ones a subtree of their own, three task ids among them. Two claims that share a task id or whose
     * paths overlap conflict (synapse-core §9.4); two odd racers on different task ids do not, and may
     * hold at once. The interval a client observes between receiving its grant and sending its release
     * lies inside the hub's holding interval, so two overlapping observed intervals of conflicting claims
     * prove two simultaneous holders.
     */
    @Test
    @Order(1)
    void overlappingClaimsNeverHaveTwoHolders() throws Exception {
        List<Hold> holds = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger denials = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(RACERS);
        CyclicBarrier go = new CyclicBarrier(RACERS);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < RACERS; i++) {
            int n = i;
            done.add(pool.submit(() -> {
                String me = "race/r" + n;
                String taskId = "race-" + (n % 3);
                String path = n % 2 == 0 ? "race" : "race/sub" + n;
                try (SynapseClient c = SynapseClient.register(hub.webSocketUri(), me)) {
                    go.await();
                    for (int round = 0; round < 25; round++) {
                        c.send(f("claim").add("task_id", taskId).add("paths", Json.createArrayBuilder().add(path)));
                        JsonObject answer = c.expect(x -> ("claim_granted".equals(x.getString("type", ""))
                                && me.equals(x.getString("owner", ""))) || "claim_denied".equals(x.getString("type", "")), WAIT);
                        if ("claim_denied".equals(answer.getString("type"))) {
                            String code = answer.getString("reason_code");
                            assertTrue(code.equals("LEASE_LIVE") || code.equals("SCOPE_CONFLICT"), answer.toString());
                            denials.incrementAndGet();
                            continue;
                        }
                        long from = System.nanoTime();
                        Thread.onSpinWait();
                        long to = System.nanoTime();
                        c.send(f("release").add("task_id", taskId));
                        holds.add(new Hold(me, taskId, path, from, to));
                        c.expect(x -> "release_granted".equals(x.getString("type", ""))
                                && me.equals(x.getString("owner", "")), WAIT);
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(5, TimeUnit.MINUTES);
        }
        pool.shutdown();
        List<Hold> sorted = new ArrayList<>(holds);
        sorted.sort((a, b) -> Long.compare(a.from(), b.from()));
        for (int i = 0; i < sorted.size(); i++) {
            Hold held = sorted.get(i);
            for (int j = i + 1; j < sorted.size() && sorted.get(j).from() <= held.to(); j++) {
                assertFalse(held.conflictsWith(sorted.get(j)), "two holders at once: " + held + " and " + sorted.get(j));
            }
        }
        assertTrue(sorted.size() >= 10, "the race produced grants: " + sorted.size());
        RACE_GRANTS.set(sorted.size());
        assertTrue(denials.get() > 0, "the race produced conflicts");
        try (SynapseClient probe = SynapseClient.register(hub.webSocketUri(), "race/probe")) {
            probe.send(f("state_request"));
            JsonObject snap = probe.expect(x -> "state_snapshot".equals(x.getString("type", "")), WAIT);
            assertTrue(snap.getJsonObject("snapshot").getJsonArray("active_claims").stream()
                    .noneMatch(c -> c.asJsonObject().getString("task_id").startsWith("race-")), snap.toString());
        }
    }

    /**
     * Rounds of compare-and-set on one task: every racer sends the same expected_version with itself
     * as {@code suggested_owner}; the round's broadcast names the one winner, everyone else is refused.
     */
    @Test
    @Order(2)
    void boardCompareAndSetHasOneWinnerPerVersion() throws Exception {
        try (SynapseClient owner = SynapseClient.register(hub.webSocketUri(), "cas/owner")) {
            owner.send(f("ledger_task").add("task_id", "CAS-1").add("title", "contended"));
            owner.expect(x -> "ledger_task_posted".equals(x.getString("type", "")), WAIT);
        }
        int rounds = CAS_ROUNDS;
        int[][] wins = new int[rounds][1];
        ExecutorService pool = Executors.newFixedThreadPool(RACERS);
        CyclicBarrier go = new CyclicBarrier(RACERS);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < RACERS; i++) {
            int n = i;
            done.add(pool.submit(() -> {
                String me = "cas/r" + n;
                try (SynapseClient c = SynapseClient.register(hub.webSocketUri(), me)) {
                    for (int round = 0; round < rounds; round++) {
                        long expected = round + 1;
                        go.await(1, TimeUnit.MINUTES);
                        c.send(f("ledger_task_update").add("task_id", "CAS-1").add("suggested_owner", me)
                                .add("expected_version", expected));
                        // read until this round's winning broadcast and, unless it is mine, my own refusal
                        JsonObject winner = null;
                        JsonObject refusal = null;
                        while (winner == null || (!me.equals(winner.getJsonObject("task").getString("suggested_owner"))
                                && refusal == null)) {
                            JsonObject x = c.expect(y -> ("ledger_task_updated".equals(y.getString("type", ""))
                                    && y.getJsonObject("task").getInt("version") == expected + 1)
                                    || "error".equals(y.getString("type", "")), WAIT);
                            if ("error".equals(x.getString("type"))) {
                                refusal = x;
                            } else {
                                winner = x;
                            }
                        }
                        if (me.equals(winner.getJsonObject("task").getString("suggested_owner"))) {
                            assertEquals(null, refusal, "a winner is never refused");
                            synchronized (wins) {
                                wins[round][0]++;
                            }
                        } else {
                            assertEquals("Task 'CAS-1' version conflict: expected v" + expected + ", board has v"
                                    + (expected + 1) + ".", refusal.getString("payload"));
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(5, TimeUnit.MINUTES);
        }
        pool.shutdown();
        for (int round = 0; round < rounds; round++) {
            assertEquals(1, wins[round][0], "winners of version " + (round + 2));
        }
    }

    @Test
    @Order(3)
    void stateSurvivesKill9() throws Exception {
        JsonObject lease;
        JsonObject keyedGrant;
        try (SynapseClient a = SynapseClient.register(hub.webSocketUri(), "dur/alice")) {
            a.send(f("claim").add("task_id", "dur-1").add("paths", Json.createArrayBuilder().add("dur/one"))
                    .add("ttl_seconds", 900));
            lease = a.expect(x -> "claim_granted".equals(x.getString("type", "")), WAIT);
            a.send(f("claim").add("task_id", "dur-2").add("idem_key", "dur-k").add("paths", Json.createArrayBuilder().add("dur/two")).add("ttl_seconds", 900));
            keyedGrant = a.expect(x -> "claim_granted".equals(x.getString("type", "")) && "dur-2".equals(x.getString("task_id")), WAIT);
            a.send(f("ledger_task").add("task_id", "DUR-T").add("title", "survive"));
            a.expect(x -> "ledger_task_posted".equals(x.getString("type", "")), WAIT);
            a.send(f("ledger_task_update").add("task_id", "DUR-T").add("status", "in_progress").add("expected_version", 1));
            a.expect(x -> "ledger_task_updated".equals(x.getString("type", "")), WAIT);
            a.send(f("advertise").add("skills", Json.createArrayBuilder().add("go")).add("persist", true));
            a.expect(x -> "capability_advertised".equals(x.getString("type", "")), WAIT);
            a.send(f("resource").add("kind", "compute").add("name", "dur-gpu"));
            a.expect(x -> "resource_offered".equals(x.getString("type", "")), WAIT);
        }
        hub.kill9();
        hub.restart();
        CoordinationHub.awaitReady(hub);
        try (SynapseClient a = SynapseClient.register(hub.webSocketUri(), "dur/alice");
             SynapseClient b = SynapseClient.register(hub.webSocketUri(), "dur/bob")) {
            b.send(f("state_request"));
            JsonObject snapshot = b.expect(x -> "state_snapshot".equals(x.getString("type", "")), WAIT).getJsonObject("snapshot");
            JsonObject restored = snapshot.getJsonArray("active_claims").stream().map(JsonValue::asJsonObject)
                    .filter(c -> "dur-1".equals(c.getString("task_id"))).findFirst().orElseThrow(() -> new AssertionError(snapshot));
            assertEquals("dur/alice", restored.getString("owner"));
            assertEquals(lease.getJsonNumber("epoch").longValue(), restored.getJsonNumber("epoch").longValue());
            assertEquals(lease.getJsonNumber("lease_expires_at").doubleValue(),
                    restored.getJsonNumber("lease_expires_at").doubleValue(), 1e-6, "remaining lease time kept");
            assertTrue(snapshot.getJsonArray("resources").stream()
                    .anyMatch(r -> "dur-gpu".equals(r.asJsonObject().getString("name"))), snapshot.toString());

            b.send(f("claim").add("task_id", "dur-1"));
            JsonObject denied = b.expect(x -> "claim_denied".equals(x.getString("type", "")), WAIT);
            assertEquals("LEASE_LIVE", denied.getString("reason_code"));

            a.send(f("claim").add("task_id", "dur-2").add("idem_key", "dur-k").add("paths", Json.createArrayBuilder().add("dur/two")).add("ttl_seconds", 900));
            JsonObject replay = a.expect(x -> "claim_granted".equals(x.getString("type", "")), WAIT);
            assertEquals(keyedGrant, replay, "idempotency result survived the crash");

            b.send(f("board_request"));
            JsonObject board = b.expect(x -> "board_snapshot".equals(x.getString("type", "")), WAIT).getJsonObject("board");
            JsonObject task = board.getJsonArray("tasks").stream().map(JsonValue::asJsonObject)
                    .filter(t -> "DUR-T".equals(t.getString("task_id"))).findFirst().orElseThrow();
            assertEquals(2, task.getInt("version"));
            assertEquals("in_progress", task.getString("status"));
            b.send(f("manifest_request"));
            JsonObject card = b.expect(x -> "manifest_snapshot".equals(x.getString("type", "")), WAIT)
                    .getJsonArray("manifest").stream().map(JsonValue::asJsonObject)
                    .filter(c -> "dur/alice".equals(c.getString("agent"))).findFirst().orElseThrow();
            assertTrue(card.getBoolean("persistent"));

            b.send(f("claim").add("task_id", "dur-3").add("paths", Json.createArrayBuilder().add("dur/three")));
            JsonObject fresh = b.expect(x -> "claim_granted".equals(x.getString("type", "")) && "dur-3".equals(x.getString("task_id")), WAIT);
            assertTrue(fresh.getJsonNumber("epoch").longValue() > keyedGrant.getJsonNumber("epoch").longValue(),
                    "epochs continue after the restart");
        }
    }

    /**
     * The hub's own record is the proof: after the races and the restart, the hub is stopped and
     * its journal read straight from the H2 file. Replaying every claim, handoff and release in seq
     * order must never show two live holders of one task or of overlapping scopes, and the board
     * task that was raced must have exactly one accepted write per version.
     */
    @Test
    @Order(4)
    void theJournalNeverShowsTwoHoldersOrTwoWritesOfOneVersion() throws Exception {
        hub.stop();
        List<JournalAudit.Event> events = JournalAudit.read(CoordinationHub.dbDir(LABEL),
                List.of("claim", "handoff", "release", "task_update", "checkpoint", "ledger_task"));
        long raceClaims = events.stream().filter(e -> "claim".equals(e.kind())
                && e.payload().getString("task_id").startsWith("race-")).count();
        assertTrue(raceClaims >= RACE_GRANTS.get() && raceClaims >= 10,
                "journal holds the race's grants: " + raceClaims + " of " + RACE_GRANTS.get());
        assertEquals(List.of(), JournalAudit.overlappingHolders(events));
        assertEquals(List.of(), JournalAudit.boardVersionViolations(events));
        assertEquals(1 + CAS_ROUNDS, JournalAudit.boardWrites(events, "CAS-1"),
                "one declaration plus exactly one accepted write per raced version");
    }

    /** The audit itself can fail: fabricated journals with a double holder or a repeated version are caught. */
    @Test
    @Order(5)
    void theJournalAuditDetectsViolations() {
        List<JournalAudit.Event> overlapping = List.of(
                claimEvent(1, "a", "alice", "src", 100, 200),
                claimEvent(2, "b", "bob", "src/x", 150, 250));
        assertEquals(1, JournalAudit.overlappingHolders(overlapping).size());
        List<JournalAudit.Event> sameTask = List.of(
                claimEvent(1, "a", "alice", "src", 100, 200),
                claimEvent(2, "a", "bob", "docs", 150, 250));
        assertEquals(1, JournalAudit.overlappingHolders(sameTask).size());
        List<JournalAudit.Event> sequential = List.of(
                claimEvent(1, "a", "alice", "src", 100, 200),
                new JournalAudit.Event(2, "release", Json.createObjectBuilder().add("task_id", "a").build()),
                claimEvent(3, "b", "bob", "src/x", 150, 250),
                claimEvent(4, "c", "carol", "src", 260, 300));
        assertEquals(List.of(), JournalAudit.overlappingHolders(sequential), "released and expired leases are gone");
        List<JournalAudit.Event> doubleWrite = List.of(boardEvent(1, 1), boardEvent(2, 2), boardEvent(3, 2));
        assertEquals(1, JournalAudit.boardVersionViolations(doubleWrite).size());
    }

    private static JournalAudit.Event claimEvent(long seq, String task, String owner, String path, double at, double until) {
        return new JournalAudit.Event(seq, "claim", Json.createObjectBuilder().add("task_id", task).add("owner", owner)
                .add("worktree", "").add("paths", Json.createArrayBuilder().add(path)).add("claimed_at", at)
                .add("lease_expires_at", until).build());
    }

    private static JournalAudit.Event boardEvent(long seq, long version) {
        return new JournalAudit.Event(seq, "ledger_task", Json.createObjectBuilder().add("task_id", "T")
                .add("version", version).build());
    }
}
