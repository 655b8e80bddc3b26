package org.switchboard.itests.support;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A SYNAPSE client as stock clients behave: the JDK WebSocket client, one JSON object per text
 * frame. Received frames queue up for the test to take; the close code and reason are recorded.
 */
public final class SynapseClient implements AutoCloseable {

    /** Parsson refuses numbers over 1,100 characters by default; the hub relays integers of up to 4,300 digits. */
    private static final jakarta.json.JsonReaderFactory READERS =
            Json.createReaderFactory(java.util.Map.of("org.eclipse.parsson.maxBigDecimalLength", 5000));

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final BlockingQueue<String> frames = new LinkedBlockingQueue<>();
    private final CompletableFuture<int[]> closeCode = new CompletableFuture<>();
    private volatile String closeReason;
    private final WebSocket socket;
    private final String name;

    private SynapseClient(HttpClient http, URI uri, String name) {
        this.name = name;
        this.socket = http.newWebSocketBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .buildAsync(uri, new Listener())
                .join();
    }

    /** Opens a socket without registering. */
    public static SynapseClient connect(URI uri, String name) {
        return new SynapseClient(HTTP, uri, name);
    }

    /** Opens a socket through {@code http} (e.g. one trusting a test hub's TLS certificate) without registering. */
    public static SynapseClient connect(HttpClient http, URI uri, String name) {
        return new SynapseClient(http, uri, name);
    }

    /** Opens a socket, reads the welcome and registers {@code name} with the given extra fields. */
    public static SynapseClient register(URI uri, String name, JsonObject extra) {
        SynapseClient client = connect(uri, name);
        client.expectType("welcome");
        JsonObjectBuilder heartbeat = frame("heartbeat", "System", "online");
        if (extra != null) {
            extra.forEach(heartbeat::add);
        }
        client.send(heartbeat.build());
        client.expect(f -> "presence_update".equals(f.getString("type", ""))
                && name.equals(f.getString("agent", "")), Duration.ofSeconds(10));
        return client;
    }

    public static SynapseClient register(URI uri, String name) {
        return register(uri, name, null);
    }

    /** A frame skeleton with the base fields a stock client sends (sender is filled in on send). */
    public static JsonObjectBuilder frame(String type, String target, String payload) {
        return Json.createObjectBuilder()
                .add("type", type)
                .add("target", target)
                .add("payload", payload)
                .add("timestamp", System.currentTimeMillis() / 1000.0);
    }

    public String name() {
        return name;
    }

    /** Sends a frame, adding {@code sender} when the frame has none. */
    public void send(JsonObject frame) {
        JsonObject withSender = frame.containsKey("sender") ? frame
                : Json.createObjectBuilder(frame).add("sender", name).build();
        sendRaw(withSender.toString());
    }

    public void send(JsonObjectBuilder frame) {
        send(frame.build());
    }

    /** Sends text as-is (for malformed-input tests). */
    public void sendRaw(String text) {
        socket.sendText(text, true).join();
    }

    /** Next frame of any type, or fails after the timeout. */
    public JsonObject next(Duration timeout) {
        try {
            String text = frames.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (text == null) {
                throw new AssertionError(name + ": no frame within " + timeout);
            }
            return parse(text);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Skips frames until one matches; fails if none arrives within the timeout. */
    public JsonObject expect(Predicate<JsonObject> match, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> skipped = new ArrayList<>();
        while (true) {
            long left = deadline - System.nanoTime();
            String text;
            try {
                text = left <= 0 ? null : frames.poll(left, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            if (text == null) {
                throw new AssertionError(name + ": expected frame not received within " + timeout + "; skipped " + skipped);
            }
            JsonObject frame = parse(text);
            if (match.test(frame)) {
                return frame;
            }
            skipped.add(text);
        }
    }

    public JsonObject expectType(String type) {
        return expect(f -> type.equals(f.getString("type", "")), Duration.ofSeconds(10));
    }

    /** Asserts that no frame matching arrives within the window (other frames are dropped). */
    public void expectNone(Predicate<JsonObject> match, Duration window) {
        long deadline = System.nanoTime() + window.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            try {
                String text = frames.poll(left, TimeUnit.NANOSECONDS);
                if (text != null && match.test(parse(text))) {
                    throw new AssertionError(name + ": unexpected frame " + text);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** Waits for the server to close the socket; returns the close code. */
    public int awaitClose(Duration timeout) {
        try {
            return closeCode.get(timeout.toMillis(), TimeUnit.MILLISECONDS)[0];
        } catch (Exception e) {
            throw new AssertionError(name + ": socket not closed within " + timeout, e);
        }
    }

    public String closeReason() {
        return closeReason;
    }

    public boolean isClosed() {
        return closeCode.isDone();
    }

    @Override
    public void close() {
        if (!socket.isOutputClosed()) {
            try {
                socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").get(2, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                socket.abort();
            }
        }
        socket.abort();
    }

    private static JsonObject parse(String text) {
        try (JsonReader reader = READERS.createReader(new StringReader(text))) {
            JsonValue value = reader.readValue();
            return value.asJsonObject();
        }
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                frames.add(partial.toString());
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closeReason = reason;
            closeCode.complete(new int[] {statusCode});
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closeCode.complete(new int[] {-1});
        }
    }
}
