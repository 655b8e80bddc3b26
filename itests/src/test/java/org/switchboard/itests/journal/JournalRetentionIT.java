package org.switchboard.itests.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Journal retention (issue 20, journal.md "Retention") against the packaged hub: with a row limit of 40
 * events and a pass every second, old chat is deleted, but an unacked directed chat (and its pending
 * receipt), a live claim and the newest chat (the {@code msg_id} high-water) survive it and a restart
 * that replays the whole journal (snapshots off).
 */
class JournalRetentionIT {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static HubServer hub;

    @BeforeAll
    static void start() {
        hub = HubServer.start(Map.of("HUB_JOURNAL_RETENTION_MAX_ROWS", "40", "HUB_JOURNAL_RETENTION_INTERVAL_SECONDS", "1",
                "HUB_JOURNAL_SNAPSHOT_ENABLED", "false"));
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    private static JsonObject await(SynapseClient c, String type) {
        return c.expect(x -> type.equals(x.getString("type", "")), WAIT);
    }

    private static long deletedTotal() throws Exception {
        String text = HTTP.send(HttpRequest.newBuilder(hub.http("/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = Pattern.compile("(?m)^synapse_journal_retention_deleted_total (\\d+)").matcher(text);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    @Test
    void oldChatGoesWhatMailboxesReceiptsAndClaimsNeedStays() throws Exception {
        long kept;
        long newestMsgId = 0;
        try (SynapseClient carol = SynapseClient.register(hub.webSocketUri(), "rt/carol");
             SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "rt/alice");
             SynapseClient eve = SynapseClient.register(hub.webSocketUri(), "rt/eve")) {
            carol.send(SynapseClient.frame("claim", "System", "").add("task_id", "rt-kept")
                    .add("paths", Json.createArrayBuilder().add("src/kept")).add("ttl_seconds", 3600));
            await(carol, "claim_granted");
            // bob is away: a directed chat with a receipt, dead-lettered and owed to his mailbox
            alice.send(SynapseClient.frame("chat", "rt/bob", "owed to bob").add("receipt_requested", true));
            JsonObject receipt = alice.expect(f -> "delivery_receipt".equals(f.getString("type", "")), WAIT);
            assertTrue(receipt.getBoolean("dead_lettered"));
            kept = receipt.getJsonNumber("message_seq").longValue();
            for (int i = 0; i < 120; i++) {
                alice.send(SynapseClient.frame("chat", "all", "old news " + i));
            }
            for (int i = 0; i < 120; i++) {
                String payload = "old news " + i;
                JsonObject chat = eve.expect(f -> "chat".equals(f.getString("type", "")) && payload.equals(f.getString("payload", "")), WAIT);
                newestMsgId = Math.max(newestMsgId, chat.getJsonNumber("msg_id").longValue());
            }
            // 60 events after the newest chat: the row limit alone would cut past it
            for (int i = 0; i < 30; i++) {
                carol.send(SynapseClient.frame("claim", "System", "").add("task_id", "rt-churn-" + i));
                await(carol, "claim_granted");
                carol.send(SynapseClient.frame("release", "System", "").add("task_id", "rt-churn-" + i));
                await(carol, "release_granted");
            }
        }
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (deletedTotal() < 119 && System.nanoTime() < deadline) {
            Thread.sleep(250);
        }
        Thread.sleep(1500); // one more pass: nothing else may go
        assertEquals(119, deletedTotal(), "119 of the 120 broadcasts go; the newest chat and the chat owed to bob stay");

        hub.restart(); // snapshots off: the start replays what retention left

        try (SynapseClient bob = SynapseClient.register(hub.webSocketUri(), "rt/bob",
                Json.createObjectBuilder().add("mailbox", true).add("since_seq", 0).build())) {
            JsonObject replayed = bob.expect(f -> "chat".equals(f.getString("type", "")) && f.getBoolean("replayed", false), WAIT);
            assertEquals("owed to bob", replayed.getString("payload"));
            assertEquals(kept, replayed.getJsonNumber("seq").longValue());
            bob.send(SynapseClient.frame("claim", "System", "").add("task_id", "rt-kept")
                    .add("paths", Json.createArrayBuilder().add("src/kept")));
            JsonObject denied = await(bob, "claim_denied");
            assertTrue(denied.toString().contains("rt/carol"), "the live claim survived: " + denied);
        }
        try (SynapseClient eve = SynapseClient.register(hub.webSocketUri(), "rt/eve");
             SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "rt/alice")) {
            alice.send(SynapseClient.frame("chat", "all", "after the restart"));
            JsonObject chat = eve.expect(f -> "after the restart".equals(f.getString("payload", "")), WAIT);
            assertTrue(chat.getJsonNumber("msg_id").longValue() > newestMsgId,
                    "msg_id continues above " + newestMsgId + ": " + chat);
        }
    }
}
