package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Scoped attachments (synapse-advanced §3) on a hub without the §3.1 security posture: even with
 * {@code hub.attachments.dir} set, the store is not opened, every {@code attachment_*} verb answers a
 * private {@code attachment_result} {@code ok:false} {@code "attachments disabled"}, the socket stays
 * usable, and {@code /metrics} counts the refusals.
 */
class AttachmentsIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final List<String> VERBS = List.of("attachment_begin", "attachment_chunk", "attachment_commit",
            "attachment_abort", "attachment_info", "attachment_read", "attachment_ref", "attachment_gc");
    private static HubServer hub;
    private static Path attachmentsDir;

    @BeforeAll
    static void start() throws Exception {
        attachmentsDir = Files.createTempDirectory("attachments-it").resolve("store");
        hub = HubServer.start(Map.of("HUB_ATTACHMENTS_DIR", attachmentsDir.toString()));
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    @Test
    void everyVerbAnswersAttachmentsDisabledPrivatelyAndTheSocketStaysUsable() throws Exception {
        JsonObject v4 = Json.createObjectBuilder().add("protocol_version", 4).build();
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "ACME/alice", v4);
             SynapseClient bob = SynapseClient.register(hub.webSocketUri(), "ACME/bob")) {
            for (String verb : VERBS) {
                alice.send(SynapseClient.frame(verb, "System", "").add("scope", "ACME")
                        .add("digest", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
                        .add("length", 4).add("media_type", "text/plain").add("provenance", "ci:run/551")
                        .add("expires_at", System.currentTimeMillis() / 1000.0 + 3600)
                        .add("upload_id", "0".repeat(48)).add("offset", 0).add("body", "dGVzdA=="));
                JsonObject result = alice.expect(f -> "attachment_result".equals(f.getString("type", "")), WAIT);
                assertEquals(Set.of("sender", "target", "type", "payload", "timestamp", "hub_id", "operation", "ok", "error"),
                        result.keySet(), result.toString());
                assertEquals(verb, result.getString("operation"));
                assertFalse(result.getBoolean("ok"));
                assertEquals("attachments disabled", result.getString("error"));
                assertEquals("", result.getString("payload"));
                assertEquals("ACME/alice", result.getString("target"));
            }
            // a frame missing every field, from a client that negotiated no version: the same answer
            bob.send(SynapseClient.frame("attachment_read", "System", ""));
            JsonObject bare = bob.expect(f -> "attachment_result".equals(f.getString("type", "")), WAIT);
            assertEquals("attachments disabled", bare.getString("error"));
            // still usable, and nothing was broadcast to the other socket
            alice.send(SynapseClient.frame("chat", "ACME/bob", "after the refusals"));
            bob.expect(f -> "chat".equals(f.getString("type", "")) && "after the refusals".equals(f.getString("payload", "")), WAIT);
            bob.expectNone(f -> f.getString("type", "").startsWith("attachment") && "ACME/alice".equals(f.getString("target", "")),
                    Duration.ofMillis(300));
        }
        assertFalse(Files.exists(attachmentsDir), "the store must not open without the §3.1 posture");
        String log = Files.readString(hub.logFile());
        assertTrue(log.contains("hub.attachments.dir is set but the store stays disabled"), "no WARNING naming the key");

        HttpResponse<String> metrics = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(hub.http("/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.body().contains("synapse_attachment_errors_total{error=\"attachments disabled\"} 9\n"),
                metrics.body());
        assertTrue(metrics.body().contains("synapse_attachment_errors_total{error=\"attachment digest mismatch\"} 0\n"));
    }
}
