package org.switchboard.itests.redsyn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.request;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.switchboard.itests.redsyn.RedsynClient.Reply;

/**
 * Black-box tests of the REDSYN directory and API surface against the packaged server: operator
 * bootstrap, tokens, /me, versions, errors, organisations, agents, policy, presence.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedsynApiIT {

    private Relay relay;
    private RedsynClient c;
    private String joel;
    private String ana;
    private String olga;
    private String out;
    private long joelId;

    @BeforeAll
    void start() {
        relay = Relay.start("REDSYN_PRESENCE_OFFLINE_AFTER", "3");
        c = relay.client;
        joelId = relay.person("joel@acme.test", "enterprise");
        joel = relay.node(joelId, "laptop");
        ana = relay.personWithNode("ana@acme.test", null);
        olga = relay.personWithNode("olga@acme.test", null);
        out = relay.personWithNode("out@globex.test", null);
        assertEquals(201, c.post("/v1/orgs", joel, obj("handle", "acme", "me", "joel")).status());
        assertEquals(201, c.post("/v1/orgs/acme/teams", joel, obj("handle", "ops")).status());
        assertEquals(201, c.post("/v1/orgs/acme/invites", joel, obj("email", "ana@acme.test", "team", "general")).status());
        assertEquals(201, c.post("/v1/orgs/acme/join", ana, obj("me", "ana")).status());
        assertEquals(201, c.post("/v1/orgs/acme/invites", joel, obj("email", "olga@acme.test", "team", "ops")).status());
        assertEquals(201, c.post("/v1/orgs/acme/join", olga, obj("me", "olga")).status());
        assertEquals(201, c.post("/v1/orgs", out, obj("handle", "globex", "me", "out")).status());
    }

    @AfterAll
    void stop() {
        if (relay != null) {
            relay.stop();
        }
    }

    // ---- operator bootstrap and tokens ------------------------------------------------------

    @Test
    void adminApiNeedsTheAdminToken() {
        assertEquals(401, c.post("/admin/persons", "wrong", obj("email", "x@y.test")).status());
        assertEquals(401, c.post("/admin/persons", null, obj("email", "x@y.test")).status());
        Reply bad = c.post("/admin/persons", Relay.ADMIN, obj("email", "not-an-email"));
        assertEquals(422, bad.status());
        assertEquals(422, bad.json().getInt("status"));
        assertTrue(bad.error().contains("email"), bad.toString());
        assertEquals(409, c.post("/admin/persons", Relay.ADMIN, obj("email", "joel@acme.test")).status());
        assertEquals(422, c.post("/admin/persons", Relay.ADMIN, obj("email", "gold@acme.test", "plan", "gold")).status());
        assertEquals(404, c.post("/admin/persons/999999/nodes", Relay.ADMIN, obj("name", "x")).status());
    }

    @Test
    void adminCreatesPersonsNodesAndChangesPlans() {
        Reply p = c.post("/admin/persons", Relay.ADMIN, obj("email", "Pro@Acme.test", "plan", "pro"));
        assertEquals(201, p.status());
        assertEquals("pro@acme.test", p.json().getString("email"));
        assertEquals("pro", p.json().getString("plan"));
        long id = p.json().getJsonNumber("id").longValue();
        Reply n = c.post("/admin/persons/" + id + "/nodes", Relay.ADMIN, obj("name", "server-1"));
        assertEquals(201, n.status());
        assertEquals("server-1", n.json().getString("node"));
        String token = n.json().getString("token");
        assertEquals(200, c.get("/v1/me", token).status());
        assertEquals(409, c.post("/admin/persons/" + id + "/nodes", Relay.ADMIN, obj("name", "server-1")).status());
        Reply plan = c.put("/admin/persons/" + id + "/plan", Relay.ADMIN, obj("plan", "enterprise"));
        assertEquals(200, plan.status());
        assertEquals("enterprise", plan.json().getString("plan"));
        assertEquals("enterprise", c.get("/v1/me", token).json().getJsonObject("person").getString("plan"));
    }

    @Test
    void everyCallNeedsAKnownToken() {
        Reply none = c.get("/v1/me", null);
        assertEquals(401, none.status());
        assertEquals(401, none.json().getInt("status"));
        assertEquals(401, c.get("/v1/me", "rsn_forged").status());
    }

    @Test
    void aNodeCreatesAnotherNodeOfTheSamePerson() {
        Reply r = c.post("/v1/nodes", joel, obj("name", "server"));
        assertEquals(201, r.status(), r.toString());
        String second = r.json().getString("token");
        assertNotEquals(joel, second);
        Reply me = c.get("/v1/me", second);
        assertEquals("joel@acme.test", me.json().getString("email"));
        assertEquals("server", me.json().getString("node"));
        assertEquals(409, c.post("/v1/nodes", joel, obj("name", "server")).status());
        assertEquals(422, c.post("/v1/nodes", joel, obj("name", "Bad Name")).status());
    }

    // ---- /me and versions -------------------------------------------------------------------

    @Test
    void meShowsPersonOrganisationsTeamsInvitesAndVersions() {
        assertEquals(201, c.post("/v1/orgs/acme/invites", joel, obj("email", "out@globex.test", "team", "ops")).status());
        JsonObject me = c.get("/v1/me", out).json();
        assertEquals("out@globex.test", me.getString("email"));
        assertEquals("globex", me.getJsonArray("orgs").getJsonObject(0).getString("handle"));
        assertEquals("out", me.getJsonArray("orgs").getJsonObject(0).getString("me"));
        assertTrue(me.getJsonArray("orgs").getJsonObject(0).getBoolean("admin"));
        assertEquals("globex/general", me.getJsonArray("teams").getString(0));
        JsonArray invites = me.getJsonArray("invites");
        assertEquals("acme", invites.getJsonObject(0).getString("org"));
        assertEquals("ops", invites.getJsonObject(0).getString("team"));
        assertEquals(List.of("2026-09-25"), me.getJsonArray("versions").getValuesAs(jakarta.json.JsonString.class)
                .stream().map(jakarta.json.JsonString::getString).toList());

        JsonObject olgaMe = c.get("/v1/me", olga).json();
        assertEquals("acme/ops", olgaMe.getJsonArray("teams").getString(0));
        assertFalse(olgaMe.getJsonArray("orgs").getJsonObject(0).getBoolean("admin"));
    }

    @Test
    void theVersionDateIsEchoedAndUnknownDatesAreRefused() {
        Reply sent = c.get("/v1/me", joel, "Redsyn-Version", "2026-09-25");
        assertEquals("2026-09-25", sent.header("Redsyn-Version"));
        Reply pinned = c.get("/v1/me", joel);
        assertEquals("2026-09-25", pinned.header("Redsyn-Version"));
        assertEquals("2026-09-25", pinned.json().getString("version"));
        Reply unknown = c.get("/v1/me", joel, "Redsyn-Version", "2019-01-01");
        assertEquals(400, unknown.status());
        assertTrue(unknown.error().contains("2026-09-25"), unknown.toString());
        assertEquals("2026-09-25", unknown.json().getJsonArray("known").getString(0));
        assertNotNull(unknown.header("Redsyn-Version"));
    }

    // ---- errors -----------------------------------------------------------------------------

    @Test
    void errorsAreAlwaysJson() {
        Reply notFound = c.get("/v1/unknown", joel);
        assertEquals(404, notFound.status());
        assertEquals(404, notFound.json().getInt("status"));
        assertEquals("2026-09-25", notFound.header("Redsyn-Version"));
        Reply notAllowed = c.call("DELETE", "/v1/me", joel, null);
        assertEquals(405, notAllowed.status());
        assertEquals(405, notAllowed.json().getInt("status"));
        Reply unsupported = c.post("/v1/orgs", joel, "handle=x", "Content-Type", "text/plain");
        assertEquals(415, unsupported.status());
        assertEquals(415, unsupported.json().getInt("status"));
        Reply badJson = c.post("/v1/orgs", joel, "{\"handle\": ");
        assertEquals(400, badJson.status());
        assertEquals(400, badJson.json().getInt("status"));
        Reply badEnvelopeJson = c.post("/v1/messages", joel, "[1, 2");
        assertEquals(400, badEnvelopeJson.status());
        Reply invalid = c.post("/v1/orgs", joel, obj("handle", "Has Spaces", "me", "joel"));
        assertEquals(422, invalid.status());
        assertTrue(invalid.error().contains("handle"), invalid.toString());
        Reply missing = c.post("/v1/orgs", joel, obj());
        assertEquals(422, missing.status());
        Reply badWait = c.get("/v1/inbox/acme/general/joel/shout?wait=soon", joel);
        assertEquals(422, badWait.status());
    }

    // ---- organisations ----------------------------------------------------------------------

    @Test
    void organisationsTeamsMembersInvitesJoinAndUsage() {
        assertEquals(409, c.post("/v1/orgs", ana, obj("handle", "acme", "me", "ana")).status());
        assertEquals(403, c.post("/v1/orgs/acme/teams", ana, obj("handle", "sales")).status());
        assertEquals(409, c.post("/v1/orgs/acme/teams", joel, obj("handle", "ops")).status());
        assertEquals(404, c.post("/v1/orgs/nope/teams", joel, obj("handle", "x")).status());
        assertEquals(201, c.post("/v1/orgs/acme/teams", joel, obj("handle", "finance")).status());
        Reply add = c.post("/v1/orgs/acme/teams/finance/members", joel, obj("who", "ana"));
        assertEquals(201, add.status(), add.toString());
        assertEquals(200, c.post("/v1/orgs/acme/teams/finance/members", joel, obj("who", "ana")).status());
        assertEquals(422, c.post("/v1/orgs/acme/teams/finance/members", joel, obj("who", "stranger")).status());
        assertEquals(403, c.post("/v1/orgs/acme/teams/finance/members", ana, obj("who", "olga")).status());
        assertTrue(c.get("/v1/me", ana).json().getJsonArray("teams").toString().contains("acme/finance"));

        String zoe = relay.personWithNode("zoe@acme.test", null);
        assertEquals(403, c.post("/v1/orgs/acme/join", zoe, obj("me", "zoe")).status());
        Reply invite = c.post("/v1/orgs/acme/invites", joel, obj("email", "zoe@acme.test", "team", "finance"));
        assertEquals(201, invite.status());
        assertEquals(403, c.post("/v1/orgs/acme/invites", zoe, obj("email", "x@acme.test")).status());
        assertEquals(409, c.post("/v1/orgs/acme/join", zoe, obj("me", "ana")).status());
        Reply joined = c.post("/v1/orgs/acme/join", zoe, obj("me", "zoe"));
        assertEquals(201, joined.status(), joined.toString());
        assertEquals("finance", joined.json().getJsonArray("teams").getString(0));
        assertEquals(0, c.get("/v1/me", zoe).json().getJsonArray("invites").size());

        Reply usage = c.get("/v1/orgs/acme/usage", zoe);
        assertEquals(200, usage.status());
        assertEquals("enterprise", usage.json().getString("plan"), "an organisation has its creator's plan");
        assertEquals(-1, usage.json().getJsonObject("limits").getInt("messages_per_day"));
        assertTrue(usage.json().getInt("agents") >= 0);
        assertEquals(403, c.get("/v1/orgs/acme/usage", out).status());
    }

    // ---- agents, policy, presence -----------------------------------------------------------

    @Test
    void announceCreatesThenUpdatesAndOnlyTheOwnerMay() {
        Reply first = c.put("/v1/agents/acme/general/joel/close", joel,
                obj("listening", true, "description", "closes books", "adapter", "claude", "allow", List.of("team:ops", "ana")));
        assertEquals(201, first.status(), first.toString());
        assertEquals("acme/general/joel/close", first.json().getString("address"));
        Reply again = c.put("/v1/agents/acme/general/joel/close", joel, obj("listening", true, "description", "closes"));
        assertEquals(200, again.status());
        assertEquals(403, c.put("/v1/agents/acme/general/joel/close", ana, obj("listening", true)).status());
        assertEquals(403, c.put("/v1/agents/acme/general/joel/mine", ana, obj("listening", true)).status());
        assertEquals(403, c.put("/v1/agents/acme/ops/joel/x", joel, obj("listening", true)).status());
        assertEquals(422, c.put("/v1/agents/acme/general/joel/close", joel, obj("listening", true, "trust", "full")).status());
        assertEquals(422, c.put("/v1/agents/acme/general/joel/close", joel, obj("listening", true, "trust", "maybe")).status());
        assertEquals(422, c.put("/v1/agents/acme/general/joel/close", joel, obj("listening", true, "allow", List.of("Bad One"))).status());

        JsonObject agent = c.get("/v1/agents/acme/general/joel/close", ana).json();
        assertTrue(agent.getBoolean("online"));
        assertEquals("laptop", agent.getString("node"));
        assertEquals("none", agent.getString("trust"));
        assertFalse(agent.getBoolean("encrypted_only"));
        assertEquals("team:general", agent.getJsonArray("accepts").getString(0), "an announce without allow means its own team");
        assertTrue(agent.containsKey("last_seen"));
        assertTrue(agent.containsKey("sessions"));
        assertEquals(404, c.get("/v1/agents/acme/general/joel/close", out).status(), "other organisations see nothing without a link");
        assertEquals(404, c.get("/v1/agents/acme/general/joel/nobody", joel).status());

        // a policy arrives only with listening: true
        c.put("/v1/agents/acme/general/joel/close", joel, obj("listening", true, "allow", List.of("team:ops")));
        c.put("/v1/agents/acme/general/joel/close", joel, obj("listening", false, "allow", List.of("org")));
        assertEquals("team:ops", c.get("/v1/agents/acme/general/joel/close", joel).json().getJsonArray("accepts").getString(0));
        assertFalse(c.get("/v1/agents/acme/general/joel/close", joel).json().getBoolean("listening"));
    }

    @Test
    void directoryListsReachableAgentsWithPresenceAndSessions() throws Exception {
        c.put("/v1/agents/acme/general/ana/dir1", ana, obj("listening", true));
        c.post("/v1/messages", joel, request("acme/general/joel/cli", "acme/general/ana/dir1", "hi"));
        JsonArray all = c.get("/v1/directory?sessions=1", joel).json().getJsonArray("agents");
        JsonObject dir1 = find(all, "acme/general/ana/dir1");
        assertNotNull(dir1);
        assertEquals(1, dir1.getJsonArray("sessions").size());
        assertFalse(dir1.getJsonArray("sessions").getJsonObject(0).containsKey("title"), "non-owners only see that it exists");
        assertNotNull(find(c.get("/v1/directory?online=1", joel).json().getJsonArray("agents"), "acme/general/ana/dir1"));
        assertTrue(c.get("/v1/directory", out).json().getJsonArray("agents").stream()
                .noneMatch(a -> a.asJsonObject().getString("address").startsWith("acme/")));

        Thread.sleep(3500); // redsyn.presence.offline-after is 3 s in this hub
        assertEquals(null, find(c.get("/v1/directory?online=1", joel).json().getJsonArray("agents"), "acme/general/ana/dir1"));
        assertFalse(c.get("/v1/agents/acme/general/ana/dir1", joel).json().getBoolean("online"));
        c.get("/v1/inbox/acme/general/ana/dir1?peek=1", ana); // any take is a heartbeat
        assertTrue(c.get("/v1/agents/acme/general/ana/dir1", joel).json().getBoolean("online"));
    }

    @Test
    void policyIsEnforcedBeforeAMessageIsStored() {
        c.put("/v1/agents/acme/general/joel/opsonly", joel, obj("listening", true, "allow", List.of("team:ops")));
        Reply refused = c.post("/v1/messages", ana, request("acme/general/ana/cli", "acme/general/joel/opsonly", "hi"));
        assertEquals(403, refused.status());
        assertEquals("acme/general/joel/opsonly takes requests only from team ops", refused.error());
        assertEquals(201, c.post("/v1/messages", olga, request("acme/ops/olga/cli", "acme/general/joel/opsonly", "hi")).status());
        assertEquals(201, c.post("/v1/messages", joel, request("acme/general/joel/cli", "opsonly", "owner")).status());
        assertEquals(0, c.get("/v1/inbox/acme/general/joel/opsonly?peek=1", joel).items().stream()
                .filter(i -> i.asJsonObject().getString("from").startsWith("acme/general/ana")).count(), "a refused message is not stored");

        c.put("/v1/agents/acme/general/joel/team", joel, obj("listening", true));
        assertEquals("acme/general/joel/team takes requests only from team general",
                c.post("/v1/messages", olga, request("acme/ops/olga/cli", "acme/general/joel/team", "hi")).error());
        assertEquals(201, c.post("/v1/messages", ana, request("acme/general/ana/cli", "acme/general/joel/team", "hi")).status());

        c.put("/v1/agents/acme/general/joel/byname", joel, obj("listening", true, "allow", List.of("olga")));
        assertEquals(201, c.post("/v1/messages", olga, request("acme/ops/olga/cli", "acme/general/joel/byname", "hi")).status());
        assertEquals(403, c.post("/v1/messages", ana, request("acme/general/ana/cli", "acme/general/joel/byname", "hi")).status());

        c.put("/v1/agents/acme/general/joel/wholeorg", joel, obj("listening", true, "allow", List.of("org")));
        assertEquals(201, c.post("/v1/messages", olga, request("acme/ops/olga/cli", "acme/general/joel/wholeorg", "hi")).status());

        c.put("/v1/agents/acme/general/joel/signed", joel, obj("listening", true, "signed_only", true));
        assertEquals("acme/general/joel/signed takes only signed requests",
                c.post("/v1/messages", ana, request("acme/general/ana/cli", "acme/general/joel/signed", "hi")).error());
        c.put("/v1/agents/acme/general/joel/trusted", joel, obj("listening", true, "trust", "full", "allow", List.of("ana")));
        assertEquals(403, c.post("/v1/messages", ana, request("acme/general/ana/cli", "acme/general/joel/trusted", "hi")).status());

        JsonObject sig = obj("alg", "ed25519", "key", "AAAA", "value", "BBBB");
        Reply unverifiable = c.post("/v1/messages", ana, request("acme/general/ana/cli", "acme/general/joel/trusted", "hi", "sig", sig, "ts", 1790000000L));
        assertEquals(401, unverifiable.status(), "a signature nothing can verify is refused");

        c.put("/v1/agents/acme/general/joel/sealed", joel, obj("listening", true, "encrypted_only", true));
        assertEquals("acme/general/joel/sealed takes only encrypted requests",
                c.post("/v1/messages", ana, request("acme/general/ana/cli", "acme/general/joel/sealed", "hi")).error());
        JsonObject encrypted = obj("type", "application/redsyn+encrypted", "enc", obj("v", 1, "alg", "P256-HKDF-SHA256-A256GCM",
                "epk", "x", "nonce", "y", "ct", "z", "files_nonce", ""));
        Reply sealed = c.post("/v1/messages", ana, Relay.merge(request("acme/general/ana/cli", "acme/general/joel/sealed", "x"), "body", encrypted));
        assertEquals(201, sealed.status(), sealed.toString());
        assertTrue(c.get("/v1/agents/acme/general/joel/sealed", ana).json().getBoolean("encrypted_only"));
    }

    @Test
    void crossOrganisationRequestsNeedALink() {
        c.put("/v1/agents/globex/general/out/billing", out, obj("listening", true, "allow", List.of("org:acme")));
        Reply r = c.post("/v1/messages", joel, request("acme/general/joel/cli", "globex/general/out/billing", "paid?"));
        assertEquals(403, r.status());
        assertTrue(r.error().contains("link"), r.toString());
    }

    @Test
    void sendingFromSomeoneElsesAgentIsRefused() {
        assertEquals(403, c.post("/v1/messages", ana, request("acme/general/joel/cli", "acme/general/ana/x", "hi")).status());
        assertEquals(403, c.post("/v1/messages", out, request("acme/general/out/cli", "acme/general/joel/x", "hi")).status());
    }

    @Test
    void theFreePlanAllowsFiveAgents() {
        String free = relay.personWithNode("free@small.test", "free");
        assertEquals(201, c.post("/v1/orgs", free, obj("handle", "small", "me", "sam")).status());
        for (int i = 1; i <= 5; i++) {
            assertEquals(201, c.put("/v1/agents/small/general/sam/a" + i, free, obj("listening", true)).status());
        }
        Reply sixth = c.put("/v1/agents/small/general/sam/a6", free, obj("listening", true));
        assertEquals(403, sixth.status());
        assertTrue(sixth.json().getBoolean("quota"));
        Reply usage = c.get("/v1/orgs/small/usage", free);
        assertEquals("free", usage.json().getString("plan"));
        assertEquals(5, usage.json().getInt("agents"));
        assertEquals(5, usage.json().getJsonObject("limits").getInt("agents"));
    }

    private static JsonObject find(JsonArray agents, String address) {
        for (JsonValue v : agents) {
            if (v.asJsonObject().getString("address").equals(address)) {
                return v.asJsonObject();
            }
        }
        return null;
    }
}
