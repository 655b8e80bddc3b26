package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.Signature;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.CanonicalJson;
import org.switchboard.itests.support.FixedEd25519;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Identity binding (synapse-advanced §6.5) against the packaged hub: a TOFU pin made by the first
 * signed registration survives a restart, another key or no signature on the pinned name is closed
 * 4013 with the observed key id and the reclaim verb, unsigned names are unaffected; and, on a second
 * hub with an operator trust bundle and {@code HUB_REQUIRE_IDENTITY_BINDING=true}, an unverified
 * registration is closed 4013.
 */
class IdentityBindingIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Key ALICE = new Key(1);
    private static final Key MALLORY = new Key(100);
    private static HubServer hub;

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

    /** A fixed Ed25519 key (seed bytes first, first+1, …) signing v1 registration proofs. */
    record Key(KeyPair pair, String publicBase64) {

        Key(int first) {
            this(FixedEd25519.pair(FixedEd25519.seed(first)));
        }

        private Key(KeyPair pair) {
            this(pair, Base64.getEncoder().encodeToString(FixedEd25519.rawPublic(pair)));
        }

        /** The registration frame of {@code name}, signed under {@code keyId} (token included when given). */
        String registration(String name, String keyId, String token) {
            return registration(name, keyId, token, null);
        }

        /** As above, with {@code extra} registration fields (e.g. {@code protocol_version}) inside the signature. */
        String registration(String name, String keyId, String token, JsonObject extra) {
            var frame = Json.createObjectBuilder().add("type", "heartbeat").add("target", "System")
                    .add("payload", "online – grüße").add("sender", name).add("identity_public_key", publicBase64)
                    .add("signature", Json.createObjectBuilder().add("version", 1).add("key_id", keyId)
                            .add("algorithm", "ed25519"));
            if (token != null) {
                frame.add("token", token);
            }
            if (extra != null) {
                extra.forEach(frame::add);
            }
            JsonObject unsigned = frame.build();
            try {
                Signature signer = Signature.getInstance("Ed25519");
                signer.initSign(pair.getPrivate());
                signer.update(CanonicalJson.utf8(unsigned).getBytes(StandardCharsets.UTF_8));
                String value = Base64.getEncoder().encodeToString(signer.sign());
                return Json.createObjectBuilder(unsigned).add("signature", Json.createObjectBuilder(
                        unsigned.getJsonObject("signature")).add("value", value)).build().toString();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static SynapseClient open(HubServer server, String name) {
        SynapseClient client = SynapseClient.connect(server.webSocketUri(), name);
        return client;
    }

    private static void expectJoined(SynapseClient client, String name) {
        client.expect(f -> "presence_update".equals(f.getString("type", "")) && name.equals(f.getString("agent", "")), WAIT);
    }

    private static long metric(HubServer server, String name) throws Exception {
        String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(server.http("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (String line : body.split("\n")) {
            if (line.startsWith(name + " ")) {
                return (long) Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        throw new AssertionError(name + " not in /metrics");
    }

    @Test
    void theFirstSignedRegistrationPinsTheNameAcrossARestartAndAnotherKeyIsClosed4013() throws Exception {
        try (SynapseClient alice = open(hub, "idt/alice")) {
            alice.expectType("welcome");
            alice.sendRaw(ALICE.registration("idt/alice", "alice-key-1", null));
            expectJoined(alice, "idt/alice");
        }
        assertEquals(1, metric(hub, "synapse_identity_pins_created_total"));

        hub.restart();

        try (SynapseClient alice = open(hub, "idt/alice")) {
            alice.expectType("welcome");
            alice.sendRaw(ALICE.registration("idt/alice", "alice-key-1", null));
            expectJoined(alice, "idt/alice");
        }
        try (SynapseClient mallory = open(hub, "idt/alice")) {
            mallory.expectType("welcome");
            mallory.sendRaw(MALLORY.registration("idt/alice", "mallory-key-9", null));
            JsonObject refused = mallory.expect(f -> "error".equals(f.getString("type", "")), WAIT);
            assertEquals("pin_mismatch", refused.getString("identity_result"));
            String text = refused.getString("payload");
            assertTrue(text.contains("mallory-key-9") && text.contains("identity_pin_reclaim"), text);
            assertEquals(4013, mallory.awaitClose(WAIT));
            assertEquals("identity pin mismatch", mallory.closeReason());
        }
        try (SynapseClient unsigned = open(hub, "idt/alice")) {
            unsigned.expectType("welcome");
            unsigned.send(SynapseClient.frame("heartbeat", "System", "online").add("sender", "idt/alice"));
            assertEquals(4013, unsigned.awaitClose(WAIT));
        }
        assertEquals(2, metric(hub, "synapse_identity_pin_mismatches_total"));
        assertEquals(0, metric(hub, "synapse_identity_pins_created_total"), "the restart made a second pin");
    }

    @Test
    void unsignedNamesKeepLegacyBehaviour() {
        try (SynapseClient bob = SynapseClient.register(hub.webSocketUri(), "idt/bob");
             SynapseClient again = SynapseClient.connect(hub.webSocketUri(), "idt/bob2")) {
            again.expectType("welcome");
            again.send(SynapseClient.frame("heartbeat", "System", "online"));
            expectJoined(again, "idt/bob2");
            bob.send(SynapseClient.frame("chat", "idt/bob2", "still unsigned"));
            again.expect(f -> "chat".equals(f.getString("type", "")) && "still unsigned".equals(f.getString("payload", "")), WAIT);
        }
    }

    @Test
    void withATrustBundleAndRequiredBindingAnUnverifiedRegistrationIsClosed4013() throws Exception {
        Path dir = Files.createTempDirectory("identity-trust");
        Path trust = dir.resolve("trust.json");
        Files.writeString(trust, "{\"keys\":[{\"key_id\":\"acme-alice\",\"public_key\":\"" + ALICE.publicBase64()
                + "\",\"senders\":[\"ACME/alice\"],\"projects\":[\"ACME\"]}]}");
        Files.setPosixFilePermissions(trust, PosixFilePermissions.fromString("rw-------"));
        try (HubServer bound = HubServer.start(HubServer.env("HUB_IDENTITY_TRUST", trust.toString(),
                "HUB_REQUIRE_IDENTITY_BINDING", "true", "HUB_TOKEN", "idt-token"))) {
            try (SynapseClient unsigned = open(bound, "ACME/alice")) {
                unsigned.send(SynapseClient.frame("heartbeat", "System", "online").add("token", "idt-token"));
                JsonObject refused = unsigned.expect(f -> "error".equals(f.getString("type", "")), WAIT);
                assertEquals("missing_signature", refused.getString("identity_result"));
                assertEquals(4013, unsigned.awaitClose(WAIT));
                assertEquals("identity binding failed", unsigned.closeReason());
            }
            try (SynapseClient other = open(bound, "ACME/alice")) {
                other.sendRaw(MALLORY.registration("ACME/alice", "acme-alice", "idt-token"));
                assertEquals("bad_signature", other.expect(f -> "error".equals(f.getString("type", "")), WAIT)
                        .getString("identity_result"));
                assertEquals(4013, other.awaitClose(WAIT));
            }
            try (SynapseClient alice = open(bound, "ACME/alice")) {
                // the proof covers the token: the hub verifies before it strips it
                alice.sendRaw(ALICE.registration("ACME/alice", "acme-alice", "idt-token"));
                alice.expectType("welcome");
            }
            assertEquals(2, metric(bound, "synapse_identity_binding_failures_total"));
            String log = Files.readString(bound.logFile());
            assertTrue(!log.contains("idt-token"), "the connect token reached the hub log");
        }
    }
}
