package org.switchboard.itests.redsyn.orgs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.reply;
import static org.switchboard.itests.redsyn.Relay.request;
import static org.switchboard.itests.redsyn.orgs.Orgs.event;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.switchboard.itests.redsyn.RedsynClient;
import org.switchboard.itests.redsyn.RedsynClient.Reply;
import org.switchboard.itests.redsyn.Relay;

/**
 * Black-box tests of topics and events and of organisation links against the packaged server:
 * subscriptions, fan-out, cross-organisation isolation (no link, no exposure, rules, revocation) and
 * the re-check of every event against the link at fan-out. Each test uses its own organisations.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedsynLinksTopicsIT {

    private Relay relay;
    private RedsynClient c;
    private Orgs orgs;

    @BeforeAll
    void start() {
        relay = Relay.shared(); // names under "linkco", unique to this class
        c = relay.client;
        orgs = new Orgs(relay);
    }

    @AfterAll
    void stop() {
        if (relay != null) {
            relay.stop();
        }
    }

    // ---- topics inside one organisation -------------------------------------------------------

    @Test
    void agentsSubscribingToANewTopicAllAtOnceAllSucceed() throws Exception {
        String kim = orgs.person("kim@race.test", "enterprise");
        orgs.org(kim, "race", "kim");
        int agents = 12;
        java.util.List<String> addresses = new java.util.ArrayList<>();
        for (int i = 0; i < agents; i++) {
            addresses.add("race/general/kim/a" + i);
            orgs.announce(kim, addresses.get(i));
        }
        for (int round = 0; round < 3; round++) {
            String topic = "topic:race/general/t" + round;
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(agents);
            try {
                java.util.List<java.util.concurrent.Future<Reply>> replies = new java.util.ArrayList<>();
                for (String address : addresses) {
                    replies.add(pool.submit(() -> {
                        go.await();
                        return c.put("/v1/subscriptions", kim, obj("agent", address, "topic", topic));
                    }));
                }
                go.countDown();
                for (java.util.concurrent.Future<Reply> reply : replies) {
                    Reply r = reply.get(60, java.util.concurrent.TimeUnit.SECONDS);
                    assertEquals(201, r.status(), "every first subscription to a topic created at the same moment: " + r);
                }
            } finally {
                pool.shutdownNow();
            }
            Reply topics = c.get("/v1/topics", kim);
            assertEquals(200, topics.status(), topics.toString());
            assertTrue(topics.text().contains("race/general/t" + round), topics.toString());
        }
    }

    @Test
    void anEventGoesToEverySubscriberButThePublisherEachInItsOwnSession() {
        String joel = orgs.person("joel@linkco.test", "enterprise");
        String ana = orgs.person("ana@linkco.test", null);
        orgs.org(joel, "linkco", "joel");
        assertEquals(201, c.post("/v1/orgs/linkco/invites", joel, obj("email", "ana@linkco.test")).status());
        assertEquals(201, c.post("/v1/orgs/linkco/join", ana, obj("me", "ana")).status());
        String pub = "linkco/general/joel/pub";
        String l1 = "linkco/general/ana/l1";
        String l2 = "linkco/general/joel/l2";
        orgs.announce(joel, pub);
        orgs.announce(ana, l1);
        orgs.announce(joel, l2);

        Reply sub1 = c.put("/v1/subscriptions", ana, obj("agent", l1, "topic", "topic:linkco/general/news"));
        assertEquals(201, sub1.status(), sub1.toString());
        assertEquals("topic:linkco/general/news", sub1.json().getString("topic"));
        assertTrue(sub1.json().getBoolean("subscribed"));
        Reply sub2 = c.put("/v1/subscriptions", joel, obj("agent", l2, "topic", "topic:general/news"));
        assertEquals(201, sub2.status(), sub2.toString());
        assertEquals("topic:linkco/general/news", sub2.json().getString("topic"), "the short form resolves from the agent's organisation");
        assertEquals(200, c.put("/v1/subscriptions", joel, obj("agent", l2, "topic", "topic:linkco/general/news")).status(),
                "subscribing again changes nothing");
        assertEquals(201, c.put("/v1/subscriptions", joel, obj("agent", pub, "topic", "topic:general/news")).status());

        Reply published = c.post("/v1/messages", joel, event(pub, "topic:general/news", "invoice 123 paid", "id", "ev-news-1"));
        assertEquals(201, published.status(), published.toString());
        assertEquals("ev-news-1", published.json().getString("id"));
        assertEquals("topic:linkco/general/news", published.json().getString("to"));
        assertEquals(2, published.json().getInt("copies"), "every subscriber except the publisher");

        JsonArray taken = orgs.take(ana, l1);
        assertEquals(1, taken.size(), taken.toString());
        JsonObject e = taken.getJsonObject(0);
        assertEquals("ev-news-1", e.getString("id"));
        assertEquals("event", e.getString("kind"));
        assertEquals("topic:linkco/general/news", e.getString("topic"));
        assertEquals(pub, e.getString("from"));
        assertEquals(86_400, e.getInt("ttl"), "events wait one day by default");
        assertEquals("invoice 123 paid", e.getJsonObject("body").getString("text"));
        String session = e.getString("to");
        assertTrue(session.startsWith(l1 + "#s"), session);
        assertEquals(1, orgs.take(joel, l2).size());
        assertEquals(0, orgs.take(joel, pub).size(), "the publisher gets no copy");

        JsonObject acked = orgs.ack(ana, l1, "ev-news-1");
        assertEquals(List.of("ev-news-1"), strings(acked.getJsonArray("acked")), acked.toString());

        Reply again = c.post("/v1/messages", joel, event(pub, "topic:general/news", "invoice 123 paid", "id", "ev-news-1"));
        assertTrue(again.json().getBoolean("duplicate"), again.toString());
        assertEquals(0, orgs.take(ana, l1).size(), "the same id never copies twice");

        assertEquals(201, c.post("/v1/messages", joel, event(pub, "topic:linkco/general/news", "second", "id", "ev-news-2")).status());
        JsonArray second = orgs.take(ana, l1);
        assertEquals(1, second.size());
        assertEquals(session, second.getJsonObject(0).getString("to"), "a topic's events stay in the subscriber's session");

        orgs.ack(ana, l1, "ev-news-2");
        orgs.ack(joel, l2, "ev-news-1");
        Reply answer = c.post("/v1/messages", ana, reply(l1, "ev-news-2", "thanks"));
        assertEquals(422, answer.status(), "nobody answers an event: " + answer);

        Reply topics = c.get("/v1/topics", ana);
        assertEquals(200, topics.status());
        JsonObject news = topics.json().getJsonArray("topics").getValuesAs(JsonObject.class).stream()
                .filter(t -> t.getString("topic").equals("topic:linkco/general/news")).findFirst().orElseThrow();
        assertEquals(List.of(l1, l2, pub).stream().sorted().toList(), strings(news.getJsonArray("subscribers")).stream().sorted().toList());

        Reply removed = c.post("/v1/subscriptions/remove", joel, obj("agent", l2, "topic", "topic:linkco/general/news"));
        assertEquals(200, removed.status());
        assertTrue(removed.json().getBoolean("changed"));
        assertFalse(removed.json().getBoolean("subscribed"));
        assertFalse(c.post("/v1/subscriptions/remove", joel, obj("agent", l2, "topic", "topic:linkco/general/news")).json().getBoolean("changed"));
        orgs.take(joel, l2);
        Reply third = c.post("/v1/messages", joel, event(pub, "topic:general/news", "third"));
        assertEquals(1, third.json().getInt("copies"));
        assertEquals(0, orgs.take(joel, l2).size(), "an agent that stopped listening gets nothing");
        assertEquals(1, orgs.take(ana, l1).size());

        Reply created = c.post("/v1/messages", joel, event(pub, "topic:general/fresh", "first publish creates it"));
        assertEquals(201, created.status());
        assertEquals(0, created.json().getInt("copies"));
        assertTrue(c.get("/v1/topics", joel).text().contains("topic:linkco/general/fresh"));
    }

    @Test
    void subscriptionAndEventRefusals() {
        String kim = orgs.person("kim@kappa.test", null);
        String lou = orgs.person("lou@kappa.test", null);
        orgs.org(kim, "kappa", "kim");
        assertEquals(201, c.post("/v1/orgs/kappa/invites", kim, obj("email", "lou@kappa.test")).status());
        assertEquals(201, c.post("/v1/orgs/kappa/join", lou, obj("me", "lou")).status());
        orgs.announce(kim, "kappa/general/kim/a");
        Reply notYours = c.put("/v1/subscriptions", lou, obj("agent", "kappa/general/kim/a", "topic", "topic:general/x"));
        assertEquals(403, notYours.status(), notYours.toString());
        assertEquals(404, c.put("/v1/subscriptions", kim, obj("agent", "kappa/general/kim/a", "topic", "topic:nosuchteam/x")).status());
        assertEquals(403, c.put("/v1/subscriptions", kim, obj("agent", "kappa/general/kim/a", "topic", "topic:nosuchorg/general/x")).status(),
                "another organisation, existing or not, is closed without a link");
        assertEquals(422, c.put("/v1/subscriptions", kim, obj("agent", "kappa/general/kim/a", "topic", "topic:a/b/c/d")).status());
        assertEquals(422, c.put("/v1/subscriptions", kim, obj("agent", "kappa/general/kim/a")).status());
        assertEquals(422, c.post("/v1/messages", kim, event("kappa/general/kim/a", "kappa/general/lou/b", "not a topic")).status());
        Reply files = c.post("/v1/messages", kim, event("kappa/general/kim/a", "topic:general/x", "with files", "files", obj("zip", "UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==")));
        assertEquals(422, files.status(), files.toString());
        assertEquals(403, c.post("/v1/messages", lou, event("kappa/general/kim/a", "topic:general/x", "from someone else's agent")).status());
    }

    // ---- links and cross-organisation isolation ---------------------------------------------

    @Test
    void requestsCrossOrganisationsOnlyOverAnActiveExposedLinkThatPassesTheRules() {
        String nina = orgs.person("nina@north.test", "enterprise");
        String sam = orgs.person("sam@south.test", "enterprise");
        orgs.org(nina, "north", "nina");
        orgs.org(sam, "south", "sam");
        String bot = "north/general/nina/bot";
        String desk = "south/general/sam/desk";
        orgs.announce(nina, bot);
        orgs.announce(sam, desk, "org:north");

        Reply noLink = c.post("/v1/messages", nina, request(bot, desk, "hello"));
        assertEquals(403, noLink.status(), noLink.toString());
        assertTrue(noLink.error().contains("no active link"), noLink.toString());
        assertEquals(404, c.get("/v1/agents/" + desk, nina).status(), "nothing is seen across organisations without a link");
        assertFalse(c.get("/v1/directory", nina).text().contains(desk));

        Reply proposed = c.post("/v1/orgs/north/links", nina, obj("other", "south"));
        assertEquals(201, proposed.status(), proposed.toString());
        assertEquals("proposed", proposed.json().getString("state"));
        assertEquals(403, c.post("/v1/messages", nina, request(bot, desk, "hello")).status(), "a proposed link is not active");
        Reply proposedAgain = c.post("/v1/orgs/north/links", nina, obj("other", "south"));
        assertEquals(200, proposedAgain.status(), "proposing again changes nothing");
        assertEquals("proposed", proposedAgain.json().getString("state"));
        Reply accepted = c.post("/v1/orgs/south/links", sam, obj("other", "north"));
        assertEquals(200, accepted.status());
        assertEquals("active", accepted.json().getString("state"));

        Reply noExposure = c.post("/v1/messages", nina, request(bot, desk, "hello"));
        assertEquals(403, noExposure.status(), "an active link exposes nothing by default: " + noExposure);
        assertEquals(404, c.get("/v1/agents/" + desk, nina).status());

        orgs.expose(sam, "south", "north", "agent", "general/sam/*", true);
        assertEquals(200, c.get("/v1/agents/" + desk, nina).status(), "an exposed agent is visible to the linked organisation");
        assertTrue(c.get("/v1/directory", nina).text().contains(desk), "the directory lists what linked organisations expose");
        assertFalse(c.get("/v1/directory", sam).text().contains(bot), "north exposes nothing to south");
        Reply unsigned = c.post("/v1/messages", nina, request(bot, desk, "hello"));
        assertEquals(403, unsigned.status(), "by default only signed messages enter: " + unsigned);
        assertTrue(unsigned.error().contains("signed"), unsigned.toString());

        Reply rules = orgs.rules(sam, "south", "north", "signed_only", false);
        assertEquals(200, rules.status(), rules.toString());
        assertFalse(rules.json().getJsonObject("rules").getJsonObject("south").getBoolean("signed_only"));
        Reply sent = c.post("/v1/messages", nina, request(bot, desk, "hello", "id", "x-north-1"));
        assertEquals(201, sent.status(), sent.toString());
        assertEquals(1, orgs.take(sam, desk).size());

        Reply elsewhere = orgs.rules(sam, "south", "north", "ips", "203.0.113.7");
        assertEquals("203.0.113.7", elsewhere.json().getJsonObject("rules").getJsonObject("south").getString("ips"));
        Reply fromLoopback = c.post("/v1/messages", nina, request(bot, desk, "from 127.0.0.1"));
        assertEquals(403, fromLoopback.status(), "127.0.0.1 is not on the list: " + fromLoopback);
        assertEquals(200, orgs.rules(sam, "south", "north", "ips", "203.0.113.7,127.0.0.1/32").status());
        assertEquals(201, c.post("/v1/messages", nina, request(bot, desk, "from a listed address", "id", "x-north-2")).status());
        assertEquals(422, orgs.rules(sam, "south", "north", "ips", "example.com").status());

        orgs.expose(sam, "south", "north", "agent", "general/sam/*", false);
        assertEquals(403, c.post("/v1/messages", nina, request(bot, desk, "exposure removed")).status());
        orgs.expose(sam, "south", "north", "agent", "*", true);
        assertEquals(201, c.post("/v1/messages", nina, request(bot, desk, "exposed again", "id", "x-north-3")).status());

        // a request taken before the revocation cannot be answered across after it
        JsonArray waiting = orgs.take(sam, desk);
        assertTrue(waiting.size() >= 1, waiting.toString());
        Reply revoked = c.post("/v1/orgs/north/links/south/revoke", nina, null);
        assertEquals(200, revoked.status(), revoked.toString());
        assertEquals("revoked", revoked.json().getString("state"));
        Reply afterRevoke = c.post("/v1/messages", nina, request(bot, desk, "after revoke"));
        assertEquals(403, afterRevoke.status(), afterRevoke.toString());
        Reply lateAnswer = c.post("/v1/messages", sam, reply(desk, "x-north-3", "too late"));
        assertEquals(403, lateAnswer.status(), lateAnswer.toString());
        assertEquals(404, c.get("/v1/agents/" + desk, nina).status());
        assertFalse(c.get("/v1/directory", nina).text().contains(desk));

        JsonObject northView = onlyLink(c.get("/v1/links", nina).json(), "south");
        JsonObject southView = onlyLink(c.get("/v1/links", sam).json(), "north");
        assertEquals("revoked", northView.getString("state"));
        assertEquals("revoked", southView.getString("state"));
        assertEquals(northView.getJsonArray("log"), southView.getJsonArray("log"), "both sides see the same change log");
        List<String> changes = northView.getJsonArray("log").getValuesAs(JsonObject.class).stream().map(x -> x.getString("change")).toList();
        assertEquals("revoked", changes.get(0), changes.toString());
        assertTrue(changes.containsAll(List.of("proposed", "accepted", "exposed", "unexposed", "rules", "revoked")), changes.toString());
        assertEquals("north", northView.getJsonArray("log").getJsonObject(0).getString("org"));
        assertEquals(0, southView.getJsonObject("exposes").getJsonArray("south").size(), "revoking drops the exposures");
    }

    @Test
    void eventsAcrossOrganisationsNeedSubAndPubExposuresAndAreRecheckedAtFanOut() {
        String eve = orgs.person("eve@east.test", "enterprise");
        String wes = orgs.person("wes@west.test", "enterprise");
        orgs.org(eve, "east", "eve");
        orgs.org(wes, "west", "wes");
        String feed = "east/general/eve/feed";
        String local = "east/general/eve/local";
        String listener = "west/general/wes/listener";
        orgs.announce(eve, feed);
        orgs.announce(eve, local);
        orgs.announce(wes, listener);
        assertEquals(201, c.put("/v1/subscriptions", eve, obj("agent", local, "topic", "topic:general/prices")).status());

        Reply noLink = c.put("/v1/subscriptions", wes, obj("agent", listener, "topic", "topic:east/general/prices"));
        assertEquals(403, noLink.status(), noLink.toString());
        orgs.link(eve, "east", wes, "west");
        assertEquals(403, c.put("/v1/subscriptions", wes, obj("agent", listener, "topic", "topic:east/general/prices")).status(),
                "a link without a sub exposure lets nobody listen");
        orgs.expose(eve, "east", "west", "sub", "general/*", true);
        assertEquals(201, c.put("/v1/subscriptions", wes, obj("agent", listener, "topic", "topic:east/general/prices")).status());

        Reply unsignedEvent = c.post("/v1/messages", eve, event(feed, "topic:general/prices", "unsigned"));
        assertEquals(201, unsignedEvent.status());
        assertEquals(1, unsignedEvent.json().getInt("copies"), "west takes only signed messages from east by default");
        assertEquals(0, orgs.take(wes, listener).size());
        assertEquals(200, orgs.rules(wes, "west", "east", "signed_only", false).status());
        Reply crossing = c.post("/v1/messages", eve, event(feed, "topic:general/prices", "price 1", "id", "ev-price-1"));
        assertEquals(2, crossing.json().getInt("copies"));
        JsonArray got = orgs.take(wes, listener);
        assertEquals(1, got.size());
        assertEquals("ev-price-1", got.getJsonObject(0).getString("id"));
        assertEquals("topic:east/general/prices", got.getJsonObject(0).getString("topic"));
        orgs.ack(wes, listener, "ev-price-1");

        Reply westPublishes = c.post("/v1/messages", wes, event(listener, "topic:east/general/prices", "from west"));
        assertEquals(403, westPublishes.status(), "listening is not publishing: " + westPublishes);
        orgs.expose(eve, "east", "west", "pub", "general/prices", true);
        assertEquals(403, c.post("/v1/messages", wes, event(listener, "topic:east/general/prices", "unsigned from west")).status(),
                "east's default rules take only signed messages from west");
        assertEquals(200, orgs.rules(eve, "east", "west", "signed_only", false).status());
        Reply published = c.post("/v1/messages", wes, event(listener, "topic:east/general/prices", "from west"));
        assertEquals(201, published.status(), published.toString());
        assertEquals(1, published.json().getInt("copies"), "east's local listener, not the publisher");

        orgs.expose(eve, "east", "west", "sub", "general/*", false);
        assertEquals(1, c.post("/v1/messages", eve, event(feed, "topic:general/prices", "sub exposure removed")).json().getInt("copies"),
                "removing the sub exposure stops the events at fan-out");
        orgs.expose(eve, "east", "west", "sub", "general/*", true);
        assertEquals(2, c.post("/v1/messages", eve, event(feed, "topic:general/prices", "exposed again")).json().getInt("copies"));
        assertEquals(1, orgs.take(wes, listener).size());

        assertEquals(200, c.post("/v1/orgs/west/links/east/revoke", wes, null).status());
        Reply afterRevoke = c.post("/v1/messages", eve, event(feed, "topic:general/prices", "after revoke"));
        assertEquals(201, afterRevoke.status());
        assertEquals(1, afterRevoke.json().getInt("copies"), "each event is checked against the link at fan-out");
        assertEquals(0, orgs.take(wes, listener).size());
        assertEquals(403, c.post("/v1/messages", wes, event(listener, "topic:east/general/prices", "after revoke")).status());
        assertEquals(403, c.put("/v1/subscriptions", wes, obj("agent", listener, "topic", "topic:east/general/other")).status());
    }

    @Test
    void linkCallsRefuseWhatTheyCannotDo() {
        String ola = orgs.person("ola@omega.test", "enterprise");
        String pia = orgs.person("pia@omega.test", null);
        String rex = orgs.person("rex@rho.test", "enterprise");
        orgs.org(ola, "omega", "ola");
        orgs.org(rex, "rho", "rex");
        assertEquals(201, c.post("/v1/orgs/omega/invites", ola, obj("email", "pia@omega.test")).status());
        assertEquals(201, c.post("/v1/orgs/omega/join", pia, obj("me", "pia")).status());

        assertEquals(422, c.post("/v1/orgs/omega/links", ola, obj("other", "omega")).status());
        assertEquals(404, c.post("/v1/orgs/omega/links", ola, obj("other", "nosuchorg")).status());
        assertEquals(422, c.post("/v1/orgs/omega/links", ola, obj()).status());
        assertEquals(403, c.post("/v1/orgs/omega/links", pia, obj("other", "rho")).status(), "only an admin proposes");
        assertEquals(403, c.post("/v1/orgs/rho/links", ola, obj("other", "omega")).status(), "only rho's admin accepts for rho");
        assertEquals(404, c.put("/v1/orgs/omega/links/rho/expose", ola, obj("kind", "agent", "pattern", "*")).status(), "no link yet");
        assertEquals(404, c.post("/v1/orgs/omega/links/rho/revoke", ola, null).status());

        orgs.link(ola, "omega", rex, "rho");
        assertEquals(422, c.put("/v1/orgs/omega/links/rho/expose", ola, obj("kind", "files", "pattern", "*")).status());
        assertEquals(422, c.put("/v1/orgs/omega/links/rho/expose", ola, obj("kind", "agent", "pattern", "general")).status());
        assertEquals(422, c.put("/v1/orgs/omega/links/rho/expose", ola, obj("kind", "pub", "pattern", "general/ola/x")).status());
        assertEquals(403, c.put("/v1/orgs/omega/links/rho/expose", pia, obj("kind", "agent", "pattern", "*")).status());
        assertEquals(403, orgs.rules(pia, "omega", "rho", "signed_only", false).status());
        Reply members = c.get("/v1/links", pia);
        assertEquals(200, members.status());
        assertEquals("active", onlyLink(members.json(), "rho").getString("state"), "members see their organisation's links");

        assertEquals(200, c.post("/v1/orgs/rho/links/omega/revoke", rex, null).status(), "either side revokes");
        assertEquals(409, c.put("/v1/orgs/omega/links/rho/expose", ola, obj("kind", "agent", "pattern", "*")).status());
        Reply again = c.post("/v1/orgs/omega/links", ola, obj("other", "rho"));
        assertEquals(201, again.status(), "a revoked link can be proposed again");
        assertEquals("proposed", again.json().getString("state"));
        assertTrue(again.json().getJsonObject("rules").getJsonObject("rho").getBoolean("signed_only"));
    }

    @Test
    void theLinksOfAnOrganisationAreLimitedByItsPlan() {
        String fay = orgs.person("fay@free.test", null);
        String gus = orgs.person("gus@g1.test", null);
        String hal = orgs.person("hal@g2.test", null);
        orgs.org(fay, "freeco", "fay");
        orgs.org(gus, "g1", "gus");
        orgs.org(hal, "g2", "hal");
        assertEquals(201, c.post("/v1/orgs/freeco/links", fay, obj("other", "g1")).status());
        Reply second = c.post("/v1/orgs/freeco/links", fay, obj("other", "g2"));
        assertEquals(403, second.status(), second.toString());
        assertTrue(second.json().getBoolean("quota"), second.toString());
        assertEquals(1, c.get("/v1/orgs/freeco/usage", fay).json().getInt("links"));
        assertEquals(1, c.get("/v1/orgs/freeco/usage", fay).json().getJsonObject("limits").getInt("links"));
        // g2 proposes to freeco: accepting would be freeco's second link
        assertEquals(201, c.post("/v1/orgs/g2/links", hal, obj("other", "freeco")).status());
        Reply accept = c.post("/v1/orgs/freeco/links", fay, obj("other", "g2"));
        assertEquals(403, accept.status());
        assertTrue(accept.json().getBoolean("quota"));
        assertEquals(200, c.post("/v1/orgs/freeco/links/g1/revoke", fay, null).status());
        assertEquals("active", c.post("/v1/orgs/freeco/links", fay, obj("other", "g2")).json().getString("state"),
                "a revoked link frees its place");
    }

    private static JsonObject onlyLink(JsonObject links, String other) {
        List<JsonObject> found = links.getJsonArray("links").getValuesAs(JsonObject.class).stream()
                .filter(l -> l.getString("other").equals(other)).toList();
        assertEquals(1, found.size(), links.toString());
        return found.get(0);
    }

    private static List<String> strings(JsonArray a) {
        return a.getValuesAs(JsonString.class).stream().map(JsonString::getString).collect(Collectors.toList());
    }
}
