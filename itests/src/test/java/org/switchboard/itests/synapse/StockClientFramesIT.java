package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * The frames the stock Python and JavaScript SYNAPSE clients actually put on the wire (observed
 * against this hub, see synapse-conformance.md "Stock clients"), sent by our own client: their
 * registration shapes are accepted, chat and directed chat flow, a mailbox registrant gets every
 * directed chat exactly once even when one is sent while its replay is pending, and a back-to-back
 * resend with the same {@code client_msg_id} is suppressed.
 */
class StockClientFramesIT {

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

    /** The Python client's registration: wake capability, wire version 3, machine identity key and signature. */
    private static JsonObjectBuilder pythonRegistration() {
        return Json.createObjectBuilder()
                .add("wake_capability", "direct")
                .add("protocol_version", 3)
                .add("identity_public_key", "l0eIl3kp0Th2o1L4t9fSWShNUiElbcY6UjrPEiIktP4=")
                .add("signature", Json.createObjectBuilder().add("version", 2).add("key_id", "machine-26e8d5685dbf657d")
                        .add("algorithm", "ed25519").add("nonce", "Iq4fLHy8rb8hyuBFzornJZLP").add("sequence", 1)
                        .add("signed_at", System.currentTimeMillis() / 1000.0).add("domain", "aef:legacy-event:v0.1")
                        .add("value", "I3n/H07YAUo94BnjsxqICpmOt6jHOaoqNQ1zMIMRP4rfjkUW58pw0sfAotSgaVszwyesgsJeDRoB24/3/lUHAA=="));
    }

    private static boolean chat(JsonObject frame, String payload) {
        return "chat".equals(frame.getString("type", "")) && payload.equals(frame.getString("payload", ""));
    }

    /** Every frame arriving within the window. */
    private static List<JsonObject> drain(SynapseClient client, Duration window) {
        List<JsonObject> frames = new ArrayList<>();
        long deadline = System.nanoTime() + window.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                frames.add(client.next(Duration.ofMillis(Math.max(1, (deadline - System.nanoTime()) / 1_000_000))));
            } catch (AssertionError quiet) {
                break;
            }
        }
        return frames;
    }

    @Test
    void pythonAndJavaScriptRegistrationsAreAcceptedAndChatFlows() {
        try (SynapseClient alice = SynapseClient.register(ws(), "stock/py-alice", pythonRegistration().build());
             SynapseClient bob = SynapseClient.register(ws(), "stock/js-bob",
                     Json.createObjectBuilder().add("protocol_version", 4).build())) {
            alice.send(SynapseClient.frame("chat", "all", "hello everyone"));
            alice.send(SynapseClient.frame("chat", "stock/js-bob", "psst bob"));
            bob.expect(f -> chat(f, "hello everyone"), WAIT);
            JsonObject directed = bob.expect(f -> chat(f, "psst bob"), WAIT);
            assertEquals("stock/py-alice", directed.getString("sender"));
            assertTrue(directed.containsKey("seq"));
            alice.send(SynapseClient.frame("heartbeat", "System", "alive"));
            bob.send(SynapseClient.frame("who_request", "all", ""));
            JsonObject who = bob.expectType("who_snapshot");
            assertTrue(who.getJsonArray("online_agents").contains(Json.createValue("stock/py-alice")));
            assertEquals("direct", who.getJsonObject("wake_capabilities").getString("stock/py-alice"));
            alice.expectNone(f -> "error".equals(f.getString("type", "")), Duration.ofMillis(500));
        }
    }

    @Test
    void aMailboxRegistrantGetsEachDirectedChatOnceWhileItsReplayIsPending() {
        try (SynapseClient alice = SynapseClient.register(ws(), "stock/alice2")) {
            alice.send(SynapseClient.frame("chat", "stock/bob2", "while you were away"));
            alice.expect(f -> chat(f, "while you were away"), WAIT);
            try (SynapseClient bob = SynapseClient.connect(ws(), "stock/bob2")) {
                bob.expectType("welcome");
                bob.send(SynapseClient.frame("heartbeat", "System", "online").addAll(pythonRegistration())
                        .add("mailbox", true).add("since_seq", 0));
                for (int i = 0; i < 5; i++) { // right behind the registration: some land before the replay runs
                    alice.send(SynapseClient.frame("chat", "stock/bob2", "live " + i));
                }
                List<JsonObject> frames = drain(bob, Duration.ofSeconds(3));
                assertEquals(1, frames.stream().filter(f -> chat(f, "while you were away")).count(), "replayed once");
                for (int i = 0; i < 5; i++) {
                    String payload = "live " + i;
                    assertEquals(1, frames.stream().filter(f -> chat(f, payload)).count(), payload + " exactly once");
                }
            }
        }
    }

    @Test
    void aBackToBackResendWithTheSameClientMsgIdIsSuppressed() {
        try (SynapseClient alice = SynapseClient.register(ws(), "stock/alice3");
             SynapseClient bob = SynapseClient.register(ws(), "stock/bob3")) {
            JsonObject chat = SynapseClient.frame("chat", "stock/bob3", "dedupe me").add("client_msg_id", "w-0001").build();
            alice.send(chat);
            alice.send(Json.createObjectBuilder(chat).add("timestamp", System.currentTimeMillis() / 1000.0 + 0.001).build());
            JsonObject notice = alice.expect(f -> "system".equals(f.getString("type", ""))
                    && f.getBoolean("duplicate", false), WAIT);
            assertEquals("w-0001", notice.getString("client_msg_id"));
            List<JsonObject> frames = drain(bob, Duration.ofSeconds(2));
            assertEquals(1, frames.stream().filter(f -> chat(f, "dedupe me")).count());
        }
    }
}
