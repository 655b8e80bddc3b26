package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Ingress limits on one hub configured through the environment: the per-sender rate limit
 * (1 frame/s, burst 3, heartbeats exempt, counted in /metrics), the per-host rate limit (20
 * frames/s, burst 60, every frame) and a 4 KiB maximum frame (close 1009 beyond it).
 */
class LimitsIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String RATE_LIMITED = "Rate limit exceeded.";
    private static final String HOST_RATE_LIMITED = "Host rate limit exceeded.";
    private static HubServer hub;

    @BeforeAll
    static void start() {
        hub = HubServer.start(HubServer.env(
                "HUB_RATE_LIMIT_PER_SENDER", "1", "HUB_RATE_LIMIT_PER_SENDER_BURST", "3",
                "HUB_RATE_LIMIT_PER_HOST", "20", "HUB_RATE_LIMIT_PER_HOST_BURST", "60",
                "HUB_MAX_FRAME_KIB", "4"));
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    /** Every test's sockets come from 127.0.0.1 and share one host bucket: let it fill up again (60 at 20/s). */
    @BeforeEach
    void letTheHostBucketRefill() throws InterruptedException {
        Thread.sleep(3_200);
    }

    private static boolean error(JsonObject frame, String payload) {
        return "error".equals(frame.getString("type", "")) && payload.equals(frame.getString("payload", ""));
    }

    private static boolean chatEcho(JsonObject frame, String payload) {
        return "chat".equals(frame.getString("type", "")) && payload.equals(frame.getString("payload", ""));
    }

    /** Frames received up to and including the first one matching {@code last}. */
    private static List<JsonObject> framesUntil(SynapseClient client, Predicate<JsonObject> last) {
        List<JsonObject> seen = new ArrayList<>();
        while (true) {
            JsonObject frame = client.next(WAIT);
            seen.add(frame);
            if (last.test(frame)) {
                return seen;
            }
        }
    }

    private static long rateLimitedTotal() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(hub.http("/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        Matcher m = Pattern.compile("(?m)^synapse_rate_limited_total (\\d+)$").matcher(response.body());
        assertTrue(m.find(), response.body());
        return Long.parseLong(m.group(1));
    }

    @Test
    void aSenderOverItsRateGetsRateLimitExceededAndStaysUsable() throws Exception {
        long before = rateLimitedTotal();
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "limits/alice")) {
            for (int i = 1; i <= 6; i++) {
                alice.send(SynapseClient.frame("chat", "all", "burst " + i));
            }
            JsonObject refused = alice.expect(f -> error(f, RATE_LIMITED), WAIT);
            assertEquals("limits/alice", refused.getString("target"), "per-sender refusals name the sender");
            assertTrue(rateLimitedTotal() > before, "counted in synapse_rate_limited_total");

            Thread.sleep(3_200); // the sender bucket refills
            alice.expectNone(f -> false, Duration.ofMillis(300)); // drop what the burst left queued
            for (int i = 0; i < 10; i++) {
                alice.send(SynapseClient.frame("heartbeat", "System", "online"));
            }
            alice.send(SynapseClient.frame("chat", "all", "after the pause"));
            List<JsonObject> frames = framesUntil(alice, f -> chatEcho(f, "after the pause"));
            assertTrue(frames.stream().noneMatch(f -> error(f, RATE_LIMITED)), "heartbeats are exempt: " + frames);
            assertFalse(alice.isClosed());
        }
    }

    @Test
    void aHostOverItsRateGetsHostRateLimitExceededWithTargetAllAndStaysUsable() throws Exception {
        try (SynapseClient bob = SynapseClient.register(hub.webSocketUri(), "limits/bob")) {
            for (int i = 0; i < 100; i++) {
                bob.send(SynapseClient.frame("heartbeat", "System", "online")); // heartbeats are charged per host
            }
            JsonObject refused = bob.expect(f -> error(f, HOST_RATE_LIMITED), WAIT);
            assertEquals("all", refused.getString("target"), "a frame-level refusal, even on a bound socket");

            Thread.sleep(3_200);
            bob.send(SynapseClient.frame("chat", "all", "host calmed down"));
            bob.expect(f -> chatEcho(f, "host calmed down"), WAIT);
            assertFalse(bob.isClosed());
        }
    }

    @Test
    void aFrameWithinTheConfiguredSizeIsAnsweredAndALargerOneClosesWith1009() {
        try (SynapseClient carol = SynapseClient.register(hub.webSocketUri(), "limits/carol")) {
            String threeKib = "x".repeat(3 * 1024);
            carol.send(SynapseClient.frame("chat", "all", threeKib));
            carol.expect(f -> chatEcho(f, threeKib), WAIT);

            carol.send(SynapseClient.frame("chat", "all", "y".repeat(5 * 1024)));
            assertEquals(1009, carol.awaitClose(WAIT));
        }
    }

    @Test
    void theSizeLimitCountsUtf8BytesNotCharacters() {
        try (SynapseClient dave = SynapseClient.register(hub.webSocketUri(), "limits/dave")) {
            // 1600 chars of a three-byte character: 4800 bytes, under 4 KiB in characters but over it in bytes
            dave.send(SynapseClient.frame("chat", "all", "\u20ac".repeat(1600)));
            assertEquals(1009, dave.awaitClose(WAIT));
        }
    }
}
