package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.RawWebSocket;
import org.switchboard.itests.support.SynapseClient;

/**
 * Outbound back-pressure (§6.4): a client that stops reading while the hub has tens of megabytes to
 * send it is closed with 1013 as soon as more than {@code hub.outbound-max-bytes} (16 MiB) piles up
 * for it — before the 5 s drain deadline, which used to be what closed it here (the deadline itself is
 * covered by WebSocketPeerBoundTest) — and nobody else is held up meanwhile. Run with Payara's raw coalesced frame
 * writes (the default) and with the standard send API they replace.
 */
class OutboundDrainIT {

    private static final Map<Boolean, HubServer> HUBS = new HashMap<>();

    @AfterAll
    static void stop() {
        HUBS.values().forEach(HubServer::stop);
    }

    private static HubServer hub(boolean rawFrameWrites) {
        return HUBS.computeIfAbsent(rawFrameWrites,
                raw -> HubServer.start(Map.of("HUB_RAW_FRAME_WRITES", Boolean.toString(raw))));
    }

    @ParameterizedTest(name = "raw frame writes: {0}")
    @ValueSource(booleans = {true, false})
    void aSocketThatStopsReadingIsClosedAndOthersKeepTheirService(boolean rawFrameWrites) throws Exception {
        // 30 answers of ~2 MB, never read: past the 16 MiB outbound bound after a few, so the socket is
        // closed (1013) at once, before the 5 s drain deadline would (and far before the pong timeout)
        slowReaderIsClosed(rawFrameWrites, 30, 0, 4);
    }

    private void slowReaderIsClosed(boolean rawFrameWrites, int requests, double atLeast, double atMost) throws Exception {
        HubServer hub = hub(rawFrameWrites);
        try (SynapseClient watcher = SynapseClient.register(hub.webSocketUri(), "drain/watcher");
             SynapseClient talker = SynapseClient.register(hub.webSocketUri(), "drain/talker")) {
            // ~2 MB of public history first
            String big = "x".repeat(100_000);
            for (int i = 0; i < 20; i++) {
                talker.send(SynapseClient.frame("chat", "all", big + i));
            }
            for (int i = 0; i < 20; i++) {
                String payload = big + i;
                watcher.expect(f -> "chat".equals(f.getString("type", "")) && payload.equals(f.getString("payload", "")),
                        Duration.ofSeconds(20));
            }
            try (RawWebSocket slow = RawWebSocket.open(hub.webSocketUri().getPort(), 4096)) {
                assertTrue(slow.upgraded(), slow.handshakeAnswer());
                slow.sendText("{\"type\":\"heartbeat\",\"sender\":\"drain/slow\",\"target\":\"System\",\"payload\":\"online\"}");
                watcher.expect(f -> "presence_update".equals(f.getString("type", "")) && "joined".equals(f.getString("event", ""))
                        && "drain/slow".equals(f.getString("agent", "")), Duration.ofSeconds(10));
                // each answer carries the whole history: far more than the socket buffers hold, and never read
                long asked = System.nanoTime();
                for (int i = 0; i < requests; i++) {
                    slow.sendText("{\"type\":\"history_request\",\"sender\":\"drain/slow\",\"target\":\"System\",\"payload\":\"history\"}");
                }
                JsonObject left = watcher.expect(f -> "presence_update".equals(f.getString("type", ""))
                        && "left".equals(f.getString("event", "")) && "drain/slow".equals(f.getString("agent", "")),
                        Duration.ofSeconds(30));
                double seconds = (System.nanoTime() - asked) / 1e9;
                assertEquals("drain/slow", left.getString("agent"));
                // the outbound bound, not the drain deadline (5 s) or the keepalive's pong timeout (15-30 s)
                assertTrue(seconds >= atLeast && seconds <= atMost, "closed after " + seconds + " s, expected "
                        + atLeast + ".." + atMost + " s");
            }
            // the hub still serves everyone else
            talker.send(SynapseClient.frame("chat", "drain/watcher", "still here"));
            watcher.expect(f -> "chat".equals(f.getString("type", "")) && "still here".equals(f.getString("payload", "")),
                    Duration.ofSeconds(10));
        }
    }
}
