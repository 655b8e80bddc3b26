package org.switchboard.itests.redsyn.orgs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.switchboard.itests.redsyn.Relay.obj;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.util.List;
import org.switchboard.itests.redsyn.RedsynClient;
import org.switchboard.itests.redsyn.RedsynClient.Reply;
import org.switchboard.itests.redsyn.Relay;

/** Test steps shared by the organisation, link, topic and quota tests: create, announce, take, ack. */
final class Orgs {

    private final Relay relay;
    private final RedsynClient c;

    Orgs(Relay relay) {
        this.relay = relay;
        this.c = relay.client;
    }

    /** A person on a plan (null: the default) with one node; returns its token. */
    String person(String email, String plan) {
        return relay.personWithNode(email, plan);
    }

    /** Creates an organisation; the token's person is its admin, handle {@code me}. */
    void org(String token, String handle, String me) {
        Reply r = c.post("/v1/orgs", token, obj("handle", handle, "me", me));
        assertEquals(201, r.status(), r.toString());
    }

    /** Announces an agent as listening, with an optional allow list. */
    void announce(String token, String address, String... allow) {
        Reply r = allow.length == 0 ? c.put("/v1/agents/" + address, token, obj("listening", true))
                : c.put("/v1/agents/" + address, token, obj("listening", true, "allow", List.of(allow)));
        assertEquals(true, r.status() == 200 || r.status() == 201, r.toString());
    }

    /** Takes what waits for an agent, without waiting. */
    JsonArray take(String token, String address) {
        Reply r = c.get("/v1/inbox/" + address + "?wait=0", token);
        assertEquals(200, r.status(), r.toString());
        return r.items();
    }

    /** Acks ids taken by an agent. */
    JsonObject ack(String token, String address, String... ids) {
        Reply r = c.post("/v1/inbox/" + address + "/ack", token, obj("ids", List.of(ids)));
        assertEquals(200, r.status(), r.toString());
        return r.json();
    }

    /** An event envelope. */
    static JsonObject event(String from, String topic, String text, Object... extra) {
        return Relay.merge(obj("v", 1, "kind", "event", "from", from, "to", topic, "body", Relay.text(text)), extra);
    }

    /** Links two organisations: {@code a}'s admin proposes, {@code b}'s admin accepts. */
    void link(String aToken, String a, String bToken, String b) {
        Reply proposed = c.post("/v1/orgs/" + a + "/links", aToken, obj("other", b));
        assertEquals(201, proposed.status(), proposed.toString());
        Reply accepted = c.post("/v1/orgs/" + b + "/links", bToken, obj("other", a));
        assertEquals(200, accepted.status(), accepted.toString());
        assertEquals("active", accepted.json().getString("state"));
    }

    /** {@code org} exposes a pattern of a kind to {@code other}. */
    void expose(String token, String org, String other, String kind, String pattern, boolean on) {
        Reply r = c.put("/v1/orgs/" + org + "/links/" + other + "/expose", token, obj("kind", kind, "pattern", pattern, "on", on));
        assertEquals(200, r.status(), r.toString());
    }

    /** {@code org}'s rules for what enters from {@code other}. */
    Reply rules(String token, String org, String other, Object... rules) {
        return c.put("/v1/orgs/" + org + "/links/" + other + "/rules", token, obj(rules));
    }
}
