package org.switchboard.itests.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.RawWebSocket;

/**
 * Load generator for SYNAPSE directed chat with the journal on: K sender/receiver pairs on the JDK
 * WebSocket client (or a bare-socket one, {@code bench.client}), each sender keeping at most {@code window} chats in flight to its receiver.
 * Reports delivered messages per second and send-to-receive latency percentiles. Not part of the
 * default run (the name does not end in IT); see src/site/markdown/benchmarks.md.
 *
 * <p>Properties: {@code bench.pairs} (8), {@code bench.messages} measured chats in total (200000),
 * {@code bench.warmup} chats in total before measuring (40000), {@code bench.warmup-unpaced} chats sent as
 * fast as the window allows before that paced warm-up (0), {@code bench.window} (128 per
 * pair), {@code bench.receipts} (false: ask for delivery receipts too), {@code bench.private-directed}
 * (true: start the hub with {@code HUB_PRIVATE_DIRECTED_MESSAGES}, so a directed chat goes to its
 * recipient and sender only instead of every socket), {@code bench.uri} (drive an already running
 * hub instead of starting one, e.g. {@code ws://127.0.0.1:8876/}), {@code bench.client} ({@code jdk}: the
 * JDK WebSocket client; {@code raw}: a blocking client on a bare socket that leaves more of a small
 * machine's CPU to the hub), {@code bench.rate} (0: every sender
 * sends as fast as its window allows; N: the senders together offer N chats per second, evenly paced,
 * and latency counts from each chat's scheduled send time, so a hub that falls behind shows it; the
 * percentiles are then also printed per 10 s of chats).
 * Receivers send a small {@code history_request} every 20 s, as a live agent reacts, so the hub never marks
 * them stale (a stale recipient turns every chat into a dead letter plus a warning frame).
 * {@code bench.pid} names the hub process of an external hub for the CPU figure (a started hub is
 * known); {@code bench.jfr=/path.jfr} records a JFR profile ({@code settings=profile}) of the hub
 * during the measured run; {@code bench.hub-java-opts} replaces the started hub's JVM options
 * ({@code HubServer}'s default is {@code -Xmx1g -XX:+UseParallelGC}); {@code bench.hub-env=KEY=value,…} adds
 * settings to the started hub's environment. The result line carries the hub's CPU time per measured chat and the
 * load average before and after, because the machine is shared.
 */
class SynapseChatBench {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String MARK = "\"payload\":\"b:";

