package org.switchboard.itests.redsyn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.request;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.switchboard.itests.redsyn.RedsynClient.Reply;

/** kill -9: every message the relay accepted (201) before the crash is delivered after restart; leases and attempts survive. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedsynCrashIT {

    private Relay relay;

    @BeforeAll
    void start() {
        relay = Relay.start();
    }

    @AfterAll
    void stop() {
        if (relay != null) {
            relay.stop();
        }
    }

    @Test
    void acceptedMessagesLeasesAndAttemptsSurviveKill9() {
        RedsynClient c = relay.client;
        String token = relay.personWithNode("joel@acme.test", "enterprise");
        assertEquals(201, c.post("/v1/orgs", token, obj("handle", "acme", "me", "joel")).status());
        assertEquals(201, c.put("/v1/agents/acme/general/joel/box", token, obj("listening", true)).status());

        // two messages taken before the crash: one on a long lease, one whose lease will have run out
        String held = c.post("/v1/messages", token, request("acme/general/joel/cli", "box", "held")).json().getString("id");
        assertEquals(held, c.get("/v1/inbox/acme/general/joel/box?lease=900", token).items().getJsonObject(0).getString("id"));
        String lapsed = c.post("/v1/messages", token, request("acme/general/joel/cli", "box", "lapsed")).json().getString("id");
        assertEquals(lapsed, c.get("/v1/inbox/acme/general/joel/box?lease=1", token).items().getJsonObject(0).getString("id"));

        Set<String> accepted = new LinkedHashSet<>();
        for (int i = 0; i < 300; i++) {
            Reply r = c.post("/v1/messages", token, request("acme/general/joel/cli", "box", "message " + i));
            assertEquals(201, r.status(), r.toString());
            accepted.add(r.json().getString("id"));
        }
        relay.hub.kill9(); // right after the last 201: nothing gets a chance to flush
        relay.hub.restart();

        Set<String> delivered = new HashSet<>();
        JsonObject lapsedAgain = null;
        for (int round = 0; round < 50 && (!delivered.containsAll(accepted) || lapsedAgain == null); round++) {
            JsonArray items = c.get("/v1/inbox/acme/general/joel/box?wait=5", token).items();
            for (JsonValue v : items) {
                JsonObject e = v.asJsonObject();
                delivered.add(e.getString("id"));
                if (e.getString("id").equals(lapsed)) {
                    lapsedAgain = e;
                }
            }
            List<String> ids = items.stream().map(v -> v.asJsonObject().getString("id")).toList();
            if (!ids.isEmpty()) {
                c.post("/v1/inbox/acme/general/joel/box/ack", token, obj("ids", ids));
            }
        }
        Set<String> missing = new LinkedHashSet<>(accepted);
        missing.removeAll(delivered);
        assertTrue(missing.isEmpty(), missing.size() + " accepted messages lost, e.g. " + missing.stream().limit(5).toList());
        assertTrue(lapsedAgain != null, "the message whose lease ran out during the crash comes back");
        assertEquals(2, lapsedAgain.getInt("attempts"), "attempts survive the restart");
        assertTrue(!delivered.contains(held), "a lease still running after the restart is honoured");
        JsonObject heldNow = c.get("/v1/threads/" + held, token).json().getJsonArray("messages").getJsonObject(0);
        assertEquals("taken", heldNow.getString("state"));
        assertEquals(1, heldNow.getInt("attempts"));
    }
}
