package org.switchboard.itests.synapse.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Cross-hub forwarding between two packaged hubs (synapse-advanced §4): hub-a (origin, this issue's
 * outbound side) forwards to hub-b (the receiving side) over loopback {@code ws://} with the peer
 * token. Chat with both receipts' facts, the origin's and the receiver's refusals, the remote roster,
 * and the outbox gauges on /metrics and /health.
 */
class FederationIT {

    static final Duration WAIT = Duration.ofSeconds(30);
    static final String PEER_TOKEN = "federation-it-peer-token";
    static final String POLICY = "{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"message\",\"read\"]}]}";

    private static HubServer hubB;
    private static HubServer hubA;

    @BeforeAll
    static void start() throws IOException {
        Path dir = Files.createDirectories(Path.of("target", "federation-it"));
        hubB = HubServer.start(HubServer.env("HUB_ID", "hub-b", "HUB_TOKEN", PEER_TOKEN,
                "HUB_MULTIHUB_POLICY", ownerOnly(dir.resolve("multihub-policy.json"), POLICY).toAbsolutePath().toString()));
        hubA = HubServer.start(HubServer.env("HUB_ID", "hub-a",
                "HUB_MESSAGE_PEERS", "hub-b=ws://127.0.0.1:" + hubB.port() + "/",
                "HUB_MESSAGE_PEER_TOKEN", PEER_TOKEN));
    }

    @AfterAll
    static void stop() {
        for (HubServer hub : new HubServer[] {hubA, hubB}) {
            if (hub != null) {
                hub.stop();
            }
        }
    }

    static Path ownerOnly(Path file, String content) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, content, StandardCharsets.UTF_8);
        return file;
    }

    /** A local agent of hub-b: the token-secured hub welcomes only after the registration. */
    static SynapseClient onB(String name) {
        return onB(hubB, name);
    }

    static SynapseClient onB(HubServer hub, String name) {
        SynapseClient client = SynapseClient.connect(hub.webSocketUri(), name);
        client.send(SynapseClient.frame("heartbeat", "System", "online").add("token", PEER_TOKEN));
        client.expect(f -> "presence_update".equals(f.getString("type", "")) && name.equals(f.getString("agent", "")), WAIT);
        return client;
    }

    static JsonObject receiptFor(SynapseClient client, String state) {
        return client.expect(f -> "delivery_receipt".equals(f.getString("type", ""))
                && state.equals(f.getString("forward_state", "")), WAIT);
    }

    @Test
    void chatReachesTheSeatOnThePeerAndTheSenderGetsAReceipt() {
        try (SynapseClient bob = onB("ACME/bob");
             SynapseClient alice = SynapseClient.register(hubA.webSocketUri(), "ACME/alice")) {
            alice.send(SynapseClient.frame("chat", "ACME/bob@hub-b", "Build is green.")
                    .add("receipt_requested", true).add("client_msg_id", "fed-1"));
            JsonObject own = alice.expect(f -> "chat".equals(f.getString("type", ""))
                    && "fed-1".equals(f.getString("client_msg_id", "")), WAIT);
            String forwardId = own.getString("forward_id");
            JsonObject got = bob.expect(f -> "chat".equals(f.getString("type", ""))
                    && "Build is green.".equals(f.getString("payload", "")), WAIT);
            assertEquals("ACME/alice@hub-a", got.getString("sender"));
            assertEquals("hub-a", got.getString("forwarded_from"));
            assertEquals(forwardId, got.getString("forward_id"));
            JsonObject receipt = receiptFor(alice, "accepted");
            assertEquals(forwardId, receipt.getString("forward_id"));
            assertEquals("hub-b", receipt.getString("forwarded_to"));
            assertEquals("ACME/bob@hub-b", receipt.getString("message_target"));
            assertTrue(receipt.getJsonArray("matched_recipients").toString().contains("ACME/bob@hub-b"), receipt.toString());
            assertFalse(receipt.getBoolean("deferred"));
            assertTrue(receipt.containsKey("message_seq"));
            assertEquals("fed-1", receipt.getString("client_msg_id"));
            bob.expectNone(f -> "chat".equals(f.getString("type", "")) && "Build is green.".equals(f.getString("payload", "")),
                    Duration.ofSeconds(2));
        }
    }

    @Test
    void theOriginRefusesBadTargetsBeforeStoringAnything() {
        try (SynapseClient alice = SynapseClient.register(hubA.webSocketUri(), "ACME/alice2")) {
            alice.send(SynapseClient.frame("chat", "ACME/bob@hub-z", "x"));
            assertEquals("Hub 'hub-z' is not a configured message peer", alice.expectType("error").getString("payload"));
            alice.send(SynapseClient.frame("chat", "ACME/a@hub-b,ACME/b@hub-b", "x"));
            assertEquals("Cross-hub target must be exactly one seat", alice.expectType("error").getString("payload"));
            alice.send(SynapseClient.frame("chat", "ACME/*@hub-b", "x"));
            assertTrue(alice.expectType("error").getString("payload").startsWith("Cross-hub target refused"));
        }
    }

    @Test
    void aNamespaceThePeerDidNotGrantSettlesRefused() {
        try (SynapseClient alice = SynapseClient.register(hubA.webSocketUri(), "ACME/alice3")) {
            alice.send(SynapseClient.frame("chat", "OTHER/carol@hub-b", "not for you").add("receipt_requested", true));
            JsonObject receipt = receiptFor(alice, "refused");
            assertEquals("forward_refused", receipt.getString("reason"));
            assertFalse(receipt.getBoolean("delivered"));
        }
    }

    @Test
    void remoteRosterShowsThePeersGrantedSeatsQualified() {
        try (SynapseClient bob = onB("ACME/bob-roster");
             SynapseClient hidden = onB("OTHER/dave");
             SynapseClient alice = SynapseClient.register(hubA.webSocketUri(), "ACME/alice4")) {
            alice.send(SynapseClient.frame("who_request", "System", "who").add("hub", "hub-b"));
            JsonObject who = alice.expect(f -> "who_snapshot".equals(f.getString("type", ""))
                    && "hub-b".equals(f.getString("remote_hub", "")), WAIT);
            String online = who.getJsonArray("online_agents").toString();
            assertTrue(online.contains("ACME/bob-roster@hub-b"), online);
            assertFalse(online.contains("OTHER/dave"), online);
            alice.send(SynapseClient.frame("who_request", "System", "who").add("hub", "hub-z"));
            assertTrue(alice.expectType("error").getString("payload").startsWith("Roster of hub 'hub-z' unavailable (unknown_hub)"));
        }
    }

    @Test
    void metricsAndHealthReportTheOutbox() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String metrics = http.send(HttpRequest.newBuilder(hubA.http("/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(metrics.contains("\nsynapse_message_forward_pending "), metrics);
        assertTrue(metrics.contains("\nsynapse_message_forward_oldest_pending_seconds "), metrics);
        String health = http.send(HttpRequest.newBuilder(hubA.http("/health")).build(), HttpResponse.BodyHandlers.ofString()).body();
        try (JsonReader reader = Json.createReader(new StringReader(health))) {
            JsonObject peer = reader.readObject().getJsonObject("message_forward").getJsonObject("hub-b");
            assertTrue(peer.containsKey("pending") && peer.containsKey("oldest_pending_seconds"), health);
        }
    }
}
