package org.switchboard.itests.synapse.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * The outbox across an outage (issue 18, must-show 2): the peer is down while forwards are sent, the
 * origin is killed with SIGKILL and restarted, then the peer comes back; every forward settles
 * {@code accepted} exactly once and the recipient's hub holds each chat once.
 */
class FederationOutageIT {

    private static final int FORWARDS = 5;
    private static final Duration SETTLE = Duration.ofSeconds(120);
    private static HubServer hubA;
    private static HubServer hubB;

    @AfterAll
    static void stop() {
        for (HubServer hub : new HubServer[] {hubA, hubB}) {
            if (hub != null) {
                hub.stop();
            }
        }
    }

    @Test
    void everyForwardSettlesAcceptedExactlyOnceAfterPeerOutageAndOriginKill() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "federation-outage-it"));
        // prepared, not booted: its port is known; it stays down while the forwards are sent
        hubB = HubServer.prepare(HubServer.env("HUB_ID", "hub-b", "HUB_TOKEN", FederationIT.PEER_TOKEN, "HUB_MULTIHUB_POLICY",
                FederationIT.ownerOnly(dir.resolve("multihub-policy.json"), FederationIT.POLICY).toAbsolutePath().toString()));
        hubA = HubServer.start(HubServer.env("HUB_ID", "hub-a",
                "HUB_MESSAGE_PEERS", "hub-b=ws://127.0.0.1:" + hubB.port() + "/",
                "HUB_MESSAGE_PEER_TOKEN", FederationIT.PEER_TOKEN,
                // a short cap keeps the retries close together once the peer is back (default 300 s)
                "HUB_MESSAGE_FORWARD_MAX_BACKOFF_SECONDS", "2"));
        Set<String> forwardIds = new HashSet<>();
        try (SynapseClient alice = SynapseClient.register(hubA.webSocketUri(), "ACME/alice")) {
            for (int i = 0; i < FORWARDS; i++) {
                alice.send(SynapseClient.frame("chat", "ACME/bob@hub-b", "outage " + i).add("receipt_requested", true));
                JsonObject pending = alice.expect(f -> "delivery_receipt".equals(f.getString("type", ""))
                        && "pending".equals(f.getString("forward_state", "")), FederationIT.WAIT);
                forwardIds.add(pending.getString("forward_id"));
            }
        }
        assertEquals(FORWARDS, forwardIds.size());
        assertTrue(metric(hubA, "synapse_message_forward_pending") >= FORWARDS);

        hubA.kill9();
        hubA.restart();
        hubB.restart();

        // the sender, back online, gets each settlement receipt (replayed on registration, before its
        // presence_update, or sent live): registered by hand so that no frame is skipped
        Map<String, String> settled = new HashMap<>();
        try (SynapseClient alice = SynapseClient.connect(hubA.webSocketUri(), "ACME/alice")) {
            alice.send(SynapseClient.frame("heartbeat", "System", "online"));
            long deadline = System.nanoTime() + SETTLE.toNanos();
            while (settled.size() < FORWARDS && System.nanoTime() < deadline) {
                JsonObject r = alice.expect(f -> "delivery_receipt".equals(f.getString("type", ""))
                        && !"pending".equals(f.getString("forward_state", "")), SETTLE);
                assertTrue(settled.put(r.getString("forward_id"), r.getString("forward_state")) == null,
                        "one settlement receipt per forward: " + r);
            }
            alice.expectNone(f -> "delivery_receipt".equals(f.getString("type", "")), Duration.ofSeconds(3));
        }
        assertEquals(forwardIds, settled.keySet());
        settled.values().forEach(state -> assertEquals("accepted", state, "settled " + settled));
        assertEquals(0, metric(hubA, "synapse_message_forward_pending"));

        // the recipient's hub holds each forwarded chat once
        try (SynapseClient bob = FederationIT.onB(hubB, "ACME/bob")) {
            bob.send(SynapseClient.frame("history_request", "System", "history").add("history_target", "ACME/bob"));
            JsonObject history = bob.expectType("history_snapshot");
            Map<String, Integer> copies = new HashMap<>();
            for (JsonValue v : history.getJsonArray("history")) {
                JsonObject chat = v.asJsonObject();
                if (chat.containsKey("forward_id")) {
                    copies.merge(chat.getString("forward_id"), 1, Integer::sum);
                }
            }
            assertEquals(forwardIds, copies.keySet(), history.toString());
            copies.values().forEach(n -> assertEquals(1, n, "copies per forward: " + copies));
        }
    }

    private static long metric(HubServer hub, String name) throws IOException, InterruptedException {
        String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(hub.http("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (String line : body.split("\n")) {
            if (line.startsWith(name + " ")) {
                return (long) Double.parseDouble(line.substring(name.length() + 1).strip());
            }
        }
        throw new AssertionError(name + " missing from /metrics");
    }
}