    @Test
    void directedChatThroughputAndLatency() throws Exception {
        int pairs = Integer.getInteger("bench.pairs", 8);
        int messages = Integer.getInteger("bench.messages", 200_000);
        int warmup = Integer.getInteger("bench.warmup", 40_000);
        int window = Integer.getInteger("bench.window", 128);
        boolean receipts = Boolean.getBoolean("bench.receipts");
        String external = System.getProperty("bench.uri", "");
        double rate = Double.parseDouble(System.getProperty("bench.rate", "0"));

        boolean privateDirected = Boolean.parseBoolean(System.getProperty("bench.private-directed", "true"));
        java.util.Map<String, String> env = new java.util.HashMap<>();
        env.put("HUB_PRIVATE_DIRECTED_MESSAGES", Boolean.toString(privateDirected));
        String javaOpts = System.getProperty("bench.hub-java-opts", HubServer.BENCH_JVM);
        if (!javaOpts.isBlank()) {
            env.put("HUB_JAVA_OPTS", javaOpts);
        }
        HubProcess.withBenchHubEnv(env);
        HubServer hub = external.isBlank() ? HubServer.start(env) : null;
        URI uri = hub == null ? URI.create(external) : hub.webSocketUri();
        try {
            if (hub != null) {
                awaitApplication(hub);
            }
            List<Pair> all = new ArrayList<>();
            for (int p = 0; p < pairs; p++) {
                all.add(new Pair(uri, "bench/s" + p, "bench/r" + p, window, receipts, rate / pairs));
            }
            Thread reactions = reactions(all);
            int fastWarmup = Integer.getInteger("bench.warmup-unpaced", 0);
            if (fastWarmup > 0) {
                // compiles the chat path in a fraction of the time a paced warm-up takes
                all.forEach(pair -> pair.paced = false);
                run(all, fastWarmup / pairs, null);
                all.forEach(pair -> pair.paced = true);
            }
            run(all, warmup / pairs, null);
            long[] latencies = new long[(messages / pairs) * pairs];
            long hubPid = hub != null ? hub.pid() : Long.getLong("bench.pid", 0L);
            String jfr = System.getProperty("bench.jfr", "");
            if (!jfr.isEmpty() && hubPid > 0) {
                HubProcess.jcmd(hubPid, "JFR.start", "name=chatbench", "settings=profile", "filename=" + jfr);
            }
            JournalCounters journalBefore = hub != null ? JournalCounters.read(hub) : null;
            String loadBefore = HubProcess.loadAverage();
            long cpuBefore = HubProcess.cpuNanos(hubPid);
            long clientCpuBefore = HubProcess.cpuNanos(ProcessHandle.current().pid());
            long elapsed = run(all, messages / pairs, latencies);
            long cpuUsed = HubProcess.cpuNanos(hubPid) - cpuBefore;
            long clientCpuUsed = HubProcess.cpuNanos(ProcessHandle.current().pid()) - clientCpuBefore;
            String loadAfter = HubProcess.loadAverage();
            if (!jfr.isEmpty() && hubPid > 0) {
                HubProcess.jcmd(hubPid, "JFR.stop", "name=chatbench");
            }
            int received = (messages / pairs) * pairs;
            reactions.interrupt();
            System.out.printf("SYNAPSE directed chat: %d pairs, window %d, receipts %s, private directed %s, offered %s:"
                            + " %d messages in %.2f s = %.0f messages/s; send->receive %s; hub CPU %s;"
                            + " %s client: %.2f cores; load average %s -> %s%n",
                    pairs, window, receipts, hub == null ? "(external hub)" : privateDirected,
                    rate > 0 ? String.format("%.0f/s", rate) : "max", received,
                    elapsed / 1e9, received / (elapsed / 1e9), new Percentiles(latencies, received).summary(),
                    hubPid > 0 ? String.format("%.1f us/msg (%.2f cores)", cpuUsed / 1e3 / received,
                            cpuUsed / (double) elapsed) : "unknown",
                    System.getProperty("bench.client", "jdk"), clientCpuUsed / (double) elapsed, loadBefore, loadAfter);
            if (journalBefore != null) {
                System.out.printf("SYNAPSE directed chat: journal %s%n", JournalCounters.read(hub).since(journalBefore));
            }
            if (rate > 0) {
                // the same percentiles per 10 s of offered load, in the order chats were received: shows settling and bursts
                int chunk = (int) Math.max(1, rate * 10);
                for (int from = 0; from < received; from += chunk) {
                    int to = Math.min(received, from + chunk);
                    System.out.printf("  chats %d-%d: %s%n", from, to,
                            new Percentiles(java.util.Arrays.copyOfRange(latencies, from, to), to - from).summary());
                }
            }
            for (Pair pair : all) {
                pair.close();
            }
        } finally {
            if (hub != null) {
                hub.stop();
            }
        }
    }

