package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Black-box session lifecycle on a token-secured hub ({@code HUB_TOKEN}): auth refusal, welcome
 * only after authentication, presence, name conflict, takeover with its cooldown, reserved names,
 * and the metrics token.
 */
class SynapseSecuredSessionIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String TOKEN = "it-s3cret";
    private static HubServer hub;

    @BeforeAll
    static void start() {
        hub = HubServer.start(HubServer.env("HUB_TOKEN", TOKEN, "HUB_METRICS_TOKEN", "m-token"));
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    private static JsonObject token() {
        return Json.createObjectBuilder().add("token", TOKEN).build();
    }

    /** Registers on the secured hub: first frame with the token, then welcome, then presence. */
    private static SynapseClient login(String name, JsonObject extra) {
        SynapseClient client = SynapseClient.connect(hub.webSocketUri(), name);
        var heartbeat = SynapseClient.frame("heartbeat", "System", "online").add("token", TOKEN);
        if (extra != null) {
            extra.forEach(heartbeat::add);
        }
        client.send(heartbeat);
        return client;
    }

    @Test
    void wrongTokenIsDeniedAndClosed4010() {
        try (SynapseClient client = SynapseClient.connect(hub.webSocketUri(), "sec/mallory")) {
            client.send(SynapseClient.frame("heartbeat", "System", "online").add("token", "wrong"));
            JsonObject denied = client.expectType("auth_denied");
            assertEquals("Invalid authentication token.", denied.getString("payload"));
            assertEquals("sec/mallory", denied.getString("target"));
            assertEquals(4010, client.awaitClose(WAIT));
            assertEquals("auth denied", client.closeReason());
        }
        try (SynapseClient client = SynapseClient.connect(hub.webSocketUri(), "sec/nobody")) {
            client.send(SynapseClient.frame("heartbeat", "System", "online"));
            assertEquals("Authentication token required.", client.expectType("auth_denied").getString("payload"));
            assertEquals(4010, client.awaitClose(WAIT));
        }
    }

    @Test
    void welcomeComesOnlyAfterAuthenticationAndHidesTheOwnName() {
        try (SynapseClient watcher = login("sec/watcher", null)) {
            watcher.expectType("welcome");
            try (SynapseClient alice = SynapseClient.connect(hub.webSocketUri(), "sec/alice")) {
                alice.expectNone(f -> true, Duration.ofSeconds(1));
                alice.send(SynapseClient.frame("heartbeat", "System", "online").add("token", TOKEN));
                JsonObject welcome = alice.expectType("welcome");
                assertTrue(welcome.getJsonArray("online_agents").contains(Json.createValue("sec/watcher")));
                assertFalse(welcome.getJsonArray("online_agents").contains(Json.createValue("sec/alice")));
                JsonObject joined = watcher.expect(f -> "presence_update".equals(f.getString("type", ""))
                        && "sec/alice".equals(f.getString("agent", "")), WAIT);
                assertEquals("joined", joined.getString("event"));
                alice.send(SynapseClient.frame("chat", "all", "authenticated chat"));
                JsonObject chat = watcher.expect(f -> "authenticated chat".equals(f.getString("payload", "")), WAIT);
                assertFalse(chat.containsKey("token"), "the token never reaches other clients");
            }
            JsonObject left = watcher.expect(f -> "presence_update".equals(f.getString("type", ""))
                    && "sec/alice".equals(f.getString("agent", "")), WAIT);
            assertEquals("left", left.getString("event"));
        }
    }

    @Test
    void nameConflictTakeoverAndCooldown() {
        try (SynapseClient first = login("sec/bob", null)) {
            first.expectType("welcome");
            try (SynapseClient clash = login("sec/bob", null)) {
                JsonObject conflict = clash.expectType("name_conflict");
                assertEquals("Name 'sec/bob' is already online from another session. Use a unique --name.",
                        conflict.getString("payload"));
                assertEquals(4009, clash.awaitClose(WAIT));
                assertEquals("name conflict", clash.closeReason());
            }
            try (SynapseClient successor = login("sec/bob", Json.createObjectBuilder().add("takeover", true).build())) {
                JsonObject welcome = successor.expectType("welcome");
                assertTrue(welcome.getJsonArray("online_agents").contains(Json.createValue("sec/bob")),
                        "a takeover's name is already bound");
                assertEquals(4010, first.awaitClose(WAIT));
                assertEquals("superseded", first.closeReason());
                successor.send(SynapseClient.frame("who_request", "System", "who"));
                assertTrue(successor.expectType("who_snapshot").getJsonArray("online_agents")
                        .contains(Json.createValue("sec/bob")), "the old socket's close did not unbind the name");
                try (SynapseClient tooSoon = login("sec/bob", Json.createObjectBuilder().add("takeover", true).build())) {
                    assertEquals(4014, tooSoon.awaitClose(WAIT));
                    assertEquals("takeover cooldown", tooSoon.closeReason());
                }
            }
        }
    }

    @Test
    void reservedNamesAreRefusedBeforeAuthentication() {
        try (SynapseClient client = SynapseClient.connect(hub.webSocketUri(), "SynapseHub")) {
            client.send(SynapseClient.frame("heartbeat", "System", "online"));
            assertTrue(client.expectType("name_conflict").getString("payload").contains("reserved"));
            assertEquals(4009, client.awaitClose(WAIT));
            assertEquals("reserved identity", client.closeReason());
        }
    }

    @Test
    void metricsTokenIsRequired() throws Exception {
        var http = java.net.http.HttpClient.newHttpClient();
        var denied = http.send(java.net.http.HttpRequest.newBuilder(hub.http("/metrics")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(401, denied.statusCode());
        assertEquals("unauthorized\n", denied.body());
        var allowed = http.send(java.net.http.HttpRequest.newBuilder(hub.http("/health"))
                        .header("Authorization", "Bearer m-token").build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, allowed.statusCode());
        assertTrue(allowed.body().contains("\"protocol_version\":6"));
    }
}
