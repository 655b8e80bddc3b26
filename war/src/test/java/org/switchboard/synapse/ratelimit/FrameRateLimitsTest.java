package org.switchboard.synapse.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.FakePeer;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.RateLimits;

/** The two rate gates as the dispatcher applies them (real hub, fake sockets, real monotonic clock). */
class FrameRateLimitsTest {

    private static TestHub hub(RateLimits limits) {
        return new TestHub(SynapseSettings.builder().rateLimits(limits).build(), new InMemoryJournal());
    }

    private static List<JsonObject> errors(TestHub.Client client, String payload) {
        return client.peer().ofType("error").stream().filter(f -> payload.equals(f.getString("payload"))).toList();
    }

    @Test
    void offByDefault() {
        TestHub test = new TestHub();
        TestHub.Client alice = test.register("p/alice");
        for (int i = 0; i < 200; i++) {
            alice.chat("all", "m" + i);
        }
        assertTrue(alice.peer().ofType("error").isEmpty());
        assertEquals(0, test.hub.context().counters().rateLimited.sum());
    }

    @Test
    void perSenderLimitRefusesWithTheSenderAsTargetExemptsHeartbeatsAndCounts() {
        TestHub test = hub(new RateLimits(0.001, 2, 0, 0)); // two frames, then one per 1000 s
        TestHub.Client alice = test.register("p/alice"); // registration heartbeat: exempt
        alice.chat("all", "one");
        alice.chat("all", "two");
        alice.chat("all", "three");
        List<JsonObject> refused = errors(alice, "Rate limit exceeded.");
        assertEquals(1, refused.size());
        assertEquals("p/alice", refused.get(0).getString("target"));
        assertEquals(List.of("one", "two"), alice.peer().ofType("chat").stream().map(f -> f.getString("payload")).toList(),
                "the refused chat was not processed");
        assertEquals(1, test.hub.context().counters().rateLimited.sum());

        for (int i = 0; i < 10; i++) {
            alice.send(TestHub.frame("heartbeat", "System", "online"));
        }
        assertEquals(1, errors(alice, "Rate limit exceeded.").size(), "heartbeats are exempt");
        assertEquals(0, alice.peer().closeCode(), "the socket stays open");

        TestHub.Client bob = test.register("p/bob");
        bob.chat("all", "bob has his own bucket");
        assertTrue(errors(bob, "Rate limit exceeded.").isEmpty());
    }

    @Test
    void aSenderThatLeavesIsForgotten() {
        TestHub test = hub(new RateLimits(0.001, 1, 0, 0));
        TestHub.Client alice = test.register("p/alice");
        alice.chat("all", "one");
        alice.chat("all", "refused");
        assertEquals(1, errors(alice, "Rate limit exceeded.").size());
        alice.disconnect();
        TestHub.Client again = test.register("p/alice");
        again.chat("all", "after reconnect");
        assertTrue(errors(again, "Rate limit exceeded.").isEmpty(), "rate state is dropped with the name (§4.10)");
    }

    @Test
    void perHostLimitChargesEveryFrameAndAnswersWithTargetAll() throws InterruptedException {
        TestHub test = hub(new RateLimits(0, 0, 1, 3)); // three frames, then one per second
        TestHub.Client alice = test.register("p/alice"); // frame 1 (heartbeat)
        alice.send(TestHub.frame("heartbeat", "System", "online")); // 2: heartbeats are charged
        alice.chat("all", "three"); // 3
        alice.chat("all", "four"); // refused
        List<JsonObject> refused = errors(alice, "Host rate limit exceeded.");
        assertEquals(1, refused.size());
        assertEquals("all", refused.get(0).getString("target"), "frame-level refusal, even on a bound socket");
        assertEquals(List.of("three"), alice.peer().ofType("chat").stream().map(f -> f.getString("payload")).toList());

        FakePeer otherPeer = new FakePeer("192.0.2.7");
        Connection other = new Connection(otherPeer, 0);
        test.hub.opened(other);
        TestHub.Client carol = new TestHub.Client(test, "p/carol", otherPeer, other);
        carol.send(TestHub.frame("heartbeat", "System", "online"));
        carol.chat("all", "another host");
        assertTrue(errors(carol, "Host rate limit exceeded.").isEmpty(), "hosts have separate buckets");

        Thread.sleep(1100); // a token refills after one second
        alice.chat("all", "after the pause");
        assertEquals("after the pause", alice.peer().lastOfType("chat").getString("payload"), "the socket stays usable");
        assertEquals(0, alice.peer().closeCode());
        assertEquals(0, test.hub.context().counters().rateLimited.sum(), "the metric counts the per-sender limiter only");
    }

    @Test
    void malformedFramesAreRefusedBeforeTheHostGate() {
        TestHub test = hub(new RateLimits(0, 0, 0.001, 1));
        TestHub.Client alice = test.connect("p/alice");
        alice.sendRaw("{not json");
        alice.sendRaw("[]");
        assertEquals(List.of("Malformed JSON.", "Malformed frame: expected a JSON object."),
                alice.peer().ofType("error").stream().map(f -> f.getString("payload")).toList());
        alice.sendRaw("{\"type\":\"heartbeat\",\"sender\":\"p/alice\"}"); // the host's one token
        assertFalse(alice.peer().ofType("presence_update").isEmpty(), "registered with the host's only token");
    }
}
