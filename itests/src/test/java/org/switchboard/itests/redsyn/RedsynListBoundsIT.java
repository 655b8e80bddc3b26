package org.switchboard.itests.redsyn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.request;

import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.switchboard.itests.redsyn.RedsynClient.Reply;

/**
 * Issue 14: every REDSYN list reply is bounded in bytes. One hub with a 256 KiB list budget; a thread
 * (and so its session) and the directory are filled past it with large entries; each reply stays
 * within the budget, says {@code truncated} with a {@code next_cursor}, and following the cursors
 * returns every entry exactly once, in order.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedsynListBoundsIT {

    private static final int BUDGET = 256 * 1024;
    private static final String DESK = "acme/general/joel/desk";
    private static final String CLI = "acme/general/joel/cli";

    private Relay relay;
    private RedsynClient c;
    private String joel;
    private String thread;
    private String sid;
    private final List<String> sent = new ArrayList<>();

    @BeforeAll
    void start() {
        relay = Relay.start("REDSYN_LIST_MAX_BYTES", Integer.toString(BUDGET));
        c = relay.client;
        joel = relay.personWithNode("joel@acme.test", "enterprise");
        assertEquals(201, c.post("/v1/orgs", joel, obj("handle", "acme", "me", "joel")).status());
        assertEquals(201, c.put("/v1/agents/" + DESK, joel, obj("listening", true, "description", "desk")).status());
        // 12 messages of ~60 KB in one thread: ~720 KB, almost three budgets
        for (int i = 0; i < 12; i++) {
            JsonObject envelope = request(CLI, DESK, i + ":" + "x".repeat(60_000));
            if (thread != null) {
                envelope = Relay.merge(envelope, "thread", thread);
            }
            Reply r = c.post("/v1/messages", joel, envelope);
            assertEquals(201, r.status(), r.toString());
            thread = r.json().getString("thread");
            sent.add(r.json().getString("id"));
            String to = r.json().getString("to");
            sid = to.substring(to.indexOf('#') + 1);
        }
    }

    @AfterAll
    void stop() {
        if (relay != null) {
            relay.stop();
        }
    }

    /** Follows next_cursor from the first page; asserts each page's bound; returns every entry's key in order. */
    private List<String> follow(String path, String list, String key) {
        List<String> keys = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Reply r = c.get(path + (cursor == null ? "" : (path.contains("?") ? "&" : "?") + "cursor=" + cursor), joel);
            assertEquals(200, r.status(), () -> r.status() + " " + r.text().substring(0, Math.min(300, r.text().length())));
            int bytes = r.text().getBytes(StandardCharsets.UTF_8).length;
            assertTrue(bytes <= BUDGET, path + " page " + pages + " is " + bytes + " bytes, over the " + BUDGET + "-byte budget");
            JsonObject page = r.json();
            page.getJsonArray(list).forEach(v -> keys.add(v.asJsonObject().getString(key)));
            boolean truncated = page.getBoolean("truncated", false);
            assertEquals(truncated, page.containsKey("next_cursor"), "next_cursor exactly when truncated: " + path);
            cursor = truncated ? page.getString("next_cursor") : null;
            pages++;
            assertTrue(pages < 100, "the cursor advances");
        } while (cursor != null);
        assertTrue(pages > 1, path + " needed more than one page (it holds more than the budget), got " + pages);
        return keys;
    }

    @Test
    void aThreadPastTheBudgetComesInBoundedPagesEachMessageOnce() {
        List<String> ids = follow("/v1/threads/" + thread, "messages", "id");
        assertEquals(sent, ids, "every message of the thread exactly once, in order");
        assertEquals(0, c.get("/v1/threads/" + thread, joel).json().getInt("hidden"));
    }

    @Test
    void aSessionPastTheBudgetComesInBoundedPagesEachMessageOnce() {
        List<String> ids = follow("/v1/agents/" + DESK + "/sessions/" + sid, "messages", "id");
        assertEquals(sent, ids, "every message of the session exactly once, in order");
    }

    @Test
    void theDirectoryPastTheBudgetComesInBoundedPagesEachAgentOnce() {
        Set<String> announced = new HashSet<>(List.of(DESK));
        String description = "d".repeat(1_900);
        for (int i = 0; i < 160; i++) {
            String address = "acme/general/joel/a" + i;
            Reply r = c.put("/v1/agents/" + address, joel, obj("listening", false, "description", description));
            assertEquals(201, r.status(), r.toString());
            announced.add(address);
        }
        List<String> listed = follow("/v1/directory", "agents", "address");
        assertEquals(listed.size(), new HashSet<>(listed).size(), "no agent twice: " + listed);
        assertTrue(listed.containsAll(announced), "every announced agent is listed");
    }

    @Test
    void aCursorThatIsNoCursorIsA400InTheErrorShape() {
        Reply r = c.get("/v1/threads/" + thread + "?cursor=abc", joel);
        assertEquals(400, r.status(), r.toString());
        assertEquals(400, r.json().getInt("status"));
        assertFalse(r.json().getString("error").isBlank());
    }
}
