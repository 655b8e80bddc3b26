package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * The history flood of issue 14: a hub on a fixed heap holding 300 chats of almost 1 MiB each, asked
 * by 8 clients at once for the whole history and by 4 more to resume from 0. Every answer is one
 * frame within the reply budget ({@code hub.max-reply-bytes}, 4 MiB by default) with a truncation
 * marker and a cursor that pages on; {@code /health} answers within 1 s throughout; afterwards a
 * fresh client is served. The test's own clients keep only frames up to the budget (plus slack) and
 * count the rest, so an unbounded reply costs this JVM nothing but the count.
 */
class HistoryFloodIT {

    /** The default {@code hub.max-reply-bytes}. */
    private static final long BUDGET = 4L * 1024 * 1024;
    private static final int CHATS = 300;
    private static final int PAYLOAD_CHARS = 1_000_000; // the stamped frame stays under the 1 MiB frame limit
    private static final int READERS = 8;
    private static final int RESUMERS = 4;
    /**
     * Heap the hub gets (with the JVM's default collector, G1, as run-hub leaves it): the bounded hub fits with
     * room to spare; 300 MB of retained chats and whole-history replies do not.
     */
    private static final String HEAP = "-Xmx768m";
    private static final Duration ANSWER = Duration.ofSeconds(45);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private static HubServer hub;

