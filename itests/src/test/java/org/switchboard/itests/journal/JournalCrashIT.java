package org.switchboard.itests.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * The journal seen from outside: directed chats whose receipts came back (the hub's
 * acknowledgement, sent only after the journal commit) all survive {@code kill -9} and come back
 * through mailbox replay with the same seq and content; the hub id and the seq counter carry over;
 * a row damaged on disk is quarantined and turns the hub degraded (§16.5), and the old {@code (kind, seq)}
 * index is dropped at start-up; the H2 file is forced
 * to disk on schedule. One hub serves the ordered steps.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JournalCrashIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int CHATS = 400;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static HubServer hub;
    private static long damagedSeq;

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

    @Test
    @Order(1)
    void acknowledgedChatsSurviveKillNineAndReplayThroughTheMailbox() throws Exception {
        String hubIdBefore = welcomeHubId();
        assertTrue(hubIdBefore.matches("syn-[0-9a-f]{8}"), "generated hub id: " + hubIdBefore);
        assertEquals(hubIdBefore, health().getString("hub_id"));

        // seq -> payload of every chat whose receipt (the acknowledgement) reached the sender
        Map<Long, String> acknowledged = new TreeMap<>();
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "crash/alice")) {
            for (int i = 0; i < CHATS; i++) {
                alice.send(SynapseClient.frame("chat", "crash/bob", "crash-test #" + i)
                        .add("receipt_requested", true).add("client_msg_id", "crash-" + i));
            }
            Map<String, Long> seqByClientId = new HashMap<>();
            while (acknowledged.size() < CHATS / 2) {
                JsonObject frame = alice.next(WAIT);
                if ("delivery_receipt".equals(frame.getString("type", "")) && frame.containsKey("message_seq")) {
                    long seq = frame.getJsonNumber("message_seq").longValue();
                    String clientId = frame.getString("client_msg_id", null);
                    acknowledged.put(seq, clientId == null ? null : "crash-test #" + clientId.substring("crash-".length()));
                    if (clientId != null) {
                        seqByClientId.put(clientId, seq);
                    }
                }
            }
            // Crash while the rest of the chats are still being accepted and journalled.
            hub.kill9();
        }
        assertTrue(acknowledged.size() >= CHATS / 2);

        hub.restart();

        assertEquals(hubIdBefore, health().getString("hub_id"), "generated hub id is kept across restart");
        assertEquals(hubIdBefore, welcomeHubId());
        assertEquals("ok", health().getString("status"), "no corrupt rows after a crash");

        Map<Long, String> replayed = new TreeMap<>();
        try (SynapseClient bob = SynapseClient.connect(hub.webSocketUri(), "crash/bob")) {
            bob.expectType("welcome");
            bob.send(SynapseClient.frame("heartbeat", "System", "online").add("mailbox", true).add("since_seq", 0));
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!replayed.keySet().containsAll(acknowledged.keySet()) && System.nanoTime() < deadline) {
                JsonObject frame;
                try {
                    frame = bob.next(Duration.ofSeconds(5));
                } catch (AssertionError quiet) {
                    break;
                }
                if ("chat".equals(frame.getString("type", "")) && frame.getBoolean("replayed", false)) {
                    assertEquals("crash/alice", frame.getString("sender"));
                    replayed.put(frame.getJsonNumber("seq").longValue(), frame.getString("payload"));
                }
            }
        }
        for (Map.Entry<Long, String> ack : acknowledged.entrySet()) {
            assertTrue(replayed.containsKey(ack.getKey()), "acknowledged seq " + ack.getKey() + " lost in the crash");
            if (ack.getValue() != null) {
                assertEquals(ack.getValue(), replayed.get(ack.getKey()), "content of seq " + ack.getKey());
            }
        }
        long highestBefore = replayed.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
        System.out.printf("journal crash: %d of %d chats acknowledged before kill -9, %d replayed after restart%n",
                acknowledged.size(), CHATS, replayed.size());
        damagedSeq = acknowledged.keySet().iterator().next();

        // After restart the counter resumes above everything stored: seqs are never reused.
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "crash/alice")) {
            alice.send(SynapseClient.frame("chat", "crash/bob", "after the crash").add("receipt_requested", true));
            JsonObject receipt = alice.expect(f -> "delivery_receipt".equals(f.getString("type", "")), WAIT);
            long seqAfter = receipt.getJsonNumber("message_seq").longValue();
            assertTrue(seqAfter > highestBefore, seqAfter + " must exceed " + highestBefore);
        }
    }

    @Test
    @Order(2)
    void aRowDamagedOnDiskIsQuarantinedAndDegradesTheHub() throws Exception {
        assertTrue(damagedSeq > 0, "needs the chats of the crash step");
        hub.stop();
        try (Connection db = OfflineDatabase.open(hub.dataDir());
             PreparedStatement damage = db.prepareStatement("UPDATE journal_event SET payload = ? WHERE seq = ?")) {
            damage.setString(1, "{\"type\":\"chat\",\"payload\":\"torn wri");
            damage.setLong(2, damagedSeq);
            assertEquals(1, damage.executeUpdate());
            // the (kind, seq) index of databases made by earlier versions, which start-up drops
            try (Statement ddl = db.createStatement()) {
                ddl.execute("CREATE INDEX journal_event_kind ON journal_event(kind, seq)");
            }
            assertEquals(1, kindIndexes(db));
        }
        hub.restart();

        JsonObject health = health();
        assertEquals("degraded", health.getString("status"));
        assertEquals(1, health.getInt("journal_corrupt_rows"));
        try (SynapseClient bob = SynapseClient.connect(hub.webSocketUri(), "crash/bob")) {
            bob.expectType("welcome");
            bob.send(SynapseClient.frame("heartbeat", "System", "online").add("mailbox", true)
                    .add("since_seq", damagedSeq - 1));
            JsonObject first = bob.expect(f -> "chat".equals(f.getString("type", "")) && f.getBoolean("replayed", false), WAIT);
            assertTrue(first.getJsonNumber("seq").longValue() > damagedSeq, "the damaged row is skipped, the rest replays");
        }
        hub.stop();
        try (Connection db = OfflineDatabase.open(hub.dataDir());
             PreparedStatement markers = db.prepareStatement("SELECT seq, reason FROM journal_quarantine");
             ResultSet rows = markers.executeQuery()) {
            assertTrue(rows.next(), "a corrupt_event marker was recorded");
            assertEquals(damagedSeq, rows.getLong(1));
            assertTrue(rows.getString(2).contains("not valid JSON"), rows.getString(2));
            assertTrue(!rows.next(), "exactly one marker");
            assertEquals(0, kindIndexes(db), "start-up dropped the old (kind, seq) index");
        }
    }

    @Test
    @Order(3)
    void theH2FileWasForcedToDiskOnScheduleWithoutARefusal() throws Exception {
        // The steps above ran the hub for seconds at a time, so the one-second schedule has run.
        String log = Files.readString(hub.logFile());
        assertTrue(log.contains("journal: H2 file forced to disk every 1000 ms"), "the schedule was started");
        assertFalse(log.contains("H2 file sync refused"), "CHECKPOINT SYNC was accepted for the launcher's user");
    }

    private static int kindIndexes(Connection db) throws Exception {
        try (PreparedStatement query = db.prepareStatement(
                "SELECT COUNT(*) FROM INFORMATION_SCHEMA.INDEXES WHERE INDEX_NAME = 'JOURNAL_EVENT_KIND'");
             ResultSet count = query.executeQuery()) {
            count.next();
            return count.getInt(1);
        }
    }

    private static String welcomeHubId() {
        try (SynapseClient probe = SynapseClient.connect(hub.webSocketUri(), "crash/probe")) {
            return probe.expectType("welcome").getString("hub_id");
        }
    }

    /** SYNAPSE's /health, asked once: readiness already waited for the application to serve. */
    private static JsonObject health() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(hub.http("/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return Json.createReader(new StringReader(response.body())).readObject();
    }
}
