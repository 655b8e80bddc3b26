package org.switchboard.itests.redsyn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.request;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.switchboard.itests.redsyn.RedsynClient.Reply;

/**
 * Issue 19: the packaged hub serves an OpenAPI document at {@code /openapi} (loopback, like every
 * other endpoint) that lists every REDSYN operation with its request and response schemas, the
 * {@code {"error", "status"}} refusal and bearer security. A scripted scenario performs a real
 * request for every operation, and each real answer is checked against the schema the document gives
 * for its status (or its {@code default} response). An operation the hub serves that the document
 * lacks fails, and so does an operation in the document that the scenario does not know.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiIT {

    private static final String DESK = "apidoc/general/joel/desk";
    private static final String ANA_CLI = "apidoc/general/ana/cli";

    private Relay relay;
    private RedsynClient c;
    private JsonObject doc;

    /** One real request per operation, keyed "METHOD /path/template" (relative to /redsyn), in the scenario's order. */
    private final Map<String, List<Reply>> answers = new LinkedHashMap<>();

    @BeforeAll
    void start() {
        relay = Relay.shared(); // names under "apidoc" and "apipeer", unique to this class
        c = relay.client;
        Reply openapi = new RedsynClient("http://127.0.0.1:" + relay.hub.port()).get("/openapi?format=JSON", null, "Accept", "application/json");
        assertEquals(200, openapi.status(), openapi.toString());
        doc = openapi.json();
        scenario();
    }

    @AfterAll
    void stop() {
        if (relay != null) {
            relay.stop();
        }
    }

    private Reply run(String operation, Supplier<Reply> call) {
        Reply r = call.get();
        answers.computeIfAbsent(operation, k -> new ArrayList<>()).add(r);
        return r;
    }

    private static String b64u(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Every operation of the API, each with a real request (a few refusals too, which the document's default must describe). */
    private void scenario() {
        // operator bootstrap
        Reply person = run("POST /admin/persons", () -> c.post("/admin/persons", Relay.ADMIN, obj("email", "joel@apidoc.test", "plan", "enterprise")));
        long joelId = person.json().getJsonNumber("id").longValue();
        run("POST /admin/persons", () -> c.post("/admin/persons", Relay.ADMIN, obj("email", "not-an-email")));
        Reply node = run("POST /admin/persons/{id}/nodes", () -> c.post("/admin/persons/" + joelId + "/nodes", Relay.ADMIN, obj("name", "laptop")));
        String joel = node.json().getString("token");
        run("PUT /admin/persons/{id}/plan", () -> c.put("/admin/persons/" + joelId + "/plan", Relay.ADMIN, obj("plan", "enterprise")));
        String ana = relay.personWithNode("ana@apidoc.test", "pro");
        String out = relay.personWithNode("out@apipeer.test", "pro");

        run("POST /v1/nodes", () -> c.post("/v1/nodes", joel, obj("name", "server")));
        run("PUT /v1/nodes/key", () -> c.put("/v1/nodes/key", joel, keys()));
        run("GET /v1/me", () -> c.get("/v1/me", joel));
        run("GET /v1/me", () -> c.get("/v1/me", "rsn_unknown"));

        // organisations
        run("POST /v1/orgs", () -> c.post("/v1/orgs", joel, obj("handle", "apidoc", "me", "joel")));
        run("POST /v1/orgs", () -> c.post("/v1/orgs", out, obj("handle", "apipeer", "me", "out")));
        run("POST /v1/orgs/{org}/teams", () -> c.post("/v1/orgs/apidoc/teams", joel, obj("handle", "ops")));
        run("POST /v1/orgs/{org}/invites", () -> c.post("/v1/orgs/apidoc/invites", joel, obj("email", "ana@apidoc.test", "team", "general")));
        run("POST /v1/orgs/{org}/join", () -> c.post("/v1/orgs/apidoc/join", ana, obj("me", "ana")));
        run("POST /v1/orgs/{org}/teams/{team}/members", () -> c.post("/v1/orgs/apidoc/teams/ops/members", joel, obj("who", "ana")));
        run("GET /v1/orgs/{org}/usage", () -> c.get("/v1/orgs/apidoc/usage", joel));

        // agents, messages, inbox
        String agent = "/v1/agents/{org}/{team}/{user}/{agent}";
        run("PUT " + agent, () -> c.put("/v1/agents/" + DESK, joel, obj("listening", true, "description", "desk")));
        run("PUT " + agent, () -> c.put("/v1/agents/" + ANA_CLI, ana, obj("listening", false)));
        Reply sent = run("POST /v1/messages", () -> c.post("/v1/messages", ana, request(ANA_CLI, DESK, "hello")));
        String id = sent.json().getString("id");
        String thread = sent.json().getString("thread");
        String sid = sent.json().getString("to").substring(sent.json().getString("to").indexOf('#') + 1);
        run("POST /v1/messages", () -> c.post("/v1/messages", ana, obj("v", 2)));
        String inbox = "/v1/inbox/{org}/{team}/{user}/{agent}";
        run("GET " + inbox, () -> c.get("/v1/inbox/" + DESK + "?wait=0", joel));
        run("POST " + inbox + "/ack", () -> c.post("/v1/inbox/" + DESK + "/ack", joel, obj("ids", List.of(id))));
        run("GET " + agent, () -> c.get("/v1/agents/" + DESK, ana));
        run("GET " + agent + "/key", () -> c.get("/v1/agents/" + DESK + "/key", ana));
        byte[] emptyZip = new byte[22];
        emptyZip[0] = 'P';
        emptyZip[1] = 'K';
        emptyZip[2] = 5;
        emptyZip[3] = 6;
        Reply withFiles = c.post("/v1/messages", ana, Relay.merge(request(ANA_CLI, DESK, "zip"), "files",
                obj("zip", Base64.getEncoder().encodeToString(emptyZip))));
        assertEquals(201, withFiles.status(), withFiles.toString());
        run("GET /v1/messages/{id}/files", () -> c.get("/v1/messages/" + withFiles.json().getString("id") + "/files", ana));
        Reply toCancel = c.post("/v1/messages", ana, request(ANA_CLI, DESK, "never mind"));
        run("POST /v1/messages/{id}/cancel", () -> c.post("/v1/messages/" + toCancel.json().getString("id") + "/cancel", ana, null));
        run("GET " + inbox, () -> c.get("/v1/inbox/" + DESK + "?peek=1", joel));
        run("GET /v1/threads/{id}", () -> c.get("/v1/threads/" + thread, ana));
        run("GET /v1/threads/{id}", () -> c.get("/v1/threads/no-such-thread", ana));
        String session = agent + "/sessions/{sid}";
        run("GET " + session, () -> c.get("/v1/agents/" + DESK + "/sessions/" + sid, joel));
        run("PUT " + session, () -> c.put("/v1/agents/" + DESK + "/sessions/" + sid, joel, obj("title", "greetings")));
        run("POST " + session + "/close", () -> c.post("/v1/agents/" + DESK + "/sessions/" + sid + "/close", joel, null));
        run("GET /v1/directory", () -> c.get("/v1/directory?sessions=1", joel));

        // links
        run("POST /v1/orgs/{org}/links", () -> c.post("/v1/orgs/apidoc/links", joel, obj("other", "apipeer")));
        run("POST /v1/orgs/{org}/links", () -> c.post("/v1/orgs/apipeer/links", out, obj("other", "apidoc")));
        run("PUT /v1/orgs/{org}/links/{other}/expose", () -> c.put("/v1/orgs/apidoc/links/apipeer/expose", joel, obj("kind", "agent", "pattern", "general/*")));
        run("PUT /v1/orgs/{org}/links/{other}/rules", () -> c.put("/v1/orgs/apidoc/links/apipeer/rules", joel, obj("signed_only", true, "ips", "")));
        run("GET /v1/links", () -> c.get("/v1/links", joel));
        run("POST /v1/orgs/{org}/links/{other}/revoke", () -> c.post("/v1/orgs/apidoc/links/apipeer/revoke", joel, null));

        // topics
        run("PUT /v1/subscriptions", () -> c.put("/v1/subscriptions", joel, obj("agent", DESK, "topic", "topic:apidoc/general/news")));
        run("GET /v1/topics", () -> c.get("/v1/topics", joel));
        run("POST /v1/subscriptions/remove", () -> c.post("/v1/subscriptions/remove", joel, obj("agent", DESK, "topic", "topic:apidoc/general/news")));

        // webhooks
        String hook = "http://127.0.0.1:" + relay.hub.port() + "/nowhere";
        run("PUT " + agent + "/webhook", () -> c.put("/v1/agents/" + DESK + "/webhook", joel, obj("url", hook)));
        run("PUT " + agent + "/webhook", () -> c.put("/v1/agents/" + DESK + "/webhook", joel, obj("url", 42)));
        run("DELETE " + agent + "/webhook", () -> c.call("DELETE", "/v1/agents/" + DESK + "/webhook", joel, null));
    }

    /** A node's keys: an Ed25519 signing key and a P-256 encryption key signed by it. */
    private static JsonObject keys() {
        try {
            KeyPair signing = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            byte[] x509 = signing.getPublic().getEncoded();
            byte[] raw = java.util.Arrays.copyOfRange(x509, x509.length - 32, x509.length);
            KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
            ec.initialize(new ECGenParameterSpec("secp256r1"));
            ECPublicKey enc = (ECPublicKey) ec.generateKeyPair().getPublic();
            byte[] point = new byte[65];
            point[0] = 4;
            fixed(enc.getW().getAffineX(), point, 1);
            fixed(enc.getW().getAffineY(), point, 33);
            String encKey = b64u(point);
            Signature s = Signature.getInstance("Ed25519");
            s.initSign(signing.getPrivate());
            s.update(("redsyn-enc-v1:" + encKey).getBytes(StandardCharsets.UTF_8));
            return obj("public_key", b64u(raw), "enc_key", encKey, "enc_sig", b64u(s.sign()));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void fixed(BigInteger v, byte[] out, int offset) {
        byte[] b = v.toByteArray();
        int n = Math.min(b.length, 32);
        System.arraycopy(b, b.length - n, out, offset + 32 - n, n);
    }

    /** The document's operations as "METHOD /template" relative to /redsyn. */
    private Map<String, JsonObject> operations() {
        Map<String, JsonObject> ops = new LinkedHashMap<>();
        for (Map.Entry<String, JsonValue> path : doc.getJsonObject("paths").entrySet()) {
            String p = path.getKey();
            if (!p.startsWith("/redsyn/")) {
                continue;
            }
            String rel = p.substring("/redsyn".length());
            for (Map.Entry<String, JsonValue> op : path.getValue().asJsonObject().entrySet()) {
                if (Set.of("get", "put", "post", "delete", "patch", "head", "options").contains(op.getKey())) {
                    ops.put(op.getKey().toUpperCase() + " " + rel, op.getValue().asJsonObject());
                }
            }
        }
        return ops;
    }

    @Test
    void theDocumentListsEveryOperationTheHubServesAndNothingElse() {
        Set<String> documented = new TreeSet<>(operations().keySet());
        Set<String> served = new TreeSet<>(answers.keySet());
        Set<String> missing = new TreeSet<>(served);
        missing.removeAll(documented);
        assertTrue(missing.isEmpty(), "served but not in /openapi: " + missing);
        Set<String> unexercised = new TreeSet<>(documented);
        unexercised.removeAll(served);
        assertTrue(unexercised.isEmpty(), "in /openapi but not exercised by this test: " + unexercised);
        for (Map.Entry<String, List<Reply>> e : answers.entrySet()) {
            // served: the scenario's request of it succeeded at least once
            assertTrue(e.getValue().stream().anyMatch(r -> r.status() / 100 == 2), e.getKey() + " answered " + e.getValue());
        }
    }

    @Test
    void everyRealAnswerMatchesTheDocumentsSchemaForItsStatus() {
        Map<String, JsonObject> ops = operations();
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Map.Entry<String, List<Reply>> e : answers.entrySet()) {
            JsonObject op = ops.get(e.getKey());
            if (op == null) {
                continue; // reported by the test above
            }
            for (Reply r : e.getValue()) {
                JsonObject responses = op.getJsonObject("responses");
                JsonObject response = responses.containsKey(Integer.toString(r.status())) ? responses.getJsonObject(Integer.toString(r.status()))
                        : responses.getJsonObject("default");
                if (response == null) {
                    problems.add(e.getKey() + ": status " + r.status() + " is not in the document (" + responses.keySet() + "): " + r);
                    continue;
                }
                JsonObject schema = schemaOf(response);
                if (schema == null) {
                    problems.add(e.getKey() + ": response " + r.status() + " has no JSON schema");
                    continue;
                }
                JsonObject described = resolve(schema);
                if (!described.containsKey("required") && !described.containsKey("properties")) {
                    // a schema that names no member accepts any object: the document would describe nothing
                    problems.add(e.getKey() + ": response " + r.status() + " has a schema without members: " + described);
                    continue;
                }
                List<String> errors = new ArrayList<>();
                validate(RedsynClient.parse(r.text()), schema, "$", errors);
                errors.forEach(x -> problems.add(e.getKey() + " " + r.status() + ": " + x));
                checked++;
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        assertTrue(checked >= 35, "answers checked: " + checked);
    }

    @Test
    void errorsAndBearerSecurityAreDeclared() {
        Map<String, JsonObject> ops = operations();
        JsonObject schemes = doc.getJsonObject("components").getJsonObject("securitySchemes");
        assertTrue(schemes != null, "the document declares its security schemes: " + doc.getJsonObject("components").keySet());
        for (String name : List.of("node-token", "admin-token")) {
            assertEquals("http", schemes.getJsonObject(name).getString("type"), name);
            assertEquals("bearer", schemes.getJsonObject(name).getString("scheme"), name);
        }
        for (Map.Entry<String, JsonObject> op : ops.entrySet()) {
            JsonArray security = op.getValue().getJsonArray("security");
            assertTrue(security != null && !security.isEmpty(), op.getKey() + " declares its bearer token");
            String expected = op.getKey().contains(" /admin/") ? "admin-token" : "node-token";
            assertTrue(security.getJsonObject(0).containsKey(expected), op.getKey() + ": " + security);
            JsonObject refusal = schemaOf(op.getValue().getJsonObject("responses").getJsonObject("default"));
            assertTrue(refusal != null, op.getKey() + " documents its refusals");
            JsonObject resolved = resolve(refusal);
            assertTrue(resolved.getJsonArray("required").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList()
                    .containsAll(List.of("error", "status")), op.getKey() + ": " + resolved);
        }
        for (String withBody : List.of("POST /v1/messages", "PUT /v1/nodes/key", "POST /v1/orgs", "PUT /v1/subscriptions")) {
            JsonObject body = ops.get(withBody).getJsonObject("requestBody");
            assertTrue(body != null && schemaOf(body) != null, withBody + " documents its request body");
        }
    }

    private static JsonObject schemaOf(JsonObject responseOrBody) {
        JsonObject content = responseOrBody == null ? null : responseOrBody.getJsonObject("content");
        if (content == null || !content.containsKey("application/json")) {
            return null;
        }
        return content.getJsonObject("application/json").getJsonObject("schema");
    }

    private JsonObject resolve(JsonObject schema) {
        while (schema.containsKey("$ref")) {
            String ref = schema.getString("$ref");
            assertTrue(ref.startsWith("#/components/schemas/"), ref);
            schema = doc.getJsonObject("components").getJsonObject("schemas").getJsonObject(ref.substring("#/components/schemas/".length()));
            assertTrue(schema != null, "dangling " + ref);
        }
        return schema;
    }

    /** A JSON Schema subset as OpenAPI 3.0 uses it: $ref, allOf, type, nullable, enum, required, properties, additionalProperties, items. */
    private void validate(JsonValue value, JsonObject schema, String where, List<String> errors) {
        schema = resolve(schema);
        if (schema.containsKey("allOf")) {
            for (JsonValue part : schema.getJsonArray("allOf")) {
                validate(value, part.asJsonObject(), where, errors);
            }
        }
        if (value.getValueType() == JsonValue.ValueType.NULL) {
            if (schema.containsKey("type") && !schema.getBoolean("nullable", false)) {
                errors.add(where + " is null, which the schema does not allow");
            }
            return;
        }
        if (schema.containsKey("type")) {
            String type = schema.getString("type");
            boolean ok = switch (type) {
                case "object" -> value.getValueType() == JsonValue.ValueType.OBJECT;
                case "array" -> value.getValueType() == JsonValue.ValueType.ARRAY;
                case "string" -> value.getValueType() == JsonValue.ValueType.STRING;
                case "boolean" -> value.getValueType() == JsonValue.ValueType.TRUE || value.getValueType() == JsonValue.ValueType.FALSE;
                case "integer" -> value instanceof JsonNumber n && n.isIntegral();
                case "number" -> value instanceof JsonNumber;
                default -> false;
            };
            if (!ok) {
                errors.add(where + " should be " + type + ": " + value);
                return;
            }
        }
        if (schema.containsKey("enum") && !schema.getJsonArray("enum").contains(value)) {
            errors.add(where + " = " + value + " is not one of " + schema.getJsonArray("enum"));
        }
        if (value instanceof JsonObject object) {
            if (schema.containsKey("required")) {
                for (JsonString name : schema.getJsonArray("required").getValuesAs(JsonString.class)) {
                    if (!object.containsKey(name.getString())) {
                        errors.add(where + " lacks required " + name.getString());
                    }
                }
            }
            JsonObject properties = schema.containsKey("properties") ? schema.getJsonObject("properties") : JsonValue.EMPTY_JSON_OBJECT;
            JsonValue additional = schema.get("additionalProperties");
            for (Map.Entry<String, JsonValue> member : object.entrySet()) {
                if (properties.containsKey(member.getKey())) {
                    validate(member.getValue(), properties.getJsonObject(member.getKey()), where + "." + member.getKey(), errors);
                } else if (additional == JsonValue.FALSE) {
                    errors.add(where + " has " + member.getKey() + ", which the schema does not allow");
                } else if (additional instanceof JsonObject extra) {
                    validate(member.getValue(), extra, where + "." + member.getKey(), errors);
                }
            }
        }
        if (value instanceof JsonArray array && schema.containsKey("items")) {
            for (int i = 0; i < array.size(); i++) {
                validate(array.get(i), schema.getJsonObject("items"), where + "[" + i + "]", errors);
            }
        }
    }
}
