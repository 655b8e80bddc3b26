package org.switchboard.synapse.federation.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.attachments.AttachmentRefusal;

/** The recipient side of a peer attachment read (§5.2–5.4) against a scripted source hub. */
class PeerReadClientTest {

    static final String DIGEST = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    /** A source hub that answers each request with the next scripted frame (none: a transport failure). */
    static final class ScriptedSource implements PeerClient {
        final Deque<JsonObject> answers = new ArrayDeque<>();
        final List<JsonObject> registrations = new ArrayList<>();
        final List<JsonObject> requests = new ArrayList<>();
        final List<Predicate<JsonObject>> tests = new ArrayList<>();

        @Override
        public JsonObject exchange(MessagePeers.Peer peer, JsonObject registration, JsonObject forward, String forwardId)
                throws IOException {
            throw new IOException("not a forward");
        }

        @Override
        public JsonObject request(MessagePeers.Peer peer, JsonObject registration, JsonObject request,
                                  Predicate<JsonObject> answer) throws IOException {
            registrations.add(registration);
            requests.add(request);
            tests.add(answer);
            if (answers.isEmpty()) {
                throw new IOException("connection refused");
            }
            return answers.poll();
        }
    }

    final ScriptedSource source = new ScriptedSource();
    final PeerReadClient client = new PeerReadClient("hub-b",
            MessagePeers.parse("hub-a=ws://127.0.0.1:9876/", "", 60), "peer-secret", source, () -> 1_790_000_000.0);

    static JsonObjectBuilder result(String hub) {
        return Json.createObjectBuilder().add("type", "attachment_peer_result").add("sender", "System")
                .add("target", "hub-b").add("payload", "").add("hub_id", hub);
    }

    static JsonObject metadataAnswer(String hub) {
        return result(hub).add("ok", true).add("metadata", Json.createObjectBuilder().add("scope", "ACME")
                .add("digest", DIGEST).add("length", 4).add("media_type", "text/plain").add("provenance", "ci:run/551")
                .add("expires_at", 1_790_086_400)).build();
    }

    static JsonObject chunkAnswer(String body, long offset, boolean eof) {
        return result("hub-a").add("ok", true).add("scope", "ACME").add("digest", DIGEST).add("offset", offset)
                .add("body", body).add("eof", eof).build();
    }

    void assertUnavailable(Runnable call) {
        AttachmentRefusal refusal = assertThrows(AttachmentRefusal.class, call::run);
        assertEquals("attachment unavailable", refusal.error());
    }

    @Test
    void infoRegistersAtVersionSixWithTheTokenAndReturnsTheMetadata() {
        source.answers.add(metadataAnswer("hub-a"));
        JsonObject fields = client.fetch("hub-a", "info", "ACME", DIGEST, null);
        assertEquals(4, fields.getJsonObject("metadata").getInt("length"));
        assertEquals("text/plain", fields.getJsonObject("metadata").getString("media_type"));
        JsonObject registration = source.registrations.get(0);
        assertEquals("hub-b", registration.getString("sender"));
        assertEquals(6, registration.getInt("protocol_version"));
        assertEquals("peer-secret", registration.getString("token"));
        JsonObject request = source.requests.get(0);
        assertEquals("attachment_peer_request", request.getString("type"));
        assertEquals("info", request.getString("action"));
        assertEquals("ACME", request.getString("scope"));
        assertEquals(DIGEST, request.getString("digest"));
        assertFalse(request.containsKey("offset"), "info carries no offset");
    }

    @Test
    void readReturnsTheChunkAndSendsTheIntegerOffset() {
        String body = Base64.getEncoder().encodeToString("test".getBytes());
        source.answers.add(chunkAnswer(body, 0, true));
        JsonObject fields = client.fetch("hub-a", "read", "ACME", DIGEST, 0L);
        assertEquals(body, fields.getString("body"));
        assertTrue(fields.getBoolean("eof"));
        assertEquals(0, fields.getInt("offset"));
        assertEquals(0, source.requests.get(0).getInt("offset"));
    }

    @Test
    void everyFailureIsTheUniformRefusal() {
        // not a configured peer, or this hub itself: nothing is sent
        assertUnavailable(() -> client.fetch("hub-z", "info", "ACME", DIGEST, null));
        assertUnavailable(() -> client.fetch("hub-b", "info", "ACME", DIGEST, null));
        assertTrue(source.requests.isEmpty());
        // transport failure
        assertUnavailable(() -> client.fetch("hub-a", "info", "ACME", DIGEST, null));
        // the source's own refusal
        source.answers.add(result("hub-a").add("ok", false).add("error", "attachment unavailable").build());
        assertUnavailable(() -> client.fetch("hub-a", "info", "ACME", DIGEST, null));
        // an answer from another hub
        source.answers.add(metadataAnswer("hub-x"));
        assertUnavailable(() -> client.fetch("hub-a", "info", "ACME", DIGEST, null));
        // a plain error (e.g. an older source, or a refused registration)
        source.answers.add(Json.createObjectBuilder().add("type", "error").add("payload", "nope").build());
        assertUnavailable(() -> client.fetch("hub-a", "info", "ACME", DIGEST, null));
        // metadata for another object
        source.answers.add(result("hub-a").add("ok", true).add("metadata", Json.createObjectBuilder().add("scope", "OTHER")
                .add("digest", DIGEST).add("length", 4).add("media_type", "text/plain").add("provenance", "x")
                .add("expires_at", 1)).build());
        assertUnavailable(() -> client.fetch("hub-a", "info", "ACME", DIGEST, null));
        // a chunk at another offset, over 32 KiB, or not base64
        source.answers.add(chunkAnswer("dGVzdA==", 4, true));
        assertUnavailable(() -> client.fetch("hub-a", "read", "ACME", DIGEST, 0L));
        source.answers.add(chunkAnswer(Base64.getEncoder().encodeToString(new byte[32 * 1024 + 1]), 0, false));
        assertUnavailable(() -> client.fetch("hub-a", "read", "ACME", DIGEST, 0L));
        source.answers.add(chunkAnswer("not base64!", 0, true));
        assertUnavailable(() -> client.fetch("hub-a", "read", "ACME", DIGEST, 0L));
    }

    @Test
    void theExchangeEndsOnTheResultAnErrorOrAWelcomeFromAnotherHub() {
        source.answers.add(metadataAnswer("hub-a"));
        client.fetch("hub-a", "info", "ACME", DIGEST, null);
        Predicate<JsonObject> ends = source.tests.get(0);
        assertTrue(ends.test(metadataAnswer("hub-a")));
        assertTrue(ends.test(Json.createObjectBuilder().add("type", "error").build()));
        assertFalse(ends.test(Json.createObjectBuilder().add("type", "welcome").add("hub_id", "hub-a").build()),
                "the source's own welcome is not the answer");
        assertTrue(ends.test(Json.createObjectBuilder().add("type", "welcome").add("hub_id", "hub-x").build()),
                "a welcome naming another hub ends the exchange (refused)");
        assertFalse(ends.test(Json.createObjectBuilder().add("type", "presence_update").build()));
    }
}
