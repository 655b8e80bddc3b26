package org.switchboard.itests.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.switchboard.itests.redsyn.Relay;
import org.switchboard.itests.redsyn.RedsynClient;
import org.switchboard.itests.redsyn.RedsynClient.Reply;

/**
 * The few checks that prove a deployment of the EAR works on a full application server: SYNAPSE chat
 * round trip and mailbox replay, REDSYN send/take/ack, the application's /health, and a log free of
 * stack traces.
 */
public final class AppServerSmoke {

    /** The REDSYN admin token the smoke tests give the server (REDSYN_ADMIN_TOKEN). */
    public static final String ADMIN = "deploy-admin-token-123";
    private static final Duration WAIT = Duration.ofSeconds(20);

    private AppServerSmoke() {
    }

    /** The environment every smoke deployment runs with. */
    public static java.util.Map<String, String> environment() {
        return AppServer.env("REDSYN_ADMIN_TOKEN", ADMIN);
    }

    /** A directed chat is relayed with a receipt; a chat to an absent agent is replayed from its mailbox. */
    public static void synapseChatAndMailboxReplay(AppServer server, String prefix) {
        try (SynapseClient alice = SynapseClient.register(server.webSocketUri(), prefix + "/alice");
             SynapseClient bob = SynapseClient.register(server.webSocketUri(), prefix + "/bob")) {
            alice.send(SynapseClient.frame("chat", prefix + "/bob", "hello bob").add("receipt_requested", true));
            JsonObject relayed = bob.expect(f -> "chat".equals(f.getString("type", ""))
                    && "hello bob".equals(f.getString("payload", "")), WAIT);
            assertEquals(prefix + "/alice", relayed.getString("sender"));
            JsonObject receipt = alice.expect(f -> "delivery_receipt".equals(f.getString("type", "")), WAIT);
            assertTrue(!receipt.getBoolean("dead_lettered", false), receipt.toString());
        }
        long seq;
        // another sender: alice's first socket may still be online while the server handles its close
        // (seen on WildFly), and a second alice then gets name_conflict, as the protocol says
        try (SynapseClient dave = SynapseClient.register(server.webSocketUri(), prefix + "/dave")) {
            dave.send(SynapseClient.frame("chat", prefix + "/carol", "while away").add("receipt_requested", true));
            JsonObject receipt = dave.expect(f -> "delivery_receipt".equals(f.getString("type", "")), WAIT);
            assertTrue(receipt.getBoolean("dead_lettered"), receipt.toString());
            seq = receipt.getJsonNumber("message_seq").longValue();
        }
        JsonObject mailbox = Json.createObjectBuilder().add("mailbox", true).add("since_seq", 0).build();
        try (SynapseClient carol = SynapseClient.register(server.webSocketUri(), prefix + "/carol", mailbox)) {
            JsonObject replayed = carol.expect(f -> "chat".equals(f.getString("type", ""))
                    && f.getBoolean("replayed", false), WAIT);
            assertEquals("while away", replayed.getString("payload"));
            assertEquals(seq, replayed.getJsonNumber("seq").longValue());
        }
    }

    /** A request sent by one agent is taken from the other's inbox and acknowledged. */
    public static void redsynSendTakeAck(AppServer server, String org) {
        RedsynClient c = new RedsynClient("http://127.0.0.1:" + server.port() + "/redsyn");
        String owner = node(c, person(c, "owner@" + org + ".test", "enterprise"));
        String ana = node(c, person(c, "ana@" + org + ".test", null));
        Reply created = c.post("/v1/orgs", owner, Relay.obj("handle", org, "me", "owner"));
        assertEquals(201, created.status(), created.toString());
        Reply invited = c.post("/v1/orgs/" + org + "/invites", owner,
                Relay.obj("email", "ana@" + org + ".test", "team", "general"));
        assertEquals(201, invited.status(), invited.toString());
        Reply joined = c.post("/v1/orgs/" + org + "/join", ana, Relay.obj("me", "ana"));
        assertEquals(201, joined.status(), joined.toString());
        String inbox = org + "/general/owner/shout";
        Reply announced = c.put("/v1/agents/" + inbox, owner, Relay.obj("listening", true));
        assertTrue(announced.status() == 200 || announced.status() == 201, announced.toString());
        Reply sent = c.post("/v1/messages", ana, Relay.request(org + "/general/ana/cli", inbox, "hello"));
        assertEquals(201, sent.status(), sent.toString());
        String id = sent.json().getString("id");
        Reply taken = c.get("/v1/inbox/" + inbox + "?wait=5&lease=300", owner);
        assertEquals(200, taken.status(), taken.toString());
        JsonArray items = taken.items();
        assertEquals(1, items.size(), taken.toString());
        assertEquals(id, items.getJsonObject(0).getString("id"));
        assertEquals("hello", items.getJsonObject(0).getJsonObject("body").getString("text"));
        Reply acked = c.post("/v1/inbox/" + inbox + "/ack", owner, Relay.obj("ids", List.of(id)));
        assertEquals(200, acked.status(), acked.toString());
        assertEquals(0, c.get("/v1/inbox/" + inbox, owner).items().size(), "acknowledged messages are gone");
    }

    /** The application's own /health answers ok (not the server's MicroProfile Health). */
    public static void applicationHealth(AppServer server) throws Exception {
        HttpResponse<String> health = server.get("/health");
        assertEquals(200, health.statusCode(), health.body());
        assertTrue(health.body().contains("\"status\":\"ok\""), health.body());
    }

    /**
     * The server's own readiness endpoint (WildFly's /health/ready on the management port, Payara's
     * /mphealth/ready) lists the application's check "switchboard" exactly once, UP.
     */
    public static void serverReportsApplicationReady(AppServer server) {
        String health = server.serverReadiness();
        assertTrue(health.startsWith("200 "), health);
        List<JsonObject> checks = AppServer.applicationChecks(health);
        assertEquals(1, checks.size(), "one check named switchboard: " + health);
        assertEquals("UP", checks.get(0).getString("status"), health);
    }

    /** The log since the last start (or restart) holds no stack trace. */
    public static void noStackTraceSinceStart(AppServer server) {
        List<String> traces = server.stackTracesSinceStart();
        assertTrue(traces.isEmpty(), "stack traces in " + server.serverLog() + ": " + traces);
    }

    private static long person(RedsynClient c, String email, String plan) {
        var b = Json.createObjectBuilder().add("email", email);
        if (plan != null) {
            b.add("plan", plan);
        }
        Reply r = c.post("/admin/persons", ADMIN, b.build());
        assertEquals(201, r.status(), r.toString());
        return r.json().getJsonNumber("id").longValue();
    }

    private static String node(RedsynClient c, long personId) {
        Reply r = c.post("/admin/persons/" + personId + "/nodes", ADMIN, Relay.obj("name", "laptop"));
        assertEquals(201, r.status(), r.toString());
        return r.json().getString("token");
    }
}
