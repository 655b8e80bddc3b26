package org.switchboard.itests.redsyn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.switchboard.itests.support.HubServer;

/** Test fixture: a hub with the admin API on, and helpers to bootstrap persons, nodes and envelopes. */
public final class Relay {

    public static final String ADMIN = "test-admin-token-123";

    public final HubServer hub;
    public final RedsynClient client;

    private Relay(HubServer hub) {
        this.hub = hub;
        this.client = new RedsynClient("http://127.0.0.1:" + hub.port() + "/redsyn");
    }

    /** Starts a hub with {@code REDSYN_ADMIN_TOKEN} set and the extra environment given. */
    public static Relay start(String... env) {
        Map<String, String> vars = HubServer.env(env);
        vars.put("REDSYN_ADMIN_TOKEN", ADMIN);
        Relay relay = new Relay(HubServer.start(vars));
        return relay;
    }

    /**
     * The REDSYN hub shared by the classes of this test JVM that can live with one another ({@link HubServer#shared}):
     * the admin token plus the union of their settings, so N classes pay one boot. {@link #stop()} leaves it running.
     * A class on it must create organisations, persons and agents with names unique to the class.
     */
    public static Relay shared() {
        Map<String, String> vars = new HashMap<>(SHARED_ENV);
        vars.put("REDSYN_ADMIN_TOKEN", ADMIN);
        return new Relay(HubServer.shared(vars));
    }

    /**
     * The settings of {@link #shared()}: loopback http webhooks (the crypto and OpenAPI tests register one; nothing
     * else sees it), a 200 ms inbox sweep (delivery tests wait on it less; only makes sweeps sooner) and an extra plan
     * "tiny" with small limits (RedsynQuotaIT; a plan no other class gives its persons).
     */
    private static final Map<String, String> SHARED_ENV = Map.of(
            "REDSYN_WEBHOOK_ALLOW_LOOPBACK_HTTP", "true",
            "REDSYN_INBOX_SWEEP_INTERVAL_MS", "200",
            "REDSYN_PLANS_TINY_MESSAGES_PER_DAY", "5",
            "REDSYN_PLANS_TINY_AGENTS", "2",
            "REDSYN_PLANS_TINY_FILE_BYTES", "1000",
            "REDSYN_PLANS_TINY_TTL_MAX_SECONDS", "600");

    /** Creates a person through the admin API and returns its id. */
    public long person(String email, String plan) {
        JsonObjectBuilder b = Json.createObjectBuilder().add("email", email);
        if (plan != null) {
            b.add("plan", plan);
        }
        RedsynClient.Reply r = client.post("/admin/persons", ADMIN, b.build());
        assertEquals(201, r.status(), r.toString());
        return r.json().getJsonNumber("id").longValue();
    }

    /** Creates a node of a person through the admin API and returns its token. */
    public String node(long personId, String name) {
        RedsynClient.Reply r = client.post("/admin/persons/" + personId + "/nodes", ADMIN, obj("name", name));
        assertEquals(201, r.status(), r.toString());
        return r.json().getString("token");
    }

    /** A person with one node; returns the token. */
    public String personWithNode(String email, String plan) {
        return node(person(email, plan), "laptop");
    }

    /** A JSON object from name, value pairs (String, Number, Boolean, JsonValue, Collection of strings, or null). */
    public static JsonObject obj(Object... kv) {
        JsonObjectBuilder b = Json.createObjectBuilder();
        for (int i = 0; i + 1 < kv.length; i += 2) {
            String k = (String) kv[i];
            Object v = kv[i + 1];
            if (v == null) {
                b.addNull(k);
            } else if (v instanceof String s) {
                b.add(k, s);
            } else if (v instanceof Integer n) {
                b.add(k, n);
            } else if (v instanceof Long n) {
                b.add(k, n);
            } else if (v instanceof Boolean bool) {
                b.add(k, bool);
            } else if (v instanceof JsonValue jv) {
                b.add(k, jv);
            } else if (v instanceof Collection<?> c) {
                JsonArrayBuilder a = Json.createArrayBuilder();
                c.forEach(x -> a.add(String.valueOf(x)));
                b.add(k, a);
            } else {
                throw new IllegalArgumentException(k);
            }
        }
        return b.build();
    }

    /** A text/plain body. */
    public static JsonObject text(String text) {
        return obj("type", "text/plain", "text", text);
    }

    /** A request envelope. */
    public static JsonObject request(String from, String to, String text, Object... extra) {
        return merge(obj("v", 1, "kind", "request", "from", from, "to", to, "body", text(text)), extra);
    }

    /** A reply envelope. */
    public static JsonObject reply(String from, String replyTo, String text, Object... extra) {
        return merge(obj("v", 1, "kind", "reply", "from", from, "reply_to", replyTo, "body", text(text)), extra);
    }

    /** {@code base} plus name, value pairs. */
    public static JsonObject merge(JsonObject base, Object... extra) {
        JsonObjectBuilder b = Json.createObjectBuilder(base);
        obj(extra).forEach(b::add);
        return b.build();
    }

    /** Stops the hub (nothing for the {@link #shared()} one, which stops when the test JVM exits). */
    public void stop() {
        hub.stop();
    }
}