    @BeforeAll
    static void startAndFill() throws Exception {
        hub = HubServer.start(HubServer.env("HUB_JAVA_OPTS", HEAP + " -Xlog:gc:file=target/hubs/history-flood-gc.log"));
        long started = System.nanoTime();
        String filler = "x".repeat(PAYLOAD_CHARS - 8);
        // one seeder, at most 4 chats ahead of their echoes: every bound socket gets every chat, and a
        // reader that falls megabytes behind is (rightly) closed
        Lean seeder = Lean.register(hub.webSocketUri(), "flood/seed");
        for (int i = 0; i < CHATS; i++) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (seeder.chatsSeen.get() < i - 4) {
                if (System.nanoTime() > deadline || seeder.closeCode != null) {
                    throw new AssertionError("chat " + (i - 4) + " not relayed within 30 s (closed: " + seeder.closeCode
                            + ", /health: " + healthProbe() + ")");
                }
                Thread.sleep(2);
            }
            seeder.send("{\"type\":\"chat\",\"target\":\"all\",\"sender\":\"flood/seed\",\"payload\":\""
                    + filler + String.format("%08d", i) + "\"}");
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (seeder.chatsSeen.get() < CHATS && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(CHATS, seeder.chatsSeen.get(), "all chats relayed before the flood (closed: " + seeder.closeCode + ")");
        seeder.close();
        System.out.printf("HistoryFloodIT: %d chats of %d chars stored in %.1f s%n", CHATS, PAYLOAD_CHARS,
                (System.nanoTime() - started) / 1e9);
    }

    /** One /health probe, as text, for failure messages. */
    private static String healthProbe() {
        long started = System.nanoTime();
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(hub.http("/health")).timeout(Duration.ofSeconds(1)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() + " in " + (System.nanoTime() - started) / 1_000_000 + " ms";
        } catch (Exception e) {
            return e.getClass().getSimpleName() + " after " + (System.nanoTime() - started) / 1_000_000 + " ms";
        }
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    @Test
    void concurrentUnlimitedHistoryAndResumeRequestsGetBoundedPagesAndTheHubStaysResponsive() throws Exception {
        HealthWatch health = new HealthWatch(hub.http("/health"));
        Thread watcher = new Thread(health, "health-watch");
        watcher.start();
        List<Lean> clients = new ArrayList<>();
        try {
            for (int i = 0; i < READERS + RESUMERS; i++) {
                clients.add(Lean.register(hub.webSocketUri(), "flood/reader-" + i));
            }
            while (health.probes.get() == 0) {
                Thread.sleep(20); // the watch is running before the flood starts
            }
            long asked = System.nanoTime();
            for (int i = 0; i < clients.size(); i++) {
                Lean client = clients.get(i);
                client.send(i < READERS
                        ? "{\"type\":\"history_request\",\"sender\":\"" + client.name + "\",\"target\":\"System\",\"payload\":\"history\"}"
                        : "{\"type\":\"resume_request\",\"sender\":\"" + client.name + "\",\"target\":\"System\",\"payload\":\"resume\",\"since\":0}");
            }
            List<String> problems = new ArrayList<>();
            long answersDue = System.nanoTime() + ANSWER.toNanos(); // one deadline for all the answers
            for (int i = 0; i < clients.size(); i++) {
                Lean client = clients.get(i);
                String type = i < READERS ? "history_snapshot" : "resume_snapshot";
                Answer answer = client.await(type, Duration.ofNanos(Math.max(0, answersDue - System.nanoTime())));
                if (answer == null) {
                    problems.add(client.name + ": no " + type + " within " + ANSWER + " (frames larger than "
                            + client.keepLimit + " bytes seen: " + client.oversized + ", closed " + client.closeCode + ")");
                    continue;
                }
                if (answer.bytes > BUDGET) {
                    problems.add(client.name + ": " + type + " of " + answer.bytes + " bytes > budget " + BUDGET);
                    continue;
                }
                JsonObject frame = answer.frame();
                List<JsonObject> entries = frame.getJsonArray(i < READERS ? "history" : "messages").getValuesAs(JsonObject.class);
                if (!frame.getBoolean("truncated", false) || entries.isEmpty()) {
                    problems.add(client.name + ": " + type + " without the truncation marker or entries: " + entries.size());
                    continue;
                }
                if (i < READERS) {
                    // the newest that fit, oldest first; the cursor is the oldest included msg_id
                    long oldest = entries.get(0).getJsonNumber("msg_id").longValue();
                    assertEquals(oldest, frame.getJsonNumber("next_before_msg_id").longValue(), client.name);
                    assertEquals("all", frame.getString("requested_limit"), client.name);
                    assertTrue(entries.get(entries.size() - 1).getString("payload").endsWith(String.format("%08d", CHATS - 1)),
                            client.name + ": ends with the newest chat");
                } else {
                    long newest = entries.get(entries.size() - 1).getJsonNumber("msg_id").longValue();
                    assertEquals(newest, frame.getJsonNumber("next_since").longValue(), client.name);
                    assertTrue(entries.get(0).getString("payload").length() == PAYLOAD_CHARS, client.name);
                }
            }
            System.out.printf("HistoryFloodIT: %d answers in %.1f s; /health max %d ms over %d probes%n",
                    clients.size(), (System.nanoTime() - asked) / 1e9, health.maxMillis.get(), health.probes.get());
            assertTrue(problems.isEmpty(), String.join("\n", problems));

            // the cursors page on: older history before the oldest returned, later messages after the newest
            Lean pager = clients.get(0);
            JsonObject first = pager.last.frame();
            long before = first.getJsonNumber("next_before_msg_id").longValue();
            pager.send("{\"type\":\"history_request\",\"sender\":\"" + pager.name
                    + "\",\"target\":\"System\",\"payload\":\"history\",\"before_msg_id\":" + before + "}");
            Answer older = pager.await("history_snapshot", ANSWER);
            assertTrue(older != null && older.bytes <= BUDGET, "second history page bounded");
            List<JsonObject> olderEntries = older.frame().getJsonArray("history").getValuesAs(JsonObject.class);
            assertFalse(olderEntries.isEmpty(), "older page has entries");
            assertTrue(olderEntries.get(olderEntries.size() - 1).getJsonNumber("msg_id").longValue() < before,
                    "older page is older than the cursor");

            Lean resumer = clients.get(READERS);
            long since = resumer.last.frame().getJsonNumber("next_since").longValue();
            resumer.send("{\"type\":\"resume_request\",\"sender\":\"" + resumer.name
                    + "\",\"target\":\"System\",\"payload\":\"resume\",\"since\":" + since + "}");
            Answer later = resumer.await("resume_snapshot", ANSWER);
            assertTrue(later != null && later.bytes <= BUDGET, "second resume page bounded");
            List<JsonObject> laterEntries = later.frame().getJsonArray("messages").getValuesAs(JsonObject.class);
            assertFalse(laterEntries.isEmpty(), "next resume page has entries");
            assertTrue(laterEntries.get(0).getJsonNumber("msg_id").longValue() > since, "next page follows the cursor");
        } finally {
            clients.forEach(Lean::close);
        }

        // the hub stays alive and serves a fresh client
        try (SynapseClient fresh = SynapseClient.register(hub.webSocketUri(), "flood/fresh");
             SynapseClient peer = SynapseClient.register(hub.webSocketUri(), "flood/peer")) {
            fresh.send(SynapseClient.frame("chat", "flood/peer", "after the flood"));
            peer.expect(f -> "chat".equals(f.getString("type", "")) && "after the flood".equals(f.getString("payload", "")),
                    Duration.ofSeconds(10));
            fresh.send(SynapseClient.frame("history_request", "System", "history").add("limit", 1));
            JsonObject snapshot = fresh.expect(f -> "history_snapshot".equals(f.getString("type", "")), Duration.ofSeconds(10));
            assertEquals("after the flood", snapshot.getJsonArray("history").getJsonObject(0).getString("payload"));
        } finally {
            health.stop.set(true);
            watcher.join(5_000);
        }
        assertTrue(hub.isAlive(), "hub process alive");
        assertTrue(health.failures.isEmpty(), "/health within 1 s throughout: " + health.failures);
        assertTrue(health.probes.get() >= 3, "health probes ran throughout: " + health.probes.get());
    }

    /** Polls {@code /health} every 200 ms with a 1 s timeout and records every slow or failed answer. */
    private static final class HealthWatch implements Runnable {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong maxMillis = new AtomicLong();
        final AtomicLong probes = new AtomicLong();
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        private final URI uri;

        HealthWatch(URI uri) {
            this.uri = uri;
        }

        @Override
        public void run() {
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(1)).build();
            while (!stop.get()) {
                long started = System.nanoTime();
                try {
                    HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
                    long millis = (System.nanoTime() - started) / 1_000_000;
                    maxMillis.accumulateAndGet(millis, Math::max);
                    if (response.statusCode() != 200 || millis > 1000) {
                        failures.add(response.statusCode() + " after " + millis + " ms");
                    }
                } catch (Exception e) {
                    failures.add(e.getClass().getSimpleName() + " after " + (System.nanoTime() - started) / 1_000_000 + " ms");
                } finally {
                    probes.incrementAndGet();
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** One whole text frame the test kept: its text and encoded size. */
    private record Answer(String text, long bytes) {
        JsonObject frame() {
            return Json.createReader(new StringReader(text)).readObject();
        }
    }

    /**
     * A SYNAPSE client that keeps little: relayed chats are only counted, other frames are kept whole
     * only up to {@link #keepLimit} bytes; larger ones are counted and dropped as they stream in.
     */
    private static final class Lean implements WebSocket.Listener {
        private static final HttpClient CLIENT = HttpClient.newHttpClient();
        private static final Pattern TYPE = Pattern.compile("\"type\":\"([a-z_]+)\"");

        final String name;
        final long keepLimit = BUDGET + 64 * 1024;
        final AtomicLong chatsSeen = new AtomicLong();
        final List<Long> oversized = Collections.synchronizedList(new ArrayList<>());
        final BlockingQueue<Answer> kept = new LinkedBlockingQueue<>();
        volatile Integer closeCode;
        volatile Answer last;
        private final WebSocket socket;
        private StringBuilder body;
        private boolean tooBig;
        private String type;
        private long bytes;

        private Lean(URI uri, String name) {
            this.name = name;
            this.socket = CLIENT.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5)).buildAsync(uri, this).join();
        }

        static Lean register(URI uri, String name) {
            Lean client = new Lean(uri, name);
            client.send("{\"type\":\"heartbeat\",\"sender\":\"" + name + "\",\"target\":\"System\",\"payload\":\"online\"}");
            return client;
        }

        void send(String text) {
            try {
                socket.sendText(text, true).get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError(name + ": send not taken within 30 s (/health: " + healthProbe() + ")", e);
            }
        }

        /** The next kept frame of {@code wanted} type, or null after the timeout. */
        Answer await(String wanted, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                Answer answer = kept.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (answer == null) {
                    return null;
                }
                if (answer.text.contains("\"type\":\"" + wanted + "\"")) {
                    last = answer;
                    return answer;
                }
            }
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean lastPart) {
            bytes += utf8Length(data);
            if (type == null) {
                Matcher matcher = TYPE.matcher(data.subSequence(0, Math.min(data.length(), 512)));
                type = matcher.find() ? matcher.group(1) : "?";
                body = "chat".equals(type) ? null : new StringBuilder(data.length());
            }
            if (body != null) {
                if (bytes <= keepLimit) {
                    body.append(data);
                } else {
                    body = null; // too big to keep: only its size is recorded
                    tooBig = true;
                }
            }
            if (lastPart) {
                if ("chat".equals(type)) {
                    chatsSeen.incrementAndGet();
                } else if (tooBig) {
                    oversized.add(bytes);
                    kept.add(new Answer("{\"type\":\"" + type + "\",\"oversized\":true}", bytes));
                } else {
                    kept.add(new Answer(body.toString(), bytes));
                }
                tooBig = false;
                body = null;
                type = null;
                bytes = 0;
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closeCode = statusCode;
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closeCode = -1;
        }

        void close() {
            try {
                socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").get(2, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // closing anyway
            }
            socket.abort();
        }

        private static long utf8Length(CharSequence text) {
            long n = 0;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                n += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
            }
            return n;
        }
    }
}
