package org.switchboard.synapse.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;

/**
 * history, resume and channel history replies through the hub with the default 4 MiB reply budget:
 * 12 chats of 400,000 characters (4.8 MB) never come back in one frame; each reply carries what fits,
 * {@code truncated: true} and a cursor, and following the cursors returns every chat exactly once.
 */
class BoundedRepliesTest {

    private static final long BUDGET = SynapseSettings.DEFAULT_MAX_REPLY_BYTES;
    private static final int CHATS = 12;

    private static long size(JsonObject frame) {
        return frame.toString().getBytes(StandardCharsets.UTF_8).length;
    }

    private static List<String> payloads(List<JsonObject> chats) {
        return chats.stream().map(c -> c.getString("payload").substring(0, 4)).toList();
    }

    private static void big(TestHub.Client alice) {
        for (int i = 0; i < CHATS; i++) {
            alice.chat("all", String.format("%04d", i) + "x".repeat(400_000));
        }
    }

    @Test
    void historyPagesBackwardsWithinTheBudget() {
        TestHub test = new TestHub();
        TestHub.Client alice = test.register("proj/alice");
        TestHub.Client bob = test.register("proj/bob");
        big(alice);
        List<String> seen = new ArrayList<>();
        bob.send(TestHub.frame("history_request", "System", "history"));
        JsonObject page = bob.peer().lastOfType("history_snapshot");
        assertTrue(size(page) <= BUDGET, size(page) + " bytes");
        assertTrue(page.getBoolean("truncated"));
        assertEquals("all", page.getString("requested_limit"));
        List<JsonObject> history = page.getJsonArray("history").getValuesAs(JsonObject.class);
        assertEquals("0011", payloads(history).get(history.size() - 1), "the newest are returned");
        seen.addAll(0, payloads(history));
        while (page.getBoolean("truncated", false)) {
            bob.send(TestHub.frame("history_request", "System", "history")
                    .add("before_msg_id", page.getJsonNumber("next_before_msg_id").longValue()));
            page = bob.peer().lastOfType("history_snapshot");
            assertTrue(size(page) <= BUDGET, size(page) + " bytes");
            seen.addAll(0, payloads(page.getJsonArray("history").getValuesAs(JsonObject.class)));
        }
        assertEquals(CHATS, seen.size());
        assertEquals(seen.stream().sorted().toList(), seen, "oldest first, each once");

        bob.send(TestHub.frame("history_request", "System", "history").add("limit", 2));
        JsonObject two = bob.peer().lastOfType("history_snapshot");
        assertEquals(List.of("0010", "0011"), payloads(two.getJsonArray("history").getValuesAs(JsonObject.class)));
        assertFalse(two.containsKey("truncated"), "a reply the budget did not cut has its usual members only");
    }

    @Test
    void resumePagesForwardWithinTheBudget() {
        TestHub test = new TestHub();
        TestHub.Client alice = test.register("proj/alice");
        TestHub.Client bob = test.register("proj/bob");
        big(alice);
        List<String> seen = new ArrayList<>();
        long since = 0;
        for (int round = 0; round < CHATS; round++) {
            bob.send(TestHub.frame("resume_request", "System", "resume").add("since", since));
            JsonObject page = bob.peer().lastOfType("resume_snapshot");
            assertTrue(size(page) <= BUDGET, size(page) + " bytes");
            assertEquals(since, page.getJsonNumber("since").longValue());
            seen.addAll(payloads(page.getJsonArray("messages").getValuesAs(JsonObject.class)));
            if (!page.getBoolean("truncated", false)) {
                break;
            }
            since = page.getJsonNumber("next_since").longValue();
        }
        assertTrue(since > 0, "at least one page was cut");
        assertEquals(CHATS, seen.size());
        assertEquals(seen.stream().sorted().toList(), seen);
    }

    @Test
    void channelHistoryIsBoundedToo() {
        TestHub test = new TestHub();
        TestHub.Client alice = test.register("proj/alice");
        alice.send(TestHub.frame("channel_create", "System", "c").add("channel", "ops"));
        for (int i = 0; i < CHATS; i++) {
            alice.send(TestHub.frame("chat", "all", String.format("%04d", i) + "y".repeat(400_000)).add("channel", "ops"));
        }
        alice.send(TestHub.frame("channel_history_request", "System", "h").add("channel", "ops").add("limit", 100));
        JsonObject page = alice.peer().lastOfType("channel_history");
        assertTrue(size(page) <= BUDGET, size(page) + " bytes");
        assertTrue(page.getBoolean("truncated"));
        List<JsonObject> messages = page.getJsonArray("messages").getValuesAs(JsonObject.class);
        assertEquals("0011", payloads(messages).get(messages.size() - 1));
        assertEquals(messages.get(0).getJsonNumber("msg_id").longValue(), page.getJsonNumber("next_before_msg_id").longValue());
    }
}
