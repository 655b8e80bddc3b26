package org.switchboard.itests.redsyn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.request;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.switchboard.itests.redsyn.RedsynClient.Reply;

/**
 * Runs the document's example agent ({@link ShoutAgent}: announce, long-poll, reply, ack) against the
 * packaged server, and talks to it as {@code syn agent send joel/shout "hello" --plain --wait} would.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedsynExampleAgentIT {

    private Relay relay;
    private ShoutAgent agent;
    private Thread loop;
    private String token;

    @BeforeAll
    void start() throws Exception {
        relay = Relay.shared(); // names under "shoutco", unique to this class
        token = relay.personWithNode("joel@shoutco.test", null);
        assertEquals(201, relay.client.post("/v1/orgs", token, obj("handle", "shoutco", "me", "joel")).status());
        agent = new ShoutAgent("http://127.0.0.1:" + relay.hub.port() + "/redsyn/v1", "shoutco/general/joel/shout", token);
        assertEquals(201, agent.announce());
        loop = new Thread(agent, "shout-agent");
        loop.setDaemon(true);
        loop.start();
    }

    @AfterAll
    void stop() throws Exception {
        if (agent != null) {
            agent.stop();
            // the loop is parked in a 25 s long poll; interrupting ends it now instead of when the poll does
            loop.interrupt();
            loop.join(30_000);
        }
        if (relay != null) {
            relay.stop();
        }
    }

    @Test
    void theExampleAgentAnswersInCapitals() {
        JsonObject agentView = relay.client.get("/v1/agents/shoutco/general/joel/shout", token).json();
        assertTrue(agentView.getBoolean("online"));
        assertEquals("answers in capitals", agentView.getString("description"));

        for (String word : new String[] {"hello", "second request", "ünïcode"}) {
            Reply sent = relay.client.post("/v1/messages", token, request("shoutco/general/joel/cli", "joel/shout", word));
            assertEquals(201, sent.status(), sent.toString());
            String id = sent.json().getString("id");
            // syn agent send ... --wait: wait for the reply to this request
            JsonArray back = relay.client.get("/v1/inbox/shoutco/general/joel/cli?wait=25&reply_to=" + id, token).items();
            assertEquals(1, back.size(), "reply to " + word);
            JsonObject reply = back.getJsonObject(0);
            assertEquals("reply", reply.getString("kind"));
            assertEquals(id, reply.getString("reply_to"));
            assertTrue(reply.getString("from").startsWith("shoutco/general/joel/shout#s"), reply.getString("from"));
            assertEquals("shoutco/general/joel/cli", reply.getString("to"));
            assertEquals(word.toUpperCase(java.util.Locale.ROOT), reply.getJsonObject("body").getString("text"));
            relay.client.post("/v1/inbox/shoutco/general/joel/cli/ack", token, obj("ids", java.util.List.of(reply.getString("id"))));

            JsonObject thread = relay.client.get("/v1/threads/" + id, token).json();
            assertEquals("done", thread.getJsonArray("messages").getJsonObject(0).getString("state"), "the request is closed");
        }
        assertEquals(3, agent.answered());
        assertEquals(0, relay.client.get("/v1/inbox/shoutco/general/joel/shout?peek=1", token).items().size(), "everything taken was confirmed");
    }
}
