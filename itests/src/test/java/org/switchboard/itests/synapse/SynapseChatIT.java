package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.RawWebSocket;
import org.switchboard.itests.support.SynapseClient;

/**
 * Black-box SYNAPSE chat on one open hub with its journal: welcome, registration, presence,
 * broadcast and directed chat with receipts, malformed input (the socket stays usable), who,
 * history, /health and /metrics.
 */
class SynapseChatIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static HubServer hub;

    @BeforeAll
    static void start() {
        // the default hub shared with the other classes that only need a default hub (testing.md)
        hub = HubServer.shared();
    }

    private static URI ws() {
        return hub.webSocketUri();
    }

    @Test
    void welcomeAdvertisesTheWireVersionAndPresenceAnnouncesTheNewName() {
        try (SynapseClient raw = SynapseClient.connect(ws(), "welcome/probe")) {
            JsonObject welcome = raw.expectType("welcome");
            assertEquals("SynapseHub", welcome.getString("sender"));
            assertEquals("self", welcome.getString("target"));
            assertEquals("Welcome to Synapse", welcome.getString("payload"));
            assertEquals(6, welcome.getInt("protocol_version"));
            assertTrue(welcome.getString("hub_id").startsWith("syn-") || !welcome.getString("hub_id").isEmpty());
            assertTrue(welcome.getInt("connected_clients") >= 1);
            assertFalse(welcome.getJsonArray("online_agents").contains(Json.createValue("welcome/probe")));
            raw.send(SynapseClient.frame("heartbeat", "System", "online"));
            JsonObject presence = raw.expect(f -> "presence_update".equals(f.getString("type", "")), WAIT);
            assertEquals("joined", presence.getString("event"));
            assertEquals("welcome/probe", presence.getString("agent"));
            assertTrue(presence.getJsonArray("online_agents").contains(Json.createValue("welcome/probe")));
        }
    }

    @Test
    void directedChatIsRelayedWithHubStampsAndAPositiveReceipt() {
        try (SynapseClient alice = SynapseClient.register(ws(), "chat/alice");
             SynapseClient bob = SynapseClient.register(ws(), "chat/bob", Json.createObjectBuilder()
                     .add("wake_capability", "direct").build())) {
            alice.send(SynapseClient.frame("chat", "chat/bob", "review please")
                    .add("timestamp", 1767225900.0).add("receipt_requested", true).add("client_msg_id", "a-1")
                    .add("metadata", Json.createObjectBuilder().add("k", "v")));
            JsonObject relayed = bob.expect(f -> "chat".equals(f.getString("type", ""))
                    && "review please".equals(f.getString("payload", "")), WAIT);
            assertEquals("chat/alice", relayed.getString("sender"));
            assertEquals(1767225900.0, relayed.getJsonNumber("client_timestamp").doubleValue());
            assertNotEquals(1767225900.0, relayed.getJsonNumber("timestamp").doubleValue());
            assertTrue(relayed.getJsonNumber("msg_id").longValue() >= 1);
            assertTrue(relayed.getJsonNumber("seq").longValue() >= 1, "journal hubs stamp seq");
            assertEquals("v", relayed.getJsonObject("metadata").getString("k"), "unknown fields relayed verbatim");
            assertEquals("a-1", relayed.getString("client_msg_id"));
            JsonObject receipt = alice.expect(f -> "delivery_receipt".equals(f.getString("type", "")), WAIT);
            assertTrue(receipt.getBoolean("delivered"));
            assertFalse(receipt.getBoolean("deferred"));
            assertEquals("", receipt.getString("reason"));
            assertEquals(Json.createArrayBuilder().add("chat/bob").build(), receipt.getJsonArray("recipients"));
            assertEquals("delivered to chat/bob (direct agent)", receipt.getString("payload"));
            assertEquals(relayed.getJsonNumber("seq").longValue(), receipt.getJsonNumber("message_seq").longValue());
            assertEquals("delivery-receipt:" + relayed.getJsonNumber("seq").longValue() + ":immediate_delivered",
                    receipt.getString("receipt_notification_id"));

            // the same client_msg_id and content again: suppressed, answered with a system frame
            alice.send(SynapseClient.frame("chat", "chat/bob", "review please").add("client_msg_id", "a-1")
                    .add("metadata", Json.createObjectBuilder().add("k", "v")));
            JsonObject duplicate = alice.expect(f -> "system".equals(f.getString("type", "")), WAIT);
            assertTrue(duplicate.getBoolean("duplicate"));
            assertEquals(relayed.getJsonNumber("msg_id").longValue(), duplicate.getJsonNumber("msg_id").longValue());
            // different content under the same id: refused
            alice.send(SynapseClient.frame("chat", "chat/bob", "something else").add("client_msg_id", "a-1"));
            JsonObject conflict = alice.expect(f -> "error".equals(f.getString("type", "")), WAIT);
            assertEquals("client_msg_id_conflict", conflict.getString("error_code"));
        }
    }

    @Test
    void directedChatToNobodyGetsANegativeReceiptAndIsDeadLettered() {
        try (SynapseClient carol = SynapseClient.register(ws(), "dead/carol")) {
            carol.send(SynapseClient.frame("chat", "dead/nobody", "anyone?").add("receipt_requested", true));
            JsonObject receipt = carol.expect(f -> "delivery_receipt".equals(f.getString("type", "")), WAIT);
            assertFalse(receipt.getBoolean("delivered"));
            assertTrue(receipt.getBoolean("dead_lettered"));
            assertEquals("no_online_recipient", receipt.getString("reason"));
            assertEquals("delivery failed: no online recipient matched dead/nobody", receipt.getString("payload"));
            assertTrue(receipt.getString("receipt_notification_id").endsWith(":pending"));
            carol.send(SynapseClient.frame("state_request", "System", "state"));
            JsonObject state = carol.expectType("state_snapshot");
            assertTrue(state.getJsonObject("snapshot").getJsonArray("dead_letters").stream()
                    .map(JsonValue::asJsonObject)
                    .anyMatch(e -> "dead/nobody".equals(e.getString("target")) && e.getInt("count") >= 1));
            assertEquals(0, state.getJsonObject("snapshot").getJsonArray("active_claims").size());
        }
    }

    @Test
    void broadcastReachesEveryRegisteredSocketIncludingTheSender() {
        try (SynapseClient one = SynapseClient.register(ws(), "cast/one");
             SynapseClient two = SynapseClient.register(ws(), "cast/two");
             SynapseClient unregistered = SynapseClient.connect(ws(), "cast/lurker")) {
            unregistered.expectType("welcome");
            one.send(SynapseClient.frame("chat", "all", "hello everyone"));
            assertEquals("cast/one", two.expect(f -> "hello everyone".equals(f.getString("payload", "")), WAIT)
                    .getString("sender"));
            one.expect(f -> "hello everyone".equals(f.getString("payload", "")), WAIT);
            unregistered.expectNone(f -> "hello everyone".equals(f.getString("payload", "")), Duration.ofSeconds(1));
        }
    }

    @Test
    void malformedInputGetsTypedErrorsAndTheSocketStaysUsable() {
        try (SynapseClient dan = SynapseClient.register(ws(), "bad/dan")) {
            dan.sendRaw("{not json");
            assertError(dan, "Malformed JSON.", "all");
            dan.sendRaw("[1,2,3]");
            assertError(dan, "Malformed frame: expected a JSON object.", "all");
            dan.sendRaw("42");
            assertError(dan, "Malformed frame: expected a JSON object.", "all");
            dan.sendRaw("{\"type\":\"chat\",\"target\":7,\"sender\":\"bad/dan\"}");
            assertError(dan, "Malformed frame: 'target' must be a string.", "all");
            dan.sendRaw("{\"type\":[\"chat\"],\"sender\":\"bad/dan\"}");
            assertError(dan, "Malformed frame: 'type' must be a string.", "all");
            dan.sendRaw("{\"type\":\"chat\",\"channel\":{},\"sender\":\"bad/dan\"}");
            assertError(dan, "Malformed frame: 'channel' must be a string.", "all");
            dan.sendRaw("{\"type\":\"chat\",\"sender\":\"bad/dan\",\"x\":NaN}");
            assertError(dan, "Malformed JSON.", "all");
            dan.sendRaw("[".repeat(65) + "]".repeat(65));
            assertError(dan, "Malformed JSON.", "all");
            dan.sendRaw("{\"n\":" + "9".repeat(4301) + "}");
            assertError(dan, "Malformed JSON.", "all");
            dan.send(SynapseClient.frame("frobnicate", "System", "?"));
            assertError(dan, "Unknown message type 'frobnicate'.", "bad/dan");
            // still usable: a query is answered
            dan.send(SynapseClient.frame("who_request", "System", "who"));
            JsonObject who = dan.expectType("who_snapshot");
            assertTrue(who.getJsonArray("online_agents").contains(Json.createValue("bad/dan")));
            assertEquals(6, who.getInt("protocol_version"));
            assertTrue(who.containsKey("mailbox_pending"));
            // oversized frame: the WebSocket layer closes with 1009
            dan.sendRaw("{\"type\":\"chat\",\"payload\":\"" + "x".repeat(1024 * 1024 + 16) + "\"}");
            assertEquals(1009, dan.awaitClose(WAIT));
        }
    }

    @Test
    void historyHonoursLimitAndExactSelectors() {
        try (SynapseClient erin = SynapseClient.register(ws(), "hist/erin")) {
            erin.send(SynapseClient.frame("chat", "hist/x", "h1").add("client_msg_id", "h-1"));
            erin.send(SynapseClient.frame("chat", "hist/y", "h2").add("client_msg_id", "h-2"));
            erin.expect(f -> "h2".equals(f.getString("payload", "")), WAIT);
            erin.send(SynapseClient.frame("history_request", "System", "history").add("limit", 1));
            JsonObject limited = erin.expectType("history_snapshot");
            assertEquals(1, limited.getInt("requested_limit"));
            assertEquals(1, limited.getJsonArray("history").size());
            assertEquals("h2", limited.getJsonArray("history").getJsonObject(0).getString("payload"));
            erin.send(SynapseClient.frame("history_request", "System", "history").add("history_client_msg_id", "h-1"));
            JsonObject byId = erin.expectType("history_snapshot");
            assertEquals("all", byId.getString("requested_limit"));
            assertEquals(1, byId.getJsonArray("history").size());
            assertEquals("h1", byId.getJsonArray("history").getJsonObject(0).getString("payload"));
            erin.send(SynapseClient.frame("history_request", "System", "history").add("history_target", ""));
            assertEquals(0, erin.expectType("history_snapshot").getJsonArray("history").size());
            erin.send(SynapseClient.frame("history_request", "System", "history").add("history_target", "hist/x"));
            JsonObject byTarget = erin.expectType("history_snapshot");
            assertEquals(1, byTarget.getJsonArray("history").size());
            assertEquals("h1", byTarget.getJsonArray("history").getJsonObject(0).getString("payload"));
            assertTrue(byTarget.getJsonArray("history").getJsonObject(0).getJsonNumber("seq").longValue() > 0);
            erin.send(SynapseClient.frame("history_request", "System", "history").add("history_target", "hist/x")
                    .add("history_client_msg_id", "h-2"));
            assertEquals(0, erin.expectType("history_snapshot").getJsonArray("history").size(), "both selectors apply");
        }
    }

    @Test
    void aClientOnABareSocketRegistersAndChats() throws Exception {
        try (RawWebSocket bare = RawWebSocket.open(ws().getPort(), 0);
             SynapseClient gus = SynapseClient.register(ws(), "bare/gus")) {
            assertTrue(bare.upgraded(), bare.handshakeAnswer());
            assertEquals("welcome", Json.createReader(new java.io.StringReader(bare.readText())).readObject()
                    .getString("type"));
            bare.sendText("{\"type\":\"heartbeat\",\"sender\":\"bare/fay\",\"target\":\"System\",\"payload\":\"online\"}");
            gus.expect(f -> "presence_update".equals(f.getString("type", "")) && "bare/fay".equals(f.getString("agent", "")), WAIT);
            gus.send(SynapseClient.frame("chat", "bare/fay", "to a bare socket"));
            JsonObject received = null;
            for (int i = 0; i < 20 && received == null; i++) {
                JsonObject frame = Json.createReader(new java.io.StringReader(bare.readText())).readObject();
                if ("chat".equals(frame.getString("type", ""))) {
                    received = frame;
                }
            }
            assertEquals("to a bare socket", received == null ? null : received.getString("payload"));
            assertEquals("bare/gus", received.getString("sender"));
        }
    }

    @Test
    void healthAndMetricsAreServedOnTheSamePort() throws Exception {
        // one journalled chat first (its receipt follows its commit), so the commit figures have counted something
        try (SynapseClient erin = SynapseClient.register(hub.webSocketUri(), "metrics/erin")) {
            erin.send(SynapseClient.frame("chat", "metrics/away", "journalled").add("receipt_requested", true));
            erin.expect(f -> "delivery_receipt".equals(f.getString("type", "")), WAIT);
        }
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> health = http.send(HttpRequest.newBuilder(hub.http("/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, health.statusCode());
        JsonObject body = Json.createReader(new java.io.StringReader(health.body())).readObject();
        assertEquals("ok", body.getString("status"));
        assertEquals(6, body.getInt("protocol_version"));
        assertEquals(0, body.getInt("journal_corrupt_rows"));
        assertTrue(body.containsKey("uptime_seconds") && body.containsKey("online_agents")
                && body.containsKey("active_claims") && body.containsKey("operation_outbox_pending"));
        HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(hub.http("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode());
        String contentType = metrics.headers().firstValue("Content-Type").orElse("");
        assertTrue(contentType.startsWith("text/plain; version=0.0.4"), "Content-Type '" + contentType + "', body starts: "
                + metrics.body().substring(0, Math.min(300, metrics.body().length())));
        assertTrue(metrics.body().contains("# TYPE synapse_up gauge\nsynapse_up 1\n"));
        assertTrue(metrics.body().contains("synapse_chat_directed_total"));
        // the journal writer's timings: every commit carries at least one append, and each figure is a number
        double appends = HubServer.metricValue(metrics.body(), "synapse_journal_appends_total");
        assertTrue(appends >= HubServer.metricValue(metrics.body(), "synapse_journal_commits_total"), "appends at least commits");
        assertTrue(HubServer.metricValue(metrics.body(), "synapse_journal_commit_seconds_total") >= 0);
        assertTrue(HubServer.metricValue(metrics.body(), "synapse_journal_linger_seconds_total") >= 0);
        assertTrue(HubServer.metricValue(metrics.body(), "synapse_journal_append_wait_seconds_total") >= 0);
        // commits by duration, a Prometheus histogram: cumulative buckets ending with +Inf, which is the count
        String histogram = "synapse_journal_commit_duration_seconds";
        assertTrue(metrics.body().contains("# TYPE " + histogram + " histogram\n"));
        double counted = HubServer.metricValue(metrics.body(), histogram + "_count");
        assertTrue(counted > 0, "the journal's commits are counted by duration");
        assertEquals(counted, HubServer.metricValue(metrics.body(), histogram + "_bucket{le=\"+Inf\"}"));
        double withinOneMillisecond = HubServer.metricValue(metrics.body(), histogram + "_bucket{le=\"0.001\"}");
        double withinOneSecond = HubServer.metricValue(metrics.body(), histogram + "_bucket{le=\"1.0\"}");
        assertTrue(withinOneMillisecond <= withinOneSecond && withinOneSecond <= counted, "buckets are cumulative");
        assertTrue(HubServer.metricValue(metrics.body(), histogram + "_sum") >= 0);
        // the file compaction's CPU time is part of its wall time (both 0 until a run)
        double compactionCpu = HubServer.metricValue(metrics.body(), "synapse_journal_compaction_cpu_seconds_total");
        assertTrue(compactionCpu >= 0
                && compactionCpu <= HubServer.metricValue(metrics.body(), "synapse_journal_compaction_seconds_total"));
    }

    @Test
    void upgradeWithForeignOriginIsRefusedWith403() throws Exception {
        java.net.Socket socket = new java.net.Socket("127.0.0.1", hub.port());
        try (socket) {
            socket.getOutputStream().write(("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + hub.port()
                    + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\nOrigin: http://evil.example\r\n\r\n").getBytes());
            socket.setSoTimeout(5000);
            byte[] buffer = new byte[4096];
            int n = socket.getInputStream().read(buffer);
            String response = new String(buffer, 0, Math.max(n, 0));
            assertTrue(response.startsWith("HTTP/1.1 403"), response);
            assertTrue(response.endsWith("origin/host not allowed\n"), response);
        }
    }

    private static void assertError(SynapseClient client, String payload, String target) {
        JsonObject error = client.expect(f -> "error".equals(f.getString("type", "")), WAIT);
        assertEquals(payload, error.getString("payload"));
        assertEquals(target, error.getString("target"));
        assertEquals("SynapseHub", error.getString("sender"));
    }

    /** Outbound frames of every length form (7-bit, 16-bit, 64-bit) and non-ASCII text, sent back to back, arrive whole and in order. */
    @Test
    void largeMultiByteAndBackToBackChatsArriveWholeAndInOrder() {
        try (SynapseClient alice = SynapseClient.register(ws(), "sizes/alice");
             SynapseClient bob = SynapseClient.register(ws(), "sizes/bob")) {
            java.util.List<String> payloads = new java.util.ArrayList<>();
            payloads.add("caf\u00e9 \u2603 \ud83d\ude00 ".repeat(20_000)); // ~440 KB of UTF-8: 64-bit length
            for (int i = 0; i < 60; i++) {
                payloads.add("n" + i); // small frames queued behind the big one
            }
            payloads.add("\u20ac".repeat(30_000)); // 90 KB of UTF-8 from 30,000 chars
            payloads.add("x".repeat(200)); // 16-bit length
            for (String payload : payloads) {
                alice.send(SynapseClient.frame("chat", "sizes/bob", payload));
            }
            long lastMsgId = 0;
            for (String payload : payloads) {
                JsonObject relayed = bob.expect(f -> "chat".equals(f.getString("type", ""))
                        && "sizes/alice".equals(f.getString("sender", "")), WAIT);
                assertEquals(payload, relayed.getString("payload"), "payload intact and in send order");
                long msgId = relayed.getJsonNumber("msg_id").longValue();
                assertTrue(msgId > lastMsgId, "msg_id ascending");
                lastMsgId = msgId;
            }
        }
    }
}
