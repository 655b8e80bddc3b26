package org.switchboard.itests.redsyn.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.request;

import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.switchboard.itests.redsyn.RedsynClient;
import org.switchboard.itests.redsyn.RedsynClient.Reply;
import org.switchboard.itests.redsyn.Relay;

/**
 * The webhook retry schedule lives in the broker and the database, not in memory: a receiver that
 * answers 500 sees retries at growing intervals (10 s, 20 s, 40 s ... scaled by 0.1), the hub is
 * killed with SIGKILL between two retries, and after the restart the retries carry on where they
 * were until a 2xx takes the message, after which nothing more comes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebhookCrashIT {

    private static final String HOOK = "acme/general/joel/hook";

    private Relay relay;
    private Receiver receiver;

    @BeforeAll
    void start() {
        receiver = new Receiver();
        relay = Relay.start("REDSYN_WEBHOOK_ALLOW_LOOPBACK_HTTP", "true", "REDSYN_WEBHOOK_RETRY_SCALE", "0.1");
    }

    @AfterAll
    void stop() {
        if (relay != null) {
            relay.stop();
        }
        if (receiver != null) {
            receiver.close();
        }
    }

    @Test
    void retriesContinueAfterKill9UntilA2xxTakesTheMessage() throws Exception {
        RedsynClient c = relay.client;
        String joel = relay.personWithNode("joel@acme.test", "enterprise");
        assertEquals(201, c.post("/v1/orgs", joel, obj("handle", "acme", "me", "joel")).status());
        assertEquals(201, c.put("/v1/agents/" + HOOK, joel, obj("listening", true)).status());
        Reply set = c.put("/v1/agents/" + HOOK + "/webhook", joel, obj("url", receiver.url("/hook")));
        assertEquals(201, set.status(), set.toString());
        String secret = set.json().getString("secret");

        // attempts 1-3 and the first after the restart fail; the next one succeeds
        AtomicInteger calls = new AtomicInteger();
        receiver.respond("/hook", d -> calls.incrementAndGet() <= 4 ? 500 : 200);
        Reply sent = c.post("/v1/messages", joel, request("acme/general/joel/cli", HOOK, "survive the crash"));
        assertEquals(201, sent.status(), sent.toString());
        String id = sent.json().getString("id");

        List<Receiver.Delivery> before = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Receiver.Delivery d = receiver.next("/hook", 30_000);
            assertNotNull(d, "attempt " + (i + 1) + " never came");
            before.add(d);
        }
        long gap1 = millisBetween(before.get(0), before.get(1));
        long gap2 = millisBetween(before.get(1), before.get(2));
        assertTrue(gap1 >= 900, "first retry after ~1 s (10 s scaled), not " + gap1 + " ms");
        assertTrue(gap2 >= 1900, "second retry after ~2 s (20 s scaled), not " + gap2 + " ms");

        // the next retry is due ~4 s after attempt 3: kill the hub inside that window
        Thread.sleep(1000);
        relay.hub.kill9();
        long killedAt = System.nanoTime();
        assertNull(receiver.next("/hook", 0), "attempt 4 came before the kill; the test timing is off");
        relay.hub.restart();
        long readyAt = System.nanoTime();

        Receiver.Delivery fourth = receiver.next("/hook", 120_000);
        assertNotNull(fourth, "retries did not continue after the restart");
        assertTrue(fourth.arrivedNanos() > killedAt);
        Receiver.Delivery fifth = receiver.next("/hook", 60_000);
        assertNotNull(fifth, "the retry after the restart was not followed by the next one");
        long gap4 = millisBetween(fourth, fifth);
        System.out.printf("webhook retry gaps: %d ms, %d ms; kill -9 to ready %d ms; ready to attempt 4 %d ms; attempt 4 to 5 %d ms%n",
                gap1, gap2, TimeUnit.NANOSECONDS.toMillis(readyAt - killedAt),
                TimeUnit.NANOSECONDS.toMillis(fourth.arrivedNanos() - readyAt), gap4);
        assertTrue(gap4 >= 7500, "after the restart the schedule goes on (80 s scaled = 8 s), not " + gap4 + " ms");

        List<Receiver.Delivery> all = new ArrayList<>(before);
        all.add(fourth);
        all.add(fifth);
        int attempt = 0;
        for (Receiver.Delivery d : all) {
            attempt++;
            assertTrue(Receiver.genuine(d, secret), "attempt " + attempt + " is not signed with the secret");
            assertEquals(id, d.header("Redsyn-Delivery"));
            assertEquals(attempt, RedsynClient.parse(d.body()).asJsonObject().getInt("attempts"), "attempt count in the envelope");
        }

        // the 2xx took it: done, nothing in the inbox, and no further retries (the next would come 16 s later)
        assertNull(receiver.next("/hook", 20_000), "a retry came after the 2xx");
        assertEquals("done", state(c, joel, id));
        assertEquals(5, calls.get());
        assertEquals(0, c.get("/v1/inbox/" + HOOK + "?peek=1", joel).items().size());
    }

    private static String state(RedsynClient c, String token, String id) {
        for (JsonValue v : c.get("/v1/threads/" + id, token).json().getJsonArray("messages")) {
            if (v.asJsonObject().getString("id").equals(id)) {
                return v.asJsonObject().getString("state");
            }
        }
        throw new AssertionError("message " + id + " not in its thread");
    }

    private static long millisBetween(Receiver.Delivery a, Receiver.Delivery b) {
        return TimeUnit.NANOSECONDS.toMillis(b.arrivedNanos() - a.arrivedNanos());
    }
}