    /**
     * Has every receiver react every 20 s (a live agent does; heartbeats do not count as reactions).
     * Not {@code who_request}: its mailbox counts walk every journalled directed chat (measured at 18%
     * of hub CPU for 8 requests in 40 s after about 180 000 chats).
     */
    private static Thread reactions(List<Pair> pairs) {
        Thread thread = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(20_000);
                    for (Pair pair : pairs) {
                        pair.receiver.send("{\"type\":\"history_request\",\"sender\":\"" + pair.receiverName
                                + "\",\"target\":\"System\",\"history_target\":\"bench/nobody\",\"limit\":1}");
                    }
                }
            } catch (InterruptedException stop) {
                Thread.currentThread().interrupt();
            }
        }, "receiver-reactions");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Every pair sends {@code perPair} chats; returns the elapsed nanoseconds until the last is received. */
    private static long run(List<Pair> pairs, int perPair, long[] latencies) throws Exception {
        AtomicInteger slot = new AtomicInteger();
        CountDownLatch finished = new CountDownLatch(pairs.size());
        for (Pair pair : pairs) {
            pair.arm(perPair, latencies, slot, finished);
        }
        long started = System.nanoTime();
        List<Thread> senders = new ArrayList<>();
        for (Pair pair : pairs) {
            Thread sender = new Thread(() -> pair.sendAll(perPair), pair.senderName);
            sender.start();
            senders.add(sender);
        }
        if (!finished.await(Long.getLong("bench.timeout-seconds", 300), TimeUnit.SECONDS)) {
            StringBuilder state = new StringBuilder("receivers did not get every chat in time:");
            for (Pair pair : pairs) {
                state.append(' ').append(pair.receiverName).append(' ').append(pair.got.get()).append('/').append(perPair)
                        .append(" errors ").append(pair.errors.get()).append(pair.lastOther == null ? "" : " last other frame " + pair.lastOther);
            }
            throw new AssertionError(state.toString());
        }
        long elapsed = System.nanoTime() - started;
        for (Thread sender : senders) {
            sender.join();
        }
        for (Pair pair : pairs) {
            assertEquals(0, pair.errors.get(), "hub sent error frames to " + pair.senderName);
        }
        return elapsed;
    }




    /** Waits out the 503s between Payara's readiness and the end of the application's start-up. */
    private static void awaitApplication(HubServer hub) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            int status = http.send(HttpRequest.newBuilder(hub.http("/health")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
            if (status == 200) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("hub application not started");
    }

    /** One sender socket and one receiver socket, both registered. */
    private static final class Pair {
        final String senderName;
        final String receiverName;
        final String targetField;
        final boolean receipts;
        final Semaphore inFlight;
        final int window;
        final long intervalNanos;
        volatile boolean paced = true;
        final AtomicInteger errors = new AtomicInteger();
        final Socket sender;
        final Socket receiver;
        volatile int expected;
        final AtomicInteger got = new AtomicInteger();
        volatile long[] latencies;
        volatile AtomicInteger slot;
        volatile CountDownLatch finished;
        volatile String lastOther;

        Pair(URI uri, String senderName, String receiverName, int window, boolean receipts, double rate) {
            this.intervalNanos = rate > 0 ? (long) (1e9 / rate) : 0;
            this.senderName = senderName;
            this.receiverName = receiverName;
            this.window = window;
            this.receipts = receipts;
            this.inFlight = new Semaphore(window);
            this.targetField = "\"target\":\"" + receiverName + "\"";
            this.receiver = Socket.open(uri, receiverName, this::received);
            this.sender = Socket.open(uri, senderName, text -> {
                if (text.contains("\"type\":\"error\"")) {
                    errors.incrementAndGet();
                }
                if (!text.contains("presence_update")) {
                    lastOther = text;
                }
            });
        }

        void arm(int count, long[] samples, AtomicInteger samplesSlot, CountDownLatch done) {
            got.set(0);
            expected = count;
            latencies = samples;
            slot = samplesSlot;
            finished = done;
        }

        void sendAll(int count) {
            String prefix = "{\"type\":\"chat\",\"sender\":\"" + senderName + "\",\"target\":\"" + receiverName + "\","
                    + (receipts ? "\"receipt_requested\":true," : "") + "\"timestamp\":0,\"payload\":\"b:";
            long due = System.nanoTime();
            for (int i = 0; i < count; i++) {
                long stamp;
                if (intervalNanos > 0 && paced) {
                    // Paced: wait for this chat's slot; a late slot is sent at once, stamped with its schedule.
                    due += intervalNanos;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        java.util.concurrent.locks.LockSupport.parkNanos(wait);
                    }
                    stamp = due;
                } else {
                    stamp = 0;
                }
                inFlight.acquireUninterruptibly();
                sender.send(prefix + (stamp == 0 ? System.nanoTime() : stamp) + "\"}");
            }
        }

        void received(String text) {
            int at = text.indexOf(MARK);
            // In the default (compatibility) fan-out every socket sees every chat: count only ours.
            if (at < 0 || !text.contains("\"type\":\"chat\"") || !text.contains(targetField)) {
                if (!text.contains("presence_update")) {
                    lastOther = text;
                }
                return;
            }
            int from = at + MARK.length();
            int to = text.indexOf('"', from);
            long latency = System.nanoTime() - Long.parseLong(text.substring(from, to));
            inFlight.release();
            long[] samples = latencies;
            if (samples != null) {
                samples[slot.getAndIncrement()] = latency;
            }
            if (got.incrementAndGet() == expected) {
                finished.countDown();
            }
        }

        void close() {
            sender.close();
            receiver.close();
        }
    }

    /** A registered SYNAPSE socket that hands every text frame after its registration to a callback. */
    private interface Socket {
        /** Opens and registers {@code name} with the client {@code bench.client} names ({@code jdk} or {@code raw}). */
        static Socket open(URI uri, String name, java.util.function.Consumer<String> frames) {
            return "raw".equals(System.getProperty("bench.client", "jdk"))
                    ? new RawSocket(uri, name, frames) : new JdkSocket(uri, name, frames);
        }

        /** Sends one text frame. */
        void send(String text);

        /** Closes the socket. */
        void close();

        static String heartbeat(String name) {
            return "{\"type\":\"heartbeat\",\"sender\":\"" + name + "\",\"target\":\"System\",\"payload\":\"online\",\"timestamp\":0}";
        }

        static boolean registers(String text, String name) {
            return text.contains("\"presence_update\"") && text.contains("\"" + name + "\"");
        }
    }

    /**
     * A socket on a bare TCP connection with blocking I/O: one reader thread, writes from the caller.
     * At 9,250 chats/s the JDK client costs the benchmark's JVM ~0.6 core of a 2-core machine that also
     * runs the hub, this one ~0.47 (measured, benchmarks.md).
     */
    private static final class RawSocket implements Socket {
        private final RawWebSocket socket;
        private final CompletableFuture<Void> registered = new CompletableFuture<>();

        RawSocket(URI uri, String name, java.util.function.Consumer<String> frames) {
            try {
                socket = RawWebSocket.open(uri.getPort(), 0);
                if (!socket.upgraded()) {
                    throw new IllegalStateException("hub refused the upgrade: " + socket.handshakeAnswer());
                }
                socket.readTimeout(0);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            Thread reader = new Thread(() -> {
                try {
                    String text;
                    while ((text = socket.readText()) != null) {
                        if (registered.isDone()) {
                            frames.accept(text);
                        } else if (Socket.registers(text, name)) {
                            registered.complete(null);
                        }
                    }
                } catch (java.io.IOException e) {
                    registered.completeExceptionally(e);
                }
            }, "bench-reader-" + name);
            reader.setDaemon(true);
            reader.start();
            send(Socket.heartbeat(name));
            registered.orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
        }

        @Override
        public void send(String text) {
            try {
                socket.sendText(text);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (java.io.IOException e) {
                // closing after the run: nothing left to measure
            }
        }
    }

    /** A socket on the JDK WebSocket client. */
    private static final class JdkSocket implements Socket, WebSocket.Listener {
        private static final HttpClient HTTP = HttpClient.newHttpClient();
        private final java.util.function.Consumer<String> frames;
        private final StringBuilder partial = new StringBuilder();
        private final CompletableFuture<Void> registered = new CompletableFuture<>();
        private final String name;
        private final WebSocket socket;

        JdkSocket(URI uri, String name, java.util.function.Consumer<String> frames) {
            this.name = name;
            this.frames = frames;
            this.socket = HTTP.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10)).buildAsync(uri, this).join();
            send(Socket.heartbeat(name));
            registered.orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
        }

        /** Sends one text frame; the JDK client allows one outstanding send, so wait for it. */
        @Override
        public void send(String text) {
            socket.sendText(text, true).join();
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                if (!registered.isDone()) {
                    if (Socket.registers(text, name)) {
                        registered.complete(null);
                    }
                } else {
                    frames.accept(text);
                }
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            registered.completeExceptionally(error);
        }

        @Override
        public void close() {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bench done").orTimeout(5, TimeUnit.SECONDS)
                    .exceptionally(e -> null).join();
        }
    }
}
