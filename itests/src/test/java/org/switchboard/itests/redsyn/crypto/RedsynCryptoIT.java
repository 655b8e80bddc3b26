package org.switchboard.itests.redsyn.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.merge;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.request;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.switchboard.itests.redsyn.RedsynClient;
import org.switchboard.itests.redsyn.RedsynClient.Reply;
import org.switchboard.itests.redsyn.Relay;

/**
 * REDSYN signatures and end-to-end encryption against the packaged server, driven by a test client
 * ({@link E2eNode}) written from the protocol document with the JDK only: key registration and its
 * refusals, {@code GET /agents/…/key}, signed requests and every signature refusal, sealed requests
 * with files and a sealed reply, {@code encrypted_only}, and the reservation of a sealed request for
 * the node it was sealed for.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedsynCryptoIT {

    private static final String ANA_CLI = "cryptoco/general/ana/cli";
    private static final AtomicInteger IDS = new AtomicInteger();

    private Relay relay;
    private RedsynClient c;
    private long joelId;
    private String joel;        // joel's node "laptop"
    private String joelServer;  // joel's node "server"
    private String ana;         // ana's node "laptop"
    private String out;         // cryptout, not linked to cryptoco
    private final E2eNode joelKeys = new E2eNode();
    private final E2eNode serverKeys = new E2eNode();
    private final E2eNode anaKeys = new E2eNode();

    @BeforeAll
    void start() {
        // the loopback knob only lets the key test give an agent a webhook; nothing is delivered to it
        relay = Relay.shared(); // names under "cryptoco", "cryptout" and "cryptofar", unique to this class
        c = relay.client;
        joelId = relay.person("joel@cryptoco.test", "enterprise");
        joel = relay.node(joelId, "laptop");
        joelServer = relay.node(joelId, "server");
        ana = relay.personWithNode("ana@cryptoco.test", "enterprise");
        out = relay.personWithNode("out@cryptout.test", null);
        assertEquals(201, c.post("/v1/orgs", joel, obj("handle", "cryptoco", "me", "joel")).status());
        assertEquals(201, c.post("/v1/orgs/cryptoco/invites", joel, obj("email", "ana@cryptoco.test", "team", "general")).status());
        assertEquals(201, c.post("/v1/orgs/cryptoco/join", ana, obj("me", "ana")).status());
        assertEquals(201, c.post("/v1/orgs", out, obj("handle", "cryptout", "me", "out")).status());
        register(joel, joelKeys);
        register(joelServer, serverKeys);
        register(ana, anaKeys);
    }

    @AfterAll
    void stop() {
        if (relay != null) {
            relay.stop();
        }
    }

    // ---- the test client itself ---------------------------------------------------------------

    @Test
    void theTestClientsHkdfMatchesRfc5869TestCase1() throws Exception {
        HexFormat hex = HexFormat.of();
        byte[] okm = E2eNode.hkdf(hex.parseHex("0b".repeat(22)), hex.parseHex("000102030405060708090a0b0c"),
                hex.parseHex("f0f1f2f3f4f5f6f7f8f9"), 42);
        assertEquals("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865", hex.formatHex(okm));
    }

    // ---- PUT /nodes/key -------------------------------------------------------------------------

    @Test
    void registeringRotatingAndRefusingNodeKeys() {
        String node = newNode("keys-a");
        E2eNode first = new E2eNode();
        Reply shortKey = c.put("/v1/nodes/key", node, obj("public_key", E2eNode.b64u(new byte[31])));
        assertError(shortKey, 422, "32 bytes");

        Reply ok = c.put("/v1/nodes/key", node, obj("public_key", first.signingKey()));
        assertEquals(200, ok.status(), ok.toString());
        assertEquals(first.fingerprint(), ok.json().getString("fingerprint"));
        assertEquals("keys-a", ok.json().getString("node"));
        assertFalse(ok.json().getBoolean("rotated"));

        E2eNode stranger = new E2eNode();
        Reply foreignEncSig = c.put("/v1/nodes/key", node, obj("public_key", first.signingKey(),
                "enc_key", first.encKey(), "enc_sig", stranger.encSig()));
        assertError(foreignEncSig, 422, "enc_sig");
        Reply shortEncKey = c.put("/v1/nodes/key", node, obj("public_key", first.signingKey(),
                "enc_key", E2eNode.b64u(new byte[64]), "enc_sig", first.encSig()));
        assertError(shortEncKey, 422, "65 bytes");
        Reply encWithoutSig = c.put("/v1/nodes/key", node, obj("public_key", first.signingKey(), "enc_key", first.encKey()));
        assertEquals(422, encWithoutSig.status(), encWithoutSig.toString());

        Reply withEnc = c.put("/v1/nodes/key", node, obj("public_key", first.signingKey(), "enc_key", first.encKey(), "enc_sig", first.encSig()));
        assertEquals(200, withEnc.status(), withEnc.toString());
        assertEquals(first.encKey(), withEnc.json().getString("enc_key"));

        E2eNode second = new E2eNode();
        Reply noRotate = c.put("/v1/nodes/key", node, obj("public_key", second.signingKey()));
        assertError(noRotate, 409, "\"rotate\": true");
        Reply rotateFalse = c.put("/v1/nodes/key", node, obj("public_key", second.signingKey(), "rotate", false));
        assertEquals(409, rotateFalse.status());

        // the old key still holds until the rotation happens
        JsonObject beforeRotation = request("cryptoco/general/joel/cli", "cryptoco/general/joel/cli", "still the first key",
                "ts", now(), "id", nextId("rot"));
        assertEquals(201, c.post("/v1/messages", node, first.signed(beforeRotation)).status());

        Reply rotated = c.put("/v1/nodes/key", node, obj("public_key", second.signingKey(), "rotate", true));
        assertEquals(200, rotated.status(), rotated.toString());
        assertTrue(rotated.json().getBoolean("rotated"));
        assertEquals(second.fingerprint(), rotated.json().getString("fingerprint"));
        assertNotEquals(first.fingerprint(), second.fingerprint());

        JsonObject e = request("cryptoco/general/joel/cli", "cryptoco/general/joel/cli", "after rotation", "ts", now(), "id", nextId("rot"));
        assertError(c.post("/v1/messages", node, first.signed(e)), 401, "not the key this node registered");
        Reply byNew = c.post("/v1/messages", node, second.signed(e));
        assertEquals(201, byNew.status(), byNew.toString());
        assertTrue(byNew.json().getBoolean("signed"));
    }

    // ---- GET /agents/{…}/key --------------------------------------------------------------------

    @Test
    void theAgentKeyIsTheListeningNodesKey() throws Exception {
        assertError(c.get("/v1/agents/cryptoco/general/joel/nosuch/key", ana), 404, "no agent");

        String plain = newNode("plain");
        assertEquals(201, c.put("/v1/agents/cryptoco/general/joel/nokey", plain, obj("listening", true)).status());
        assertError(c.get("/v1/agents/cryptoco/general/joel/nokey/key", ana), 404, "no encryption key");

        listen(joel, "keyed", obj("listening", true));
        Reply key = c.get("/v1/agents/cryptoco/general/joel/keyed/key", ana);
        assertEquals(200, key.status(), key.toString());
        JsonObject k = key.json();
        assertEquals("laptop", k.getString("node"));
        assertEquals(joelKeys.signingKey(), k.getString("signing_key"));
        assertEquals(joelKeys.encKey(), k.getString("enc_key"));
        assertEquals(joelKeys.fingerprint(), k.getString("fingerprint"));
        // the sender's own check: enc_sig is the signing key's signature of "redsyn-enc-v1:" + enc_key
        assertTrue(E2eNode.verify(k.getString("signing_key"),
                ("redsyn-enc-v1:" + k.getString("enc_key")).getBytes(StandardCharsets.UTF_8), k.getString("enc_sig")));
        assertEquals(E2eNode.sha256Hex(E2eNode.unb64u(k.getString("signing_key"))), k.getString("fingerprint"));

        // an organisation without a link sees neither the agent nor its key
        assertError(c.get("/v1/agents/cryptoco/general/joel/keyed/key", out), 404, "no agent");

        // an agent served by a webhook has no key; back on the inbox, the listening node's key again
        Reply hook = c.put("/v1/agents/cryptoco/general/joel/keyed/webhook", joel, obj("url", "http://127.0.0.1:9/hook"));
        assertEquals(201, hook.status(), hook.toString());
        assertError(c.get("/v1/agents/cryptoco/general/joel/keyed/key", ana), 404, "served by a webhook");
        assertEquals(200, c.call("DELETE", "/v1/agents/cryptoco/general/joel/keyed/webhook", joel, null).status());
        assertEquals(200, c.get("/v1/agents/cryptoco/general/joel/keyed/key", ana).status());
    }

    // ---- signatures -----------------------------------------------------------------------------

    @Test
    void aSignedRequestCrossesALinkWhoseDefaultRulesTakeOnlySignedOnes() throws Exception {
        String far = relay.personWithNode("far@cryptofar.test", "enterprise");
        E2eNode farKeys = new E2eNode();
        register(far, farKeys);
        assertEquals(201, c.post("/v1/orgs", far, obj("handle", "cryptofar", "me", "far")).status());
        String farCli = "cryptofar/general/far/cli";
        assertEquals(201, c.put("/v1/agents/" + farCli, far, obj("listening", true)).status());
        listen(joel, "partner", obj("listening", true, "allow", Json.createArrayBuilder().add("org:cryptofar").build()));
        String to = "cryptoco/general/joel/partner";

        assertEquals(201, c.post("/v1/orgs/cryptofar/links", far, obj("other", "cryptoco")).status());
        assertEquals(200, c.post("/v1/orgs/cryptoco/links", joel, obj("other", "cryptofar")).status());
        Reply exposed = c.put("/v1/orgs/cryptoco/links/cryptofar/expose", joel, obj("kind", "agent", "pattern", "general/joel/partner", "on", true));
        assertEquals(200, exposed.status(), exposed.toString());

        Reply unsigned = c.post("/v1/messages", far, request(farCli, to, "unsigned across", "id", nextId("link")));
        assertEquals(403, unsigned.status(), "cryptoco's default rules for cryptofar take only signed messages: " + unsigned);
        Reply foreignKey = c.post("/v1/messages", far, anaKeys.signed(request(farCli, to, "wrong key", "ts", now(), "id", nextId("link"))));
        assertEquals(401, foreignKey.status(), "signed, but not by the key far's node registered: " + foreignKey);
        JsonObject sent = request(farCli, to, "signed across", "ts", now(), "id", nextId("link"));
        Reply signed = c.post("/v1/messages", far, farKeys.signed(sent));
        assertEquals(201, signed.status(), signed.toString());
        assertTrue(signed.json().getBoolean("signed"));

        JsonArray items = take(joel, to);
        assertEquals(1, items.size(), items.toString());
        JsonObject e = items.getJsonObject(0);
        assertEquals("signed across", e.getJsonObject("body").getString("text"));
        JsonObject sig = e.getJsonObject("sig");
        assertEquals(farKeys.signingKey(), sig.getString("key"));
        assertEquals(E2eNode.payload(sent), sig.getString("payload"));
        assertTrue(E2eNode.verify(sig.getString("key"), sig.getString("payload").getBytes(StandardCharsets.UTF_8), sig.getString("value")),
                "the receiver verifies the signature itself, without trusting the relay");
    }

    @Test
    void signedRequestsReachSignedOnlyAndFullTrustAgents() throws Exception {
        listen(joel, "strict", obj("listening", true, "signed_only", true));
        assertError(c.post("/v1/messages", ana, request(ANA_CLI, "cryptoco/general/joel/strict", "unsigned")), 403,
                "cryptoco/general/joel/strict takes only signed requests");

        byte[] zip = "PK\u0003\u0004 pretend zip".getBytes(StandardCharsets.ISO_8859_1);
        JsonObject sent = request(ANA_CLI, "cryptoco/general/joel/strict", "signed hello", "id", nextId("sig"), "ts", now(),
                "refs", Json.createArrayBuilder().add(obj("url", "https://git.cryptoco.test/app", "note", "main")).build(),
                "files", obj("zip", Base64.getEncoder().encodeToString(zip)));
        Reply accepted = c.post("/v1/messages", ana, anaKeys.signed(sent));
        assertEquals(201, accepted.status(), accepted.toString());
        assertTrue(accepted.json().getBoolean("signed"));

        JsonArray items = take(joel, "cryptoco/general/joel/strict");
        assertEquals(1, items.size(), items.toString());
        JsonObject e = items.getJsonObject(0);
        assertTrue(e.getBoolean("signed"));
        JsonObject sig = e.getJsonObject("sig");
        assertEquals("ed25519", sig.getString("alg"));
        assertEquals(anaKeys.signingKey(), sig.getString("key"));
        assertEquals("laptop", sig.getString("node"));
        assertEquals(anaKeys.fingerprint(), sig.getString("fingerprint"));
        assertEquals(E2eNode.payload(sent), sig.getString("payload"), "the payload is exactly what was signed");
        assertTrue(E2eNode.verify(sig.getString("key"), sig.getString("payload").getBytes(StandardCharsets.UTF_8), sig.getString("value")));
        // the receiver's checks from the document: the payload says the same as the envelope
        JsonObject p = (JsonObject) RedsynClient.parse(sig.getString("payload"));
        assertEquals(e.getString("id"), p.getString("id"));
        assertEquals(e.getString("kind"), p.getString("kind"));
        assertEquals(e.getJsonObject("body"), p.getJsonObject("body"));
        assertEquals(e.getJsonObject("files").getString("sha256"), p.getString("files_sha256"));
        assertEquals(E2eNode.sha256Hex(zip), p.getString("files_sha256"));

        listen(joel, "runner", obj("listening", true, "trust", "full", "allow", List.of("ana")));
        assertEquals(403, c.post("/v1/messages", ana, request(ANA_CLI, "cryptoco/general/joel/runner", "unsigned")).status());
        Reply trusted = c.post("/v1/messages", ana, anaKeys.signed(request(ANA_CLI, "cryptoco/general/joel/runner", "run it",
                "ts", now(), "id", nextId("sig"))));
        assertEquals(201, trusted.status(), trusted.toString());
        assertTrue(take(joel, "cryptoco/general/joel/runner").getJsonObject(0).getBoolean("signed"));
    }

    @Test
    void signaturesThatDoNotHoldAreRefusedWith401() {
        listen(joel, "picky", obj("listening", true, "signed_only", true));
        String to = "cryptoco/general/joel/picky";

        JsonObject e = request(ANA_CLI, to, "hello", "ts", now(), "id", nextId("bad"));
        assertError(c.post("/v1/messages", ana, E2eNode.signedBy(e, new E2eNode())), 401, "not the key this node registered");

        JsonObject signed = anaKeys.signed(request(ANA_CLI, to, "pay 10", "ts", now(), "id", nextId("bad")));
        JsonObject tampered = merge(signed, "body", Relay.text("pay 1000"));
        assertError(c.post("/v1/messages", ana, tampered), 401, "does not cover exactly what arrived");
        JsonObject retargeted = merge(signed, "to", "cryptoco/general/joel/strict");
        assertEquals(401, c.post("/v1/messages", ana, retargeted).status());
        JsonObject addedRef = merge(signed, "refs", Json.createArrayBuilder().add(obj("url", "https://evil.test")).build());
        assertEquals(401, c.post("/v1/messages", ana, addedRef).status());

        JsonObject stale = anaKeys.signed(request(ANA_CLI, to, "old", "ts", now() - 601, "id", nextId("bad")));
        assertError(c.post("/v1/messages", ana, stale), 401, "ten minutes");
        JsonObject future = anaKeys.signed(request(ANA_CLI, to, "future", "ts", now() + 700, "id", nextId("bad")));
        assertEquals(401, c.post("/v1/messages", ana, future).status());

        // joel's node "server" registered a key, his node "plain-sender" did not
        String keyless = newNode("plain-sender");
        JsonObject fromKeyless = joelKeys.signed(request("cryptoco/general/joel/cli", to, "x", "ts", now(), "id", nextId("bad")));
        assertError(c.post("/v1/messages", keyless, fromKeyless), 401, "PUT /nodes/key");

        assertEquals(0, take(joel, to).size(), "nothing refused was stored");
        // and the connection and the node stay usable
        Reply good = c.post("/v1/messages", ana, anaKeys.signed(request(ANA_CLI, to, "fine", "ts", now(), "id", nextId("bad"))));
        assertEquals(201, good.status(), good.toString());
    }

    // ---- end-to-end encryption ------------------------------------------------------------------

    @Test
    void aSealedRequestWithFilesAndItsSealedReply() throws Exception {
        listen(joel, "vault", obj("listening", true, "encrypted_only", true));
        String to = "cryptoco/general/joel/vault";
        assertError(c.post("/v1/messages", ana, request(ANA_CLI, to, "in clear")), 403,
                "cryptoco/general/joel/vault takes only encrypted requests");

        JsonObject key = c.get("/v1/agents/" + to + "/key", ana).json();
        assertTrue(E2eNode.verify(key.getString("signing_key"),
                ("redsyn-enc-v1:" + key.getString("enc_key")).getBytes(StandardCharsets.UTF_8), key.getString("enc_sig")));
        byte[] zip = "PK\u0003\u0004 the secret ledger".getBytes(StandardCharsets.ISO_8859_1);
        JsonObject body = obj("type", "application/json", "data", obj("invoice", 123, "question", "paid?"));
        JsonObject refs = obj("url", "https://git.cryptoco.test/ledger", "note", "at 4f2c1d");
        String id = nextId("e2e");
        JsonObject plain = merge(request(ANA_CLI, to, "unused"), "id", id, "ts", now(), "body", body,
                "refs", Json.createArrayBuilder().add(refs).build(), "files", obj("zip", Base64.getEncoder().encodeToString(zip)));
        JsonObject sealed = anaKeys.signed(E2eNode.seal(plain, key.getString("enc_key"), anaKeys.encKey()));
        Reply accepted = c.post("/v1/messages", ana, sealed);
        assertEquals(201, accepted.status(), accepted.toString());
        assertTrue(accepted.json().getBoolean("signed"));

        JsonArray items = take(joel, to);
        assertEquals(1, items.size(), items.toString());
        JsonObject e = items.getJsonObject(0);
        assertEquals(sealed.getJsonObject("body"), e.getJsonObject("body"), "the relay passes the sealed body on unread");
        assertEquals(0, e.getJsonArray("refs").size());
        assertTrue(e.getBoolean("signed"));
        assertEquals(E2eNode.payload(sealed), e.getJsonObject("sig").getString("payload"), "the signature covers the sealed body");
        Reply files = c.get("/v1/messages/" + id + "/files", joel);
        assertEquals(200, files.status(), files.toString());
        byte[] sealedZip = Base64.getDecoder().decode(files.json().getString("zip"));
        assertFalse(new String(sealedZip, StandardCharsets.ISO_8859_1).contains("secret ledger"));
        assertEquals(E2eNode.sha256Hex(sealedZip), e.getJsonObject("files").getString("sha256"));

        E2eNode.Opened opened = joelKeys.open(e, sealedZip);
        assertEquals(body, opened.inner().getJsonObject("body"));
        assertEquals(refs, opened.inner().getJsonArray("refs").getJsonObject(0));
        assertEquals(anaKeys.encKey(), opened.inner().getString("reply_key"));
        assertArrayEquals(zip, opened.zip());
        // another node's key opens nothing
        assertTrue(failsToOpen(serverKeys, e, sealedZip));

        String replyId = nextId("e2e-reply");
        JsonObject reply = obj("v", 1, "id", replyId, "kind", "reply", "from", to, "reply_to", id, "ts", now(),
                "body", Relay.text("paid on the 3rd"));
        JsonObject sealedReply = joelKeys.signed(E2eNode.seal(reply, opened.inner().getString("reply_key"), null));
        Reply replied = c.post("/v1/messages", joel, sealedReply);
        assertEquals(201, replied.status(), replied.toString());
        assertEquals(200, c.post("/v1/inbox/" + to + "/ack", joel, obj("ids", List.of(id))).status());

        JsonArray back = take(ana, ANA_CLI, "reply_to=" + id);
        assertEquals(1, back.size(), back.toString());
        JsonObject r = back.getJsonObject(0);
        assertEquals("application/redsyn+encrypted", r.getJsonObject("body").getString("type"));
        assertTrue(r.getBoolean("signed"));
        assertEquals(joelKeys.fingerprint(), r.getJsonObject("sig").getString("fingerprint"));
        assertEquals("paid on the 3rd", anaKeys.open(r, null).inner().getJsonObject("body").getString("text"));
    }

    @Test
    void aSealedRequestIsTakenOnlyByTheNodeItWasSealedFor() throws Exception {
        String to = "cryptoco/general/joel/twin";
        listen(joelServer, "twin", obj("listening", true));
        take(joelServer, to);
        listen(joel, "twin", obj("listening", true));
        take(joel, to);
        JsonObject key = c.get("/v1/agents/" + to + "/key", ana).json();
        assertEquals("laptop", key.getString("node"), "the laptop listened last");

        String sealedId = nextId("twin");
        JsonObject plain = merge(request(ANA_CLI, to, "for the laptop only"), "id", sealedId, "ts", now());
        Reply sent = c.post("/v1/messages", ana, anaKeys.signed(E2eNode.seal(plain, key.getString("enc_key"), anaKeys.encKey())));
        assertEquals(201, sent.status(), sent.toString());

        assertEquals(0, take(joelServer, to).size(), "the server does not take what was sealed for the laptop");
        Reply clear = c.post("/v1/messages", ana, request(ANA_CLI, to, "anyone may take this"));
        assertEquals(201, clear.status());
        JsonArray forServer = take(joelServer, to);
        assertEquals(1, forServer.size(), forServer.toString());
        assertEquals(clear.json().getString("id"), forServer.getJsonObject(0).getString("id"));
        assertEquals("server", c.get("/v1/agents/" + to + "/key", ana).json().getString("node"),
                "the key follows the node that listened last; the reservation does not");
        assertEquals(0, take(joelServer, to).size());

        JsonArray forLaptop = take(joel, to);
        assertEquals(1, forLaptop.size(), forLaptop.toString());
        JsonObject e = forLaptop.getJsonObject(0);
        assertEquals(sealedId, e.getString("id"));
        assertEquals("for the laptop only", joelKeys.open(e, null).inner().getJsonObject("body").getString("text"));
    }

    // ---- helpers --------------------------------------------------------------------------------

    private void register(String token, E2eNode keys) {
        Reply r = c.put("/v1/nodes/key", token, obj("public_key", keys.signingKey(), "enc_key", keys.encKey(), "enc_sig", keys.encSig()));
        assertEquals(200, r.status(), r.toString());
    }

    private String newNode(String name) {
        return relay.node(joelId, name);
    }

    private void listen(String token, String agent, JsonObject announce) {
        Reply r = c.put("/v1/agents/cryptoco/general/joel/" + agent, token, announce);
        assertTrue(r.status() == 200 || r.status() == 201, r.toString());
    }

    private JsonArray take(String token, String address) {
        return take(token, address, "");
    }

    private JsonArray take(String token, String address, String query) {
        Reply r = c.get("/v1/inbox/" + address + (query.isEmpty() ? "" : "?" + query), token);
        assertEquals(200, r.status(), r.toString());
        return r.items();
    }

    private static boolean failsToOpen(E2eNode node, JsonObject e, byte[] zip) {
        try {
            node.open(e, zip);
            return false;
        } catch (java.security.GeneralSecurityException expected) {
            return true;
        }
    }

    private static void assertError(Reply r, int status, String mentions) {
        assertEquals(status, r.status(), r.toString());
        assertEquals(status, r.json().getInt("status"), r.toString());
        assertTrue(r.error().contains(mentions), "expected '" + mentions + "' in " + r);
    }

    private static long now() {
        return System.currentTimeMillis() / 1000;
    }

    private static String nextId(String prefix) {
        return prefix + "-" + System.nanoTime() + "-" + IDS.incrementAndGet();
    }
}
