package org.switchboard.itests.redsyn.orgs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.request;
import static org.switchboard.itests.redsyn.orgs.Orgs.event;

import jakarta.json.JsonObject;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.switchboard.itests.redsyn.RedsynClient;
import org.switchboard.itests.redsyn.RedsynClient.Reply;
import org.switchboard.itests.redsyn.Relay;

/**
 * Plan limits against the packaged server, with a plan {@code tiny} defined only in the environment
 * ({@code REDSYN_PLANS_TINY_*}): daily messages (429), agents and files waiting (403), all with
 * {@code quota: true}; the usage call; plan changes through the admin API.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedsynQuotaIT {

    private Relay relay;
    private RedsynClient c;
    private Orgs orgs;

    @BeforeAll
    void start() {
        // the plan "tiny" (5 messages a day, 2 agents, 1000 file bytes, 600 s TTL) is one of the shared hub's settings;
        // names under "tinyco", "tinyfiles" and "vicco", persons @tiny.test and @else.test, unique to this class
        relay = Relay.shared();
        c = relay.client;
        orgs = new Orgs(relay);
    }

    @AfterAll
    void stop() {
        if (relay != null) {
            relay.stop();
        }
    }

    @Test
    void theAdminApiTakesConfiguredPlansAndRefusesUnknownOnes() {
        Reply tiny = c.post("/admin/persons", Relay.ADMIN, obj("email", "plan@tiny.test", "plan", "tiny"));
        assertEquals(201, tiny.status(), tiny.toString());
        assertEquals("tiny", tiny.json().getString("plan"));
        long id = tiny.json().getJsonNumber("id").longValue();
        Reply gold = c.put("/admin/persons/" + id + "/plan", Relay.ADMIN, obj("plan", "gold"));
        assertEquals(422, gold.status());
        assertTrue(gold.error().contains("tiny"), "the refusal lists the configured plans: " + gold);
        assertEquals("pro", c.put("/admin/persons/" + id + "/plan", Relay.ADMIN, obj("plan", "pro")).json().getString("plan"));
        assertEquals("tiny", c.put("/admin/persons/" + id + "/plan", Relay.ADMIN, obj("plan", "tiny")).json().getString("plan"));
    }

    @Test
    void theSixthMessageOfTheDayIsRefusedWithQuotaUntilThePlanChanges() {
        long personId = relay.person("ted@tiny.test", "tiny");
        String ted = relay.node(personId, "laptop");
        orgs.org(ted, "tinyco", "ted");
        String a = "tinyco/general/ted/a";
        String b = "tinyco/general/ted/b";
        orgs.announce(ted, a);
        orgs.announce(ted, b);

        Reply third = c.put("/v1/agents/tinyco/general/ted/c", ted, obj("listening", true));
        assertEquals(403, third.status(), third.toString());
        assertTrue(third.json().getBoolean("quota"), third.toString());

        Reply usage = c.get("/v1/orgs/tinyco/usage", ted);
        assertEquals(200, usage.status());
        assertEquals("tiny", usage.json().getString("plan"));
        assertEquals(0, usage.json().getInt("messages_today"));
        assertEquals(2, usage.json().getInt("agents"));
        JsonObject limits = usage.json().getJsonObject("limits");
        assertEquals(5, limits.getInt("messages_per_day"));
        assertEquals(2, limits.getInt("agents"));
        assertEquals(1000, limits.getInt("files_pending_bytes"));
        assertEquals(600, limits.getInt("max_ttl"));
        assertEquals(1, limits.getInt("links"), "limits a new plan leaves unset are Free's");
        assertEquals(1, limits.getInt("webhooks"));

        for (int i = 1; i <= 5; i++) {
            Reply sent = c.post("/v1/messages", ted, request(a, b, "message " + i, "ttl", 86_400));
            assertEquals(201, sent.status(), sent.toString());
        }
        assertEquals(600, orgs.take(ted, b).getJsonObject(0).getInt("ttl"), "the plan caps the TTL");
        Reply sixth = c.post("/v1/messages", ted, request(a, b, "message 6"));
        assertEquals(429, sixth.status(), sixth.toString());
        assertTrue(sixth.json().getBoolean("quota"), sixth.toString());
        assertTrue(sixth.error().contains("00:00 UTC"), sixth.toString());
        Reply anEvent = c.post("/v1/messages", ted, event(a, "topic:general/news", "also counted"));
        assertEquals(429, anEvent.status(), anEvent.toString());
        assertTrue(anEvent.json().getBoolean("quota"));
        assertEquals(5, c.get("/v1/orgs/tinyco/usage", ted).json().getInt("messages_today"));

        assertEquals(200, c.put("/admin/persons/" + personId + "/plan", Relay.ADMIN, obj("plan", "pro")).status());
        assertEquals(201, c.post("/v1/messages", ted, request(a, b, "after the plan change")).status(),
                "a plan change lifts the quota at once");
        assertEquals(50_000, c.get("/v1/orgs/tinyco/usage", ted).json().getJsonObject("limits").getInt("messages_per_day"));
    }

    @Test
    void filesWaitingForDeliveryAreLimitedBySpace() {
        String uma = orgs.person("uma@tiny.test", "tiny");
        orgs.org(uma, "tinyfiles", "uma");
        String a = "tinyfiles/general/uma/a";
        String b = "tinyfiles/general/uma/b";
        orgs.announce(uma, a);
        orgs.announce(uma, b);
        Reply tooBig = c.post("/v1/messages", uma, request(a, b, "1500 bytes", "files", obj("zip", zip(1500))));
        assertEquals(403, tooBig.status(), tooBig.toString());
        assertTrue(tooBig.json().getBoolean("quota"), tooBig.toString());
        Reply first = c.post("/v1/messages", uma, request(a, b, "800 bytes", "files", obj("zip", zip(800))));
        assertEquals(201, first.status(), first.toString());
        assertEquals(800, c.get("/v1/orgs/tinyfiles/usage", uma).json().getInt("files_pending_bytes"));
        Reply second = c.post("/v1/messages", uma, request(a, b, "800 more", "files", obj("zip", zip(800))));
        assertEquals(403, second.status(), "800 + 800 bytes would wait, over 1000: " + second);
        assertTrue(second.json().getBoolean("quota"));
        String id = first.json().getString("id");
        orgs.take(uma, b);
        orgs.ack(uma, b, id);
        assertEquals(0, c.get("/v1/orgs/tinyfiles/usage", uma).json().getInt("files_pending_bytes"), "delivered files no longer count");
        assertEquals(201, c.post("/v1/messages", uma, request(a, b, "room again", "files", obj("zip", zip(800)))).status());
    }

    @Test
    void usageIsForMembersOnly() {
        String vic = orgs.person("vic@tiny.test", "tiny");
        String wan = orgs.person("wan@else.test", null);
        orgs.org(vic, "vicco", "vic");
        assertEquals(403, c.get("/v1/orgs/vicco/usage", wan).status());
        assertEquals(404, c.get("/v1/orgs/nosuch/usage", wan).status());
        assertEquals(0, c.get("/v1/orgs/vicco/usage", vic).json().getInt("links"));
    }

    private static String zip(int bytes) {
        byte[] data = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            data[i] = (byte) (i * 31);
        }
        return Base64.getEncoder().encodeToString(data);
    }
}
