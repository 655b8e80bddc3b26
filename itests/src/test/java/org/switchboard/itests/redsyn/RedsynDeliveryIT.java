package org.switchboard.itests.redsyn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.reply;
import static org.switchboard.itests.redsyn.Relay.request;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.switchboard.itests.redsyn.RedsynClient.Reply;
import org.switchboard.itests.support.HubLog;

/**
 * Black-box tests of delivery against the packaged server: sending, the envelope rules, inbox
 * take/peek/ack with long polling, leases and attempts, TTL expiry, cancellation, files, sessions,
 * threads and their visibility, order per session, concurrent sends of one id or on one new thread.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedsynDeliveryIT {

    private static final String CLI = "deliverco/general/joel/cli";
    private static final String ANA_CLI = "deliverco/general/ana/cli";

    private Relay relay;
    private RedsynClient c;
    private String joel;
    private String ana;
    private String olga;
    private String out;
    private String free;

    @BeforeAll
    void start() {
        relay = Relay.shared(); // names under "deliverco", "deliverout" and "deliverfree", unique to this class
        c = relay.client;
        joel = relay.personWithNode("joel@deliverco.test", "enterprise");
        ana = relay.personWithNode("ana@deliverco.test", null);
        olga = relay.personWithNode("olga@deliverco.test", null);
        out = relay.personWithNode("out@deliverout.test", null);
        free = relay.personWithNode("fay@deliverfree.test", "free");
        assertEquals(201, c.post("/v1/orgs", joel, obj("handle", "deliverco", "me", "joel")).status());
        c.post("/v1/orgs/deliverco/invites", joel, obj("email", "ana@deliverco.test", "team", "general"));
        assertEquals(201, c.post("/v1/orgs/deliverco/join", ana, obj("me", "ana")).status());
        c.post("/v1/orgs/deliverco/invites", joel, obj("email", "olga@deliverco.test", "team", "general"));
        assertEquals(201, c.post("/v1/orgs/deliverco/join", olga, obj("me", "olga")).status());
        assertEquals(201, c.post("/v1/orgs", out, obj("handle", "deliverout", "me", "out")).status());
        assertEquals(201, c.post("/v1/orgs", free, obj("handle", "deliverfree", "me", "fay")).status());
    }

    @AfterAll
    void stop() {
        if (relay != null) {
            relay.stop();
        }
    }

    private void announce(String token, String address) {
        Reply r = c.put("/v1/agents/" + address, token, obj("listening", true));
        assertTrue(r.status() == 200 || r.status() == 201, r.toString());
    }

    private Reply send(String token, JsonObject envelope) {
        return c.post("/v1/messages", token, envelope);
    }

    private JsonObject sent(String token, JsonObject envelope) {
        Reply r = send(token, envelope);
        assertEquals(201, r.status(), r.toString());
        return r.json();
    }

    private JsonArray take(String token, String address, String query) {
        Reply r = c.get("/v1/inbox/" + address + (query.isEmpty() ? "" : "?" + query), token);
        assertEquals(200, r.status(), r.toString());
        return r.items();
    }

    private void ack(String token, String address, String... ids) {
        Reply r = c.post("/v1/inbox/" + address + "/ack", token, obj("ids", List.of(ids)));
        assertEquals(200, r.status(), r.toString());
    }

    // ---- send, take, reply, ack --------------------------------------------------------------

    @Test
    void requestTakeReplyAckRoundTrip() {
        announce(joel, "deliverco/general/joel/shout");
        JsonObject accepted = sent(ana, request(ANA_CLI, "deliverco/general/joel/shout", "hello"));
        String id = accepted.getString("id");
        assertEquals(id, accepted.getString("thread"), "a request without a thread opens one with its own id");
        assertTrue(accepted.getString("to").startsWith("deliverco/general/joel/shout#s"), accepted.toString());
        assertFalse(accepted.getBoolean("signed"));

        JsonArray items = take(joel, "deliverco/general/joel/shout", "wait=5&lease=300");
        assertEquals(1, items.size());
        JsonObject e = items.getJsonObject(0);
        assertEquals(1, e.getInt("v"));
        assertEquals(id, e.getString("id"));
        assertEquals("request", e.getString("kind"));
        assertEquals(ANA_CLI, e.getString("from"));
        assertEquals(accepted.getString("to"), e.getString("to"));
        assertEquals("hello", e.getJsonObject("body").getString("text"));
        assertEquals(1, e.getInt("attempts"));
        assertTrue(e.getJsonNumber("expires").longValue() > System.currentTimeMillis() / 1000);
        assertFalse(e.getBoolean("signed"));
        assertFalse(e.getBoolean("error"));

        JsonObject answered = sent(joel, reply("deliverco/general/joel/shout", id, "HELLO", "to", "ignored on replies"));
        assertEquals(ANA_CLI, answered.getString("to"));
        assertEquals(id, answered.getString("thread"));
        ack(joel, "deliverco/general/joel/shout", id);

        JsonArray back = take(ana, ANA_CLI, "reply_to=" + id);
        assertEquals(1, back.size());
        JsonObject r = back.getJsonObject(0);
        assertEquals("reply", r.getString("kind"));
        assertEquals(id, r.getString("reply_to"));
        assertEquals(accepted.getString("to"), r.getString("from"), "the reply comes from the session that answered");
        assertEquals("HELLO", r.getJsonObject("body").getString("text"));
        ack(ana, ANA_CLI, r.getString("id"));
        assertEquals(0, take(joel, "deliverco/general/joel/shout", "").size());

        Reply unknownAck = c.post("/v1/inbox/deliverco/general/joel/shout/ack", joel, obj("ids", List.of("nope")));
        assertEquals("nope", unknownAck.json().getJsonArray("not_acked").getString(0));
        assertEquals(403, c.get("/v1/inbox/deliverco/general/joel/shout", ana).status(), "only the owner's nodes take");
        assertEquals(403, c.post("/v1/inbox/deliverco/general/joel/shout/ack", ana, obj("ids", List.of(id))).status());
        assertEquals(422, c.post("/v1/inbox/deliverco/general/joel/shout/ack", joel, obj()).status());
    }

    @Test
    void shortFormsResolveFromTheSender() {
        announce(joel, "deliverco/general/joel/short1");
        announce(ana, "deliverco/general/ana/short2");
        assertTrue(sent(joel, request(CLI, "short1", "own agent")).getString("to").startsWith("deliverco/general/joel/short1#s"));
        assertTrue(sent(joel, request(CLI, "ana/short2", "team")).getString("to").startsWith("deliverco/general/ana/short2#s"));
        assertTrue(sent(joel, request(CLI, "general/ana/short2", "org")).getString("to").startsWith("deliverco/general/ana/short2#s"));
        assertEquals(422, send(joel, request(CLI, "a/b/c/d/e", "bad")).status());
    }

    @Test
    void envelopeRulesAreEnforced() {
        announce(joel, "deliverco/general/joel/rules");
        Reply v2 = send(ana, Relay.merge(request(ANA_CLI, "deliverco/general/joel/rules", "x"), "v", 2));
        assertEquals(422, v2.status());
        assertEquals("v must be 1", v2.error());
        assertEquals(422, v2.json().getInt("status"));
        assertEquals(422, send(ana, Relay.merge(request(ANA_CLI, "deliverco/general/joel/rules", "x"), "kind", "shout")).status());
        assertEquals(404, send(ana, request(ANA_CLI, "deliverco/general/joel/nobody", "x")).status());
        assertEquals(413, send(ana, request(ANA_CLI, "deliverco/general/joel/rules", "x".repeat(70_000))).status());
        assertEquals(422, send(ana, Relay.merge(request(ANA_CLI, "deliverco/general/joel/rules", "x"), "error", true)).status());
        assertEquals(404, send(ana, reply(ANA_CLI, "no-such-request", "x")).status());
        assertEquals(201, send(ana, Relay.merge(request(ANA_CLI, "topic:deliverco/general/news", "x"), "kind", "event")).status(),
                "an event to a topic is published (RedsynLinksTopicsIT covers topics)");

        JsonObject refs = obj("url", "https://git.deliverco.test/app", "note", "at 4f2c1d");
        String id = sent(ana, Relay.merge(request(ANA_CLI, "deliverco/general/joel/rules", "with refs"), "refs",
                jakarta.json.Json.createArrayBuilder().add(refs).build(), "ts", 1790000000L)).getString("id");
        JsonObject e = take(joel, "deliverco/general/joel/rules", "").getJsonObject(0);
        assertEquals(id, e.getString("id"));
        assertEquals("https://git.deliverco.test/app", e.getJsonArray("refs").getJsonObject(0).getString("url"));
        assertEquals(1790000000L, e.getJsonNumber("ts").longValue());
    }

    /** Sends {@code envelope} from {@code threads} threads at once; their answers, in no particular order. */
    private List<Reply> sendAtOnce(String token, int threads, IntFunction<JsonObject> envelope) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Reply>> replies = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int n = i;
                replies.add(pool.submit(() -> {
                    go.await();
                    return send(token, envelope.apply(n));
                }));
            }
            go.countDown();
            List<Reply> answers = new ArrayList<>();
            for (Future<Reply> reply : replies) {
                answers.add(reply.get(120, TimeUnit.SECONDS));
            }
            return answers;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void concurrentSendsOfOneIdStoreItOnceAndAnswerTheRestAsDuplicates() throws Exception {
        String agent = "deliverco/general/joel/race";
        announce(joel, agent);
        long logFrom = HubLog.size(relay.hub.logFile());
        for (int round = 0; round < 3; round++) {
            JsonObject envelope = Relay.merge(Relay.merge(request(ANA_CLI, agent, "race " + round), "id", "race-" + round),
                    "thread", "race-thread-" + round);
            List<Reply> answers = sendAtOnce(ana, 12, n -> envelope);
            int created = 0;
            for (Reply r : answers) {
                assertTrue(r.status() == 201 || r.status() == 200, "round " + round + ": " + r);
                assertEquals("race-" + round, r.json().getString("id"), r.toString());
                assertEquals(answers.get(0).json().getString("to"), r.json().getString("to"), "one session: " + r);
                if (r.status() == 201) {
                    created++;
                } else {
                    assertTrue(r.json().getBoolean("duplicate"), r.toString());
                }
            }
            assertEquals(1, created, "round " + round + ": exactly one send stored it");
        }
        assertEquals(3, take(joel, agent, "peek=1").size(), "one message per id");
        assertFalse(HubLog.since(relay.hub.logFile(), logFrom).contains("REDSYN internal error"), "no internal error logged");
    }

    @Test
    void concurrentFirstSendsOnOneNewThreadAllLandInOneSession() throws Exception {
        String agent = "deliverco/general/joel/samethread";
        announce(joel, agent);
        List<Reply> answers = sendAtOnce(ana, 12,
                n -> Relay.merge(request(ANA_CLI, agent, "part " + n), "thread", "one-new-thread"));
        for (Reply r : answers) {
            assertEquals(201, r.status(), r.toString());
            assertEquals(answers.get(0).json().getString("to"), r.json().getString("to"),
                    "the thread follows the session the first of them opened: " + r);
        }
        assertEquals(12, take(joel, agent, "peek=1").size());
    }

    @Test
    void resendingAnIdReturnsTheFirstMessage() {
        announce(joel, "deliverco/general/joel/dedup");
        JsonObject first = sent(ana, Relay.merge(request(ANA_CLI, "deliverco/general/joel/dedup", "one"), "id", "retry-42"));
        assertEquals("retry-42", first.getString("id"));
        Reply again = send(ana, Relay.merge(request(ANA_CLI, "deliverco/general/joel/dedup", "two"), "id", "retry-42"));
        assertEquals(200, again.status());
        assertTrue(again.json().getBoolean("duplicate"));
        assertEquals(first.getString("to"), again.json().getString("to"));
        JsonArray waiting = take(joel, "deliverco/general/joel/dedup", "peek=1");
        assertEquals(1, waiting.size(), "retrying never duplicates");
        assertEquals("one", waiting.getJsonObject(0).getJsonObject("body").getString("text"));
        assertEquals(409, send(olga, Relay.merge(request("deliverco/general/olga/cli", "deliverco/general/joel/dedup", "x"), "id", "retry-42")).status());
        assertTrue(sent(ana, request(ANA_CLI, "deliverco/general/joel/dedup", "auto")).getString("id").startsWith("m"));
    }

    @Test
    void ttlIsCappedByThePlan() {
        announce(free, "deliverfree/general/fay/slow");
        sent(free, Relay.merge(request("deliverfree/general/fay/cli", "deliverfree/general/fay/slow", "x"), "ttl", 999_999));
        assertEquals(86_400, take(free, "deliverfree/general/fay/slow", "").getJsonObject(0).getInt("ttl"));
        announce(joel, "deliverco/general/joel/long");
        sent(ana, Relay.merge(request(ANA_CLI, "deliverco/general/joel/long", "x"), "ttl", 999_999));
        assertEquals(999_999, take(joel, "deliverco/general/joel/long", "").getJsonObject(0).getInt("ttl"), "enterprise allows 30 days");
    }

    // ---- long polling ------------------------------------------------------------------------

    @Test
    void aParkedPollWakesWhenAMessageArrives() throws Exception {
        announce(joel, "deliverco/general/joel/waiter");
        long started = System.nanoTime();
        CompletableFuture<JsonArray> poll = CompletableFuture.supplyAsync(() -> take(joel, "deliverco/general/joel/waiter", "wait=20"));
        Thread.sleep(1500);
        assertFalse(poll.isDone(), "the poll is parked");
        String id = sent(ana, request(ANA_CLI, "deliverco/general/joel/waiter", "wake up")).getString("id");
        JsonArray items = poll.get(10, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - started) / 1e9;
        assertEquals(1, items.size());
        assertEquals(id, items.getJsonObject(0).getString("id"));
        assertTrue(seconds < 10, "woken by the send, not by the 20 s timeout: " + seconds);
    }

    @Test
    void aParkedPollEndsEmptyWhenTheWaitIsOver() {
        announce(joel, "deliverco/general/joel/quiet");
        long started = System.nanoTime();
        JsonArray items = take(joel, "deliverco/general/joel/quiet", "wait=2");
        double seconds = (System.nanoTime() - started) / 1e9;
        assertEquals(0, items.size());
        assertTrue(seconds >= 1.9 && seconds < 8, "waited " + seconds);
    }

    // ---- peek, leases, attempts, expiry, cancel ----------------------------------------------

    @Test
    void peekListsWithoutTaking() {
        announce(joel, "deliverco/general/joel/peeky");
        String id = sent(ana, request(ANA_CLI, "deliverco/general/joel/peeky", "x")).getString("id");
        JsonObject peeked = take(joel, "deliverco/general/joel/peeky", "peek=1").getJsonObject(0);
        assertEquals(id, peeked.getString("id"));
        assertEquals(0, peeked.getInt("attempts"));
        assertEquals("queued", peeked.getString("state"));
        assertEquals(1, take(joel, "deliverco/general/joel/peeky", "").getJsonObject(0).getInt("attempts"));
    }

    @Test
    void anUnackedLeaseRunsOutAndTheMessageComesBack() throws Exception {
        announce(joel, "deliverco/general/joel/lease");
        String id = sent(ana, request(ANA_CLI, "deliverco/general/joel/lease", "x")).getString("id");
        assertEquals(id, take(joel, "deliverco/general/joel/lease", "lease=1").getJsonObject(0).getString("id"));
        assertEquals(0, take(joel, "deliverco/general/joel/lease", "").size(), "leased: nobody else takes it");
        JsonArray again = take(joel, "deliverco/general/joel/lease", "wait=10&lease=60");
        assertEquals(1, again.size(), "the parked poll is woken when the lease runs out");
        assertEquals(id, again.getJsonObject(0).getString("id"));
        assertEquals(2, again.getJsonObject(0).getInt("attempts"));
        ack(joel, "deliverco/general/joel/lease", id);
        Thread.sleep(1200);
        assertEquals(0, take(joel, "deliverco/general/joel/lease", "").size());
    }

    @Test
    void takenTenTimesWithoutAckIsAbandonedAndTheSenderTold() throws Exception {
        announce(joel, "deliverco/general/joel/flaky");
        String id = sent(ana, request("deliverco/general/ana/asker", "deliverco/general/joel/flaky", "x")).getString("id");
        for (int attempt = 1; attempt <= 10; attempt++) {
            JsonArray items = take(joel, "deliverco/general/joel/flaky", "wait=10&lease=1");
            assertEquals(1, items.size(), "attempt " + attempt);
            assertEquals(attempt, items.getJsonObject(0).getInt("attempts"));
        }
        JsonArray notices = take(ana, "deliverco/general/ana/asker", "wait=10");
        assertEquals(1, notices.size());
        JsonObject notice = notices.getJsonObject(0);
        assertEquals("reply", notice.getString("kind"));
        assertTrue(notice.getBoolean("error"));
        assertEquals(id, notice.getString("reply_to"));
        assertEquals("not delivered: deliverco/general/joel/flaky took it 10 times and never confirmed it",
                notice.getJsonObject("body").getString("text"));
        assertEquals(0, take(joel, "deliverco/general/joel/flaky", "wait=2").size(), "abandoned: never delivered again");
    }

    @Test
    void aMessageNobodyTakesExpiresAndTheSenderIsTold() {
        announce(joel, "deliverco/general/joel/absent");
        String id = sent(ana, Relay.merge(request("deliverco/general/ana/patient", "deliverco/general/joel/absent", "x"), "ttl", 1)).getString("id");
        JsonArray notices = take(ana, "deliverco/general/ana/patient", "wait=10");
        assertEquals(1, notices.size());
        assertEquals(id, notices.getJsonObject(0).getString("reply_to"));
        assertEquals("not delivered: it expired before deliverco/general/joel/absent took it",
                notices.getJsonObject(0).getJsonObject("body").getString("text"));
        assertEquals(0, take(joel, "deliverco/general/joel/absent", "").size());
    }

    @Test
    void anUntakenRequestCanBeCancelled() {
        announce(joel, "deliverco/general/joel/cancel");
        String id = sent(ana, request(ANA_CLI, "deliverco/general/joel/cancel", "never mind")).getString("id");
        assertEquals(404, c.post("/v1/messages/" + id + "/cancel", olga, null).status(), "only its sender cancels");
        Reply cancelled = c.post("/v1/messages/" + id + "/cancel", ana, null);
        assertEquals(200, cancelled.status(), cancelled.toString());
        assertTrue(cancelled.json().getBoolean("cancelled"));
        assertEquals(0, take(joel, "deliverco/general/joel/cancel", "").size());

        String taken = sent(ana, request(ANA_CLI, "deliverco/general/joel/cancel", "too late")).getString("id");
        take(joel, "deliverco/general/joel/cancel", "");
        assertEquals(409, c.post("/v1/messages/" + taken + "/cancel", ana, null).status());
        assertEquals(404, c.post("/v1/messages/nothing/cancel", ana, null).status());
    }

    @Test
    void orderIsKeptPerSession() {
        announce(joel, "deliverco/general/joel/ordered");
        String first = sent(ana, request(ANA_CLI, "deliverco/general/joel/ordered", "1")).getString("id");
        assertEquals(first, take(joel, "deliverco/general/joel/ordered", "").getJsonObject(0).getString("id"));
        String second = sent(ana, Relay.merge(request(ANA_CLI, "deliverco/general/joel/ordered", "2"), "thread", first)).getString("id");
        String other = sent(ana, request(ANA_CLI, "deliverco/general/joel/ordered", "other session")).getString("id");
        JsonArray now = take(joel, "deliverco/general/joel/ordered", "");
        assertEquals(1, now.size(), "the session's second message waits for the first to be confirmed");
        assertEquals(other, now.getJsonObject(0).getString("id"));
        ack(joel, "deliverco/general/joel/ordered", first, other);
        assertEquals(second, take(joel, "deliverco/general/joel/ordered", "").getJsonObject(0).getString("id"));
    }

    // ---- files ---------------------------------------------------------------------------------

    @Test
    void filesAreDeliveredAsDigestDownloadedApartAndDeletedOnceDelivered() throws Exception {
        announce(joel, "deliverco/general/joel/files");
        byte[] zip = new byte[10_000];
        new java.util.Random(7).nextBytes(zip);
        zip[0] = 'P';
        zip[1] = 'K';
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(zip));
        String id = sent(ana, Relay.merge(request(ANA_CLI, "deliverco/general/joel/files", "see zip"), "files",
                obj("zip", Base64.getEncoder().encodeToString(zip)))).getString("id");
        JsonObject e = take(joel, "deliverco/general/joel/files", "").getJsonObject(0);
        assertEquals(10_000, e.getJsonObject("files").getInt("bytes"));
        assertEquals(sha, e.getJsonObject("files").getString("sha256"));
        assertFalse(e.getJsonObject("files").containsKey("zip"));

        Reply download = c.get("/v1/messages/" + id + "/files", joel);
        assertEquals(200, download.status());
        assertEquals(sha, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(Base64.getDecoder().decode(download.json().getString("zip")))));
        assertEquals(200, c.get("/v1/messages/" + id + "/files", ana).status(), "the sender's organisation too");
        assertEquals(404, c.get("/v1/messages/" + id + "/files", out).status());

        ack(joel, "deliverco/general/joel/files", id);
        assertEquals(410, c.get("/v1/messages/" + id + "/files", joel).status(), "delivered files are deleted");

        String tooBig = Base64.getEncoder().encodeToString(new byte[5 * 1024 * 1024 + 10]);
        assertEquals(413, send(ana, Relay.merge(request(ANA_CLI, "deliverco/general/joel/files", "big"), "files", obj("zip", tooBig))).status());
    }

    // ---- sessions and threads -------------------------------------------------------------------

    @Test
    void sessionsOpenCloseAndFollowUps() {
        announce(joel, "deliverco/general/joel/desk");
        JsonObject first = sent(ana, request(ANA_CLI, "deliverco/general/joel/desk", "start"));
        String thread = first.getString("thread");
        String s1 = sid(first);
        assertEquals(s1, sid(sent(ana, Relay.merge(request(ANA_CLI, "deliverco/general/joel/desk", "follow-up"), "thread", thread))),
                "a follow-up in the thread lands in the same session");
        String forced = sid(sent(ana, request(ANA_CLI, "deliverco/general/joel/desk#new", "fresh")));
        assertNotEquals(s1, forced, "#new forces a new session");
        String named = sid(sent(olga, request("deliverco/general/olga/cli", "deliverco/general/joel/desk#" + s1, "olga joins s1")));
        assertEquals(s1, named);

        Reply titled = c.put("/v1/agents/deliverco/general/joel/desk/sessions/" + s1, joel, obj("title", "invoices"));
        assertEquals(200, titled.status(), titled.toString());
        assertEquals("invoices", titled.json().getString("title"));
        assertEquals(403, c.put("/v1/agents/deliverco/general/joel/desk/sessions/" + s1, ana, obj("title", "mine")).status());

        JsonObject owner = c.get("/v1/agents/deliverco/general/joel/desk/sessions/" + s1, joel).json();
        assertEquals("invoices", owner.getString("title"));
        assertEquals(3, owner.getJsonArray("messages").size(), "the owner sees everything");
        JsonObject participant = c.get("/v1/agents/deliverco/general/joel/desk/sessions/" + s1, ana).json();
        assertEquals(2, participant.getJsonArray("messages").size(), "a participant sees its own messages");
        String zed = relay.personWithNode("zed@deliverco.test", null);
        c.post("/v1/orgs/deliverco/invites", joel, obj("email", "zed@deliverco.test", "team", "general"));
        c.post("/v1/orgs/deliverco/join", zed, obj("me", "zed"));
        JsonObject member = c.get("/v1/agents/deliverco/general/joel/desk/sessions/" + s1, zed).json();
        assertEquals("exists", member.getString("visibility"));
        assertFalse(member.containsKey("messages"), "the rest of the organisation only sees that it exists");
        assertEquals(404, c.get("/v1/agents/deliverco/general/joel/desk/sessions/" + s1, out).status());
        assertEquals(404, c.get("/v1/agents/deliverco/general/joel/desk/sessions/s999999", joel).status());

        assertEquals(403, c.post("/v1/agents/deliverco/general/joel/desk/sessions/" + s1 + "/close", ana, null).status());
        Reply closed = c.post("/v1/agents/deliverco/general/joel/desk/sessions/" + s1 + "/close", joel, null);
        assertEquals(200, closed.status());
        assertTrue(closed.json().getBoolean("closed"));
        Reply refused = send(ana, request(ANA_CLI, "deliverco/general/joel/desk#" + s1, "still there?"));
        assertEquals(409, refused.status(), "a request to a closed session is refused");
        String reopened = sid(sent(ana, Relay.merge(request(ANA_CLI, "deliverco/general/joel/desk", "again"), "thread", thread)));
        assertNotEquals(s1, reopened, "a follow-up in a closed session's thread opens another");
        assertNotEquals(forced, reopened);
    }

    @Test
    void threadsShowWhatTheCallerMaySee() {
        announce(joel, "deliverco/general/joel/threads");
        JsonObject first = sent(ana, request(ANA_CLI, "deliverco/general/joel/threads", "q1"));
        String thread = first.getString("thread");
        sent(olga, Relay.merge(request("deliverco/general/olga/cli", "deliverco/general/joel/threads", "q2"), "thread", thread));
        String id = take(joel, "deliverco/general/joel/threads", "").getJsonObject(0).getString("id");
        sent(joel, reply("deliverco/general/joel/threads", id, "a1"));

        JsonObject owner = c.get("/v1/threads/" + thread, joel).json();
        assertEquals(3, owner.getJsonArray("messages").size());
        assertEquals(0, owner.getInt("hidden"));
        JsonObject anaView = c.get("/v1/threads/" + thread, ana).json();
        assertEquals(2, anaView.getJsonArray("messages").size());
        assertEquals(1, anaView.getInt("hidden"));
        assertEquals(404, c.get("/v1/threads/" + thread, out).status());
        assertEquals(404, c.get("/v1/threads/nothing-here", joel).status());
        assertEquals("done", owner.getJsonArray("messages").getJsonObject(0).getString("state"), "a reply closes its request");
    }

    @Test
    void replyRules() {
        announce(joel, "deliverco/general/joel/answers");
        announce(ana, "deliverco/general/ana/other");
        String id = sent(ana, request(ANA_CLI, "deliverco/general/joel/answers", "q")).getString("id");
        take(joel, "deliverco/general/joel/answers", "");
        assertEquals(403, send(ana, reply("deliverco/general/ana/other", id, "not mine")).status(), "only the asked agent answers");
        assertEquals(201, send(joel, Relay.merge(reply("deliverco/general/joel/answers", id, "working"), "kind", "progress")).status());
        assertEquals(422, send(joel, Relay.merge(reply("deliverco/general/joel/answers", id, "x"), "thread", "another")).status());
        assertEquals(201, send(joel, Relay.merge(reply("deliverco/general/joel/answers", id, "failed"), "error", true)).status());
        assertEquals(409, send(joel, reply("deliverco/general/joel/answers", id, "twice")).status());
        JsonArray back = take(ana, ANA_CLI, "reply_to=" + id);
        assertEquals(2, back.size());
        assertEquals("progress", back.getJsonObject(0).getString("kind"));
        assertEquals("reply", back.getJsonObject(1).getString("kind"));
        assertTrue(back.getJsonObject(1).getBoolean("error"));
        assertEquals(422, send(joel, request(CLI + "#s424242", "deliverco/general/joel/answers", "bad from session")).status());
    }

    private static String sid(JsonObject accepted) {
        String to = accepted.getString("to");
        return to.substring(to.indexOf('#') + 1);
    }

    @SuppressWarnings("unused")
    private static List<String> ids(JsonArray items) {
        return items.stream().map(JsonValue::asJsonObject).map(o -> o.getString("id")).toList();
    }
}
