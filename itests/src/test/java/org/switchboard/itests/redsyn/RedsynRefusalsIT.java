package org.switchboard.itests.redsyn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.obj;

import jakarta.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.switchboard.itests.redsyn.RedsynClient.Reply;
import org.switchboard.itests.support.HubLog;

/**
 * Issue 14, defects 3 and 4: every REDSYN answer to bad input is the protocol's
 * {@code {"error", "status"}} JSON with a 4xx and no Java class names (non-object bodies, deep nesting,
 * long numbers, unknown methods and paths, OPTIONS), request bodies are bounded while they stream in,
 * and concurrent first subscriptions of one agent to one topic never fail. One hub for every case.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedsynRefusalsIT {

    /** A fully qualified Java class or package name such as java.lang.X, jakarta.ws.rs.Y, org.glassfish.Z. */
    private static final Pattern CLASS_NAME = Pattern.compile("\\b(?:java|javax|jakarta|org|com|sun|fish)\\.[a-z0-9_]+\\.");
    private static final String AGENT = "refuseco/general/joel/bot";

    private Relay relay;
    private RedsynClient c;
    private String joel;

    @BeforeAll
    void start() {
        relay = Relay.shared(); // names under "refuseco", unique to this class
        c = relay.client;
        joel = relay.node(relay.person("joel@refuseco.test", "enterprise"), "laptop");
        assertEquals(201, c.post("/v1/orgs", joel, obj("handle", "refuseco", "me", "joel")).status());
        Reply announce = c.put("/v1/agents/" + AGENT, joel, obj("listening", true));
        assertTrue(announce.status() / 100 == 2, announce.toString());
    }

    @AfterAll
    void stop() {
        if (relay != null) {
            relay.stop();
        }
    }

    /** The refusal shape: the expected status, JSON, {@code error} and a matching {@code status}, no class names. */
    private static void assertRefusal(int expected, Reply r, String what) {
        assertEquals(expected, r.status(), what + ": " + r);
        String type = r.header("Content-Type");
        assertNotNull(type, what + ": no Content-Type: " + r);
        assertTrue(type.toLowerCase(Locale.ROOT).startsWith("application/json"), what + ": Content-Type " + type + ": " + r);
        JsonObject json = r.json();
        assertFalse(json.getString("error").isBlank(), what + ": " + r);
        assertEquals(expected, json.getInt("status"), what + ": " + r);
        assertFalse(CLASS_NAME.matcher(r.text()).find(), what + ": names a Java class: " + r);
    }

    @TestFactory
    Stream<DynamicTest> nonObjectBodiesAreRefusedWith422() {
        List<String[]> targets = List.of(
                new String[] {"POST", "/v1/messages"},
                new String[] {"PUT", "/v1/nodes/key"},
                new String[] {"PUT", "/v1/agents/" + AGENT + "/webhook"},
                new String[] {"PUT", "/v1/subscriptions"},
                new String[] {"PUT", "/v1/agents/" + AGENT},
                new String[] {"POST", "/v1/orgs"});
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] target : targets) {
            for (String body : List.of("null", "[]", "\"x\"", "42", "true", "[{\"v\": 1}]")) {
                String what = target[0] + " " + target[1] + " with " + body;
                tests.add(DynamicTest.dynamicTest(what, () -> assertRefusal(422, c.call(target[0], target[1], joel, body), what)));
            }
        }
        return tests.stream();
    }

    @Test
    void bodiesOfTheWrongShapeAre4xxWithoutClassNames() {
        Reply r = c.put("/v1/subscriptions", joel, "{\"agent\": 5, \"topic\": [1]}");
        assertTrue(r.status() == 400 || r.status() == 422, r.toString());
        assertRefusal(r.status(), r, "subscription with wrong member types");
        assertRefusal(400, c.post("/v1/messages", joel, "{\"v\": 1,"), "truncated JSON");
        assertRefusal(400, c.post("/v1/messages", joel, "{\"v\": 1} trailing"), "text after the JSON value");
        assertRefusal(400, c.put("/v1/subscriptions", joel, "{\"agent\": "), "truncated JSON to a bound body");
    }

    @Test
    void deepNestingIsRefusedWith400() {
        for (int depth : new int[] {1_001, 5_000, 60_000}) {
            String nested = "[".repeat(depth) + "]".repeat(depth);
            String envelope = "{\"v\": 1, \"kind\": \"request\", \"from\": \"" + AGENT + "\", \"to\": \"" + AGENT
                    + "\", \"body\": {\"type\": \"application/json\", \"data\": " + nested + "}}";
            assertRefusal(400, c.post("/v1/messages", joel, envelope), "message nested " + depth + " deep");
            assertRefusal(400, c.put("/v1/subscriptions", joel, "{\"agent\": " + nested + "}"), "subscription nested " + depth + " deep");
            assertRefusal(400, c.put("/v1/nodes/key", joel, "{\"signing_key\": " + nested + "}"), "node key nested " + depth + " deep");
        }
    }

    @Test
    void longNumbersAreRefusedWith400() {
        for (int digits : new int[] {1_101, 4_300, 100_000}) {
            String number = "1" + "0".repeat(digits - 1);
            String inData = "{\"v\": 1, \"kind\": \"request\", \"from\": \"" + AGENT + "\", \"to\": \"" + AGENT
                    + "\", \"body\": {\"type\": \"application/json\", \"data\": " + number + "}}";
            assertRefusal(400, c.post("/v1/messages", joel, inData), digits + "-digit number in body.data");
            assertRefusal(400, c.post("/v1/messages", joel, "{\"v\": " + number + "}"), digits + "-digit v");
            assertRefusal(400, c.post("/v1/messages", joel, "{\"v\": 1, \"ts\": 0." + number + "}"), digits + "-digit fraction");
            assertRefusal(400, c.put("/v1/agents/" + AGENT, joel, "{\"listening\": " + number + "}"), digits + "-digit number in an announce");
        }
    }

    @Test
    void optionsAndUnknownMethodsAndPathsAreJson() {
        for (String method : List.of("OPTIONS", "PATCH")) {
            assertRefusal(405, c.call(method, "/v1/messages", joel, null), method + " /v1/messages");
            assertRefusal(405, c.call(method, "/v1/me", joel, null), method + " /v1/me");
            assertRefusal(405, c.call(method, "/v1/agents/" + AGENT, joel, null), method + " an agent");
            assertRefusal(404, c.call(method, "/v1/nothing/here", joel, null), method + " an unknown /v1 path");
            assertRefusal(404, c.call(method, "/nothing", joel, null), method + " an unknown path");
            assertRefusal(404, c.call(method, "/nothing", null, null), method + " an unknown path without a token");
            assertRefusal(404, c.call(method, "", joel, null), method + " /redsyn");
            assertRefusal(404, c.call(method, "/", joel, null), method + " /redsyn/");
        }
        Reply options = c.call("OPTIONS", "/v1/messages", joel, null);
        assertFalse(options.text().contains("wadl"), "no WADL: " + options);
        String allow = options.header("Allow");
        assertNotNull(allow, "OPTIONS says what is allowed: " + options);
        assertTrue(allow.contains("POST"), options.toString());
        assertRefusal(405, c.call("DELETE", "/v1/me", joel, null), "DELETE /v1/me");
        assertRefusal(405, c.call("PATCH", "/v1/messages", joel, "{}"), "PATCH with a body");
        assertRefusal(404, c.get("/application.wadl", joel), "the WADL document");
        assertRefusal(404, c.get("/v1/application.wadl", joel), "the WADL document under v1");
    }

    @Test
    void framingAndHeaderErrorsThatTheRuntimeAnswersEmptyAreJson() {
        // found by FuzzIT: these were empty 400s (the listener's or Jersey's own) and a 405 without a body
        assertRefusal(400, c.call("GET", "/v1/me", joel, "{\"v\": 1}"), "GET with a body");
        assertRefusal(400, c.call("DELETE", "/v1/agents/" + AGENT + "/webhook", joel, "{\"v\": 1}"), "DELETE with a body");
        assertRefusal(400, c.call("GET", "/v1/me", joel, null, "Content-Type", "a/b/c"), "a Content-Type that is no media type");
        assertRefusal(400, c.call("POST", "/v1/messages", joel, "{}", "Content-Type", "a/b/c"), "POST with a Content-Type that is no media type");
        assertRefusal(405, c.call("OPTIONS", "/v1/messages", joel, null, "Accept", "image/png;q=0.1"), "OPTIONS accepting only PNG");
        assertRefusal(401, c.get("/v1/me", null), "the connection-independent 401 after those");
        // found by FuzzIT: a truncated body bound to a record, ending inside an unknown member's object,
        // never got an answer (the request thread spun at 100% CPU)
        assertRefusal(400, c.post("/v1/nodes", joel, "{\"name\": \"n\", \"x\": {\"b\""), "a truncated body bound to a record");
    }

    @Test
    void concurrentFirstSubscriptionsOfOneAgentAllSucceedOnce() throws Exception {
        // the log from here on only: on the shared hub, the whole log holds other classes' lines
        long logFrom = HubLog.size(relay.hub.logFile());
        int threads = 16;
        for (int round = 0; round < 3; round++) {
            String topic = "topic:refuseco/general/race" + round;
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<Reply>> replies = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    replies.add(pool.submit(() -> {
                        go.await();
                        return c.put("/v1/subscriptions", joel, obj("agent", AGENT, "topic", topic));
                    }));
                }
                go.countDown();
                int created = 0;
                for (Future<Reply> reply : replies) {
                    Reply r = reply.get(120, TimeUnit.SECONDS);
                    assertTrue(r.status() == 200 || r.status() == 201, "round " + round + ": " + r);
                    assertTrue(r.json().getBoolean("subscribed"), r.toString());
                    if (r.json().getBoolean("changed")) {
                        assertEquals(201, r.status(), r.toString());
                        created++;
                    }
                }
                assertEquals(1, created, "exactly one of the concurrent calls subscribed the agent");
            } finally {
                pool.shutdownNow();
            }
        }
        String log = HubLog.since(relay.hub.logFile(), logFrom);
        assertFalse(log.contains("REDSYN internal error"), "no internal error logged");
    }

    @Test
    void aStreamed64MegabyteBodyIsRefusedWith413Quickly() throws Exception {
        String head = "POST /redsyn/v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + joel
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
        String start = "{\"v\": 1, \"kind\": \"request\", \"from\": \"" + AGENT + "\", \"to\": \"" + AGENT
                + "\", \"body\": {\"type\": \"text/plain\", \"text\": \"";
        long total = 64L * 1024 * 1024;
        try (Socket socket = new Socket("127.0.0.1", relay.hub.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            long began = System.nanoTime();
            Thread writer = new Thread(() -> {
                try {
                    out.write(head.getBytes(StandardCharsets.US_ASCII));
                    chunk(out, start.getBytes(StandardCharsets.UTF_8));
                    byte[] filler = "a".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
                    for (long sent = start.length(); sent < total; sent += filler.length) {
                        chunk(out, filler);
                    }
                    chunk(out, "\"}}".getBytes(StandardCharsets.US_ASCII));
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (IOException closedByTheHub) {
                    // expected once the hub has answered 413 and closed
                }
            }, "chunked-writer");
            writer.setDaemon(true);
            writer.start();
            RawReply reply = RawReply.read(socket.getInputStream());
            long millis = (System.nanoTime() - began) / 1_000_000;
            assertEquals(413, reply.status, reply.toString());
            assertTrue(millis < 5_000, "413 after " + millis + " ms (the whole body was read first?)");
            assertRefusal(413, reply.asReply(), "64 MB chunked body");
        }
        // the hub still serves
        assertEquals(200, c.get("/v1/me", joel).status());
    }

    @Test
    void aDeclaredOversizedBodyIsRefusedWith413BeforeItIsSent() throws Exception {
        String head = "POST /redsyn/v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + joel
                + "\r\nContent-Type: application/json\r\nContent-Length: " + (200L * 1024 * 1024) + "\r\n\r\n{\"v\": 1, ";
        try (Socket socket = new Socket("127.0.0.1", relay.hub.port())) {
            socket.setSoTimeout(10_000);
            long began = System.nanoTime();
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            RawReply reply = RawReply.read(socket.getInputStream());
            long millis = (System.nanoTime() - began) / 1_000_000;
            assertRefusal(413, reply.asReply(), "Content-Length of 200 MB");
            assertTrue(millis < 5_000, "413 after " + millis + " ms");
        }
        assertRefusal(413, c.put("/v1/subscriptions", joel, "{\"agent\": \"" + "a".repeat(1024 * 1024) + "\"}"),
                "a 1 MB subscription body");
    }

    @Test
    void aFiveMegabyteZipStillFitsTheStreamingBound() {
        byte[] zip = new byte[5 * 1024 * 1024];
        new java.util.Random(14).nextBytes(zip);
        zip[0] = 'P';
        zip[1] = 'K';
        String base64 = java.util.Base64.getEncoder().encodeToString(zip);
        JsonObject send = Relay.merge(Relay.request(AGENT, AGENT, "the whole zip"), "files", obj("zip", base64));
        Reply r = c.post("/v1/messages", joel, send);
        assertTrue(r.status() / 100 == 2, "a 5 MB zip is within the protocol: " + r);
        JsonObject tooBig = Relay.merge(Relay.request(AGENT, AGENT, "one byte too many"), "files",
                obj("zip", java.util.Base64.getEncoder().encodeToString(new byte[5 * 1024 * 1024 + 1])));
        assertRefusal(413, c.post("/v1/messages", joel, tooBig), "a zip of 5 MB + 1 byte");
    }

    private static void chunk(OutputStream out, byte[] data) throws IOException {
        out.write((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(data);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    /** An HTTP/1.1 response read off a raw socket (status line, headers, a Content-Length or chunked body). */
    private record RawReply(int status, java.util.Map<String, List<String>> headers, String body) {

        static RawReply read(InputStream in) throws IOException {
            String statusLine = line(in);
            int status = Integer.parseInt(statusLine.split(" ")[1]);
            java.util.Map<String, List<String>> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (String line = line(in); !line.isEmpty(); line = line(in)) {
                int colon = line.indexOf(':');
                headers.computeIfAbsent(line.substring(0, colon).trim(), k -> new ArrayList<>()).add(line.substring(colon + 1).trim());
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            if (headers.containsKey("Content-Length")) {
                int length = Integer.parseInt(headers.get("Content-Length").get(0));
                body.write(in.readNBytes(length));
            } else if (headers.containsKey("Transfer-Encoding")) {
                for (int size = Integer.parseInt(line(in).trim(), 16); size > 0; size = Integer.parseInt(line(in).trim(), 16)) {
                    body.write(in.readNBytes(size));
                    line(in);
                }
            }
            return new RawReply(status, headers, body.toString(StandardCharsets.UTF_8));
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder sb = new StringBuilder();
            for (int b = in.read(); b != -1 && b != '\n'; b = in.read()) {
                if (b != '\r') {
                    sb.append((char) b);
                }
            }
            return sb.toString();
        }

        Reply asReply() {
            return new Reply(status, headers, body);
        }
    }
}
