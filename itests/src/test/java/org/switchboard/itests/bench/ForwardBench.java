package org.switchboard.itests.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.RawWebSocket;

/**
 * Cross-hub forwarded chats between two packaged hubs with both journals on (issue 18, "Speed and
 * resilience"). Not part of the default run (the name does not end in IT); see benchmarks.md.
 *
 * <p>hub-a (origin) forwards to hub-b (receiver) over loopback {@code ws://} with the peer token.
 * {@code bench.pairs} (8) senders on hub-a each chat to their own recipient {@code ACME/fr<i>@hub-b};
 * a chat counts when the recipient's socket on hub-b got it. Phase 1, saturated: every sender keeps
 * {@code bench.window} (64) chats unanswered; {@code bench.warmup-seconds} (60) of load warm both JVMs,
 * then {@code bench.chats} (40000) are measured. Phase 2, latency: chats paced at {@code bench.rate}
 * per second in total (0 = half the measured rate), {@code bench.latency-chats} (20000) measured from
 * the scheduled send to the recipient's receive, after a quarter as many to settle. Phase 3, outage
 * ({@code bench.outage-chats} 10000, 0 = skip): hub-b stopped, the chats paced over
 * {@code bench.outage-seconds} (60) to {@code ACME/fout@hub-b}, hub-b restarted; reports how long after
 * it was ready the last one arrived and how many arrived twice (counted at the recipient, which
 * registers with a mailbox replay from the last seq seen so none that arrived before it is missed).
 * Every line carries the CPU time of both hubs per forwarded chat and the load average.
 * {@code bench.jfr=/dir} records a JFR profile of both hubs during the measured saturated phase,
 * {@code bench.jfr-latency=/dir} one during the measured paced phase.
 * {@code bench.hub-war=/path/switchboard.war} runs both hubs on another build of the application (a
 * before/after pair run back to back from one checkout; Payara Micro takes the context root from the
 * file name, so it must be {@code switchboard.war}). {@code bench.hub-env=KEY=value,…} adds settings to
 * both hubs' environment.
 */
class ForwardBench {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String TOKEN = "forward-bench-peer-token";
    private static final String POLICY =
            "{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"message\"]}]}";

    private final AtomicLong lastSeq = new AtomicLong();

    @Test
    void forwardedChats() throws Exception {
        int pairs = Integer.getInteger("bench.pairs", 8);
        int window = Integer.getInteger("bench.window", 64);
        int warmupSeconds = Integer.getInteger("bench.warmup-seconds", 60);
        int chats = Integer.getInteger("bench.chats", 40_000);
        double rate = Double.parseDouble(System.getProperty("bench.rate", "0"));
        int latencyChats = Integer.getInteger("bench.latency-chats", 20_000);
        int outageChats = Integer.getInteger("bench.outage-chats", 10_000);
        int outageSeconds = Integer.getInteger("bench.outage-seconds", 60);
        String jvm = System.getProperty("bench.hub-java-opts", HubServer.BENCH_JVM);
        Path dir = Files.createDirectories(Path.of("target", "forward-bench"));
        Path policy = dir.resolve("multihub-policy.json");
        Files.deleteIfExists(policy);
        Files.createFile(policy, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(policy, POLICY, StandardCharsets.UTF_8);
        String war = System.getProperty("bench.hub-war", "");
        try (HubServer hubB = HubServer.start(benchHubEnv(HubServer.env("HUB_ID", "hub-b", "HUB_TOKEN", TOKEN,
                "HUB_MULTIHUB_POLICY", policy.toAbsolutePath().toString(), "HUB_JAVA_OPTS", jvm,
                "HUB_MAX_CLIENTS_PER_HOST", "0", "HUB_MAX_CLIENTS", "4096", "HUB_PRIVATE_DIRECTED_MESSAGES", "true"), war));
             HubServer hubA = HubServer.start(benchHubEnv(HubServer.env("HUB_ID", "hub-a", "HUB_JAVA_OPTS", jvm,
                "HUB_MESSAGE_PEERS", "hub-b=ws://127.0.0.1:" + hubB.port() + "/", "HUB_MESSAGE_PEER_TOKEN", TOKEN,
                "HUB_MESSAGE_FORWARD_MAX_BACKOFF_SECONDS", System.getProperty("bench.max-backoff", "300"),
                "HUB_PRIVATE_DIRECTED_MESSAGES", "true"), war))) {
            List<Pair> all = new ArrayList<>();
            for (int i = 0; i < pairs; i++) {
                all.add(new Pair(hubA.port(), hubB.port(), i));
            }
            Thread reactions = reactions(all);

            // phase 1: saturated, after a warm-up of about a minute of load
            long warmed = saturated(all, window, 0, warmupSeconds);
            System.out.printf("ForwardBench warm-up: %d forwarded chats in %d s%n", warmed, warmupSeconds);
            String jfr = System.getProperty("bench.jfr", "");
            if (!jfr.isEmpty()) {
                HubProcess.jcmd(hubA.pid(), "JFR.start", "name=fwd", "settings=profile", "filename=" + jfr + "/hub-a.jfr");
                HubProcess.jcmd(hubB.pid(), "JFR.start", "name=fwd", "settings=profile", "filename=" + jfr + "/hub-b.jfr");
            }
            Cpu cpu = new Cpu(hubA, hubB);
            JournalCounters journalA = JournalCounters.read(hubA);
            JournalCounters journalB = JournalCounters.read(hubB);
            long started = System.nanoTime();
            long measured = saturated(all, window, chats / pairs, 0);
            long elapsed = System.nanoTime() - started;
            String journals = "origin journal " + JournalCounters.read(hubA).since(journalA)
                    + "; receiver journal " + JournalCounters.read(hubB).since(journalB);
            if (!jfr.isEmpty()) {
                HubProcess.jcmd(hubA.pid(), "JFR.stop", "name=fwd");
                HubProcess.jcmd(hubB.pid(), "JFR.stop", "name=fwd");
            }
            double perSecond = measured / (elapsed / 1e9);
            System.out.printf("ForwardBench saturated: %d pairs, window %d, %d forwarded chats in %.2f s = %.0f chats/s;"
                    + " send->receive %s; %s%n", pairs, window, measured, elapsed / 1e9, perSecond,
                    new Percentiles(latencies(all), (int) Math.min(measured, Integer.MAX_VALUE)).summary(), cpu.per(measured, elapsed));
            System.out.printf("ForwardBench saturated: %s%n", journals);

            // phase 2: latency at half that rate
            double paced = rate > 0 ? rate : perSecond / 2;
            pacedRun(all, paced, Math.max(1, latencyChats / 4 / pairs));
            String jfrLatency = System.getProperty("bench.jfr-latency", "");
            if (!jfrLatency.isEmpty()) {
                HubProcess.jcmd(hubA.pid(), "JFR.start", "name=fwdpaced", "settings=profile", "filename=" + jfrLatency + "/hub-a.jfr");
                HubProcess.jcmd(hubB.pid(), "JFR.start", "name=fwdpaced", "settings=profile", "filename=" + jfrLatency + "/hub-b.jfr");
            }
            cpu = new Cpu(hubA, hubB);
            journalA = JournalCounters.read(hubA);
            journalB = JournalCounters.read(hubB);
            started = System.nanoTime();
            long[] samples = pacedRun(all, paced, latencyChats / pairs);
            elapsed = System.nanoTime() - started;
            journals = "origin journal " + JournalCounters.read(hubA).since(journalA)
                    + "; receiver journal " + JournalCounters.read(hubB).since(journalB);
            if (!jfrLatency.isEmpty()) {
                HubProcess.jcmd(hubA.pid(), "JFR.stop", "name=fwdpaced");
                HubProcess.jcmd(hubB.pid(), "JFR.stop", "name=fwdpaced");
            }
            System.out.printf("ForwardBench latency: %d forwarded chats offered at %.0f/s, done in %.2f s; scheduled send->receive %s; %s%n",
                    samples.length, paced, elapsed / 1e9, new Percentiles(samples, samples.length).summary(),
                    cpu.per(samples.length, elapsed));
            System.out.printf("ForwardBench latency: %s%n", journals);
            for (Pair pair : all) {
                assertEquals(0, pair.errors.get(), "error frames seen by " + pair.sender + ": " + pair.lastError);
                assertEquals(0, pair.duplicates.get(), "chats received twice by " + pair.recipient);
            }
            reactions.interrupt();
            for (Pair pair : all) {
                pair.close();
            }
            if (outageChats > 0) {
                outage(hubA, hubB, outageChats, outageSeconds);
            }
        }
    }

    /**
     * Closed loop: each pair keeps {@code window} chats unanswered, for {@code perPair} chats each, or
     * (perPair 0) until {@code seconds} have passed; returns the chats received.
     */
    private long saturated(List<Pair> pairs, int window, int perPair, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> threads = new ArrayList<>();
        for (Pair pair : pairs) {
            pair.reset(perPair == 0 ? Integer.MAX_VALUE : perPair, null);
            Semaphore open = new Semaphore(window);
            pair.open = open;
            Thread t = new Thread(() -> {
                try {
                    for (int i = 0; i < pair.target; i++) {
                        if (perPair == 0 && System.nanoTime() >= deadline) {
                            break;
                        }
                        open.acquire();
                        pair.send(System.nanoTime());
                    }
                } catch (IOException | InterruptedException e) {
                    throw new AssertionError(e);
                }
            }, "fwd-sender" + pair.index);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        long total = 0;
        for (Pair pair : pairs) {
            pair.awaitReceived(pair.sent.get(), Duration.ofSeconds(300));
            total += pair.received.get();
            pair.open = null;
        }
        return total;
    }

    /** Open loop at {@code rate} per second in total; returns the scheduled-send to receive latencies. */
    private long[] pacedRun(List<Pair> pairs, double rate, int perPair) throws Exception {
        long[] samples = new long[perPair * pairs.size()];
        long interval = (long) (1e9 / (rate / pairs.size()));
        long started = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (Pair pair : pairs) {
            pair.reset(perPair, samples);
            Thread t = new Thread(() -> {
                try {
                    long offset = interval * pair.index / pairs.size();
                    for (int i = 0; i < perPair; i++) {
                        long scheduled = started + offset + i * interval;
                        long wait = scheduled - System.nanoTime();
                        if (wait > 0) {
                            TimeUnit.NANOSECONDS.sleep(wait);
                        }
                        pair.send(scheduled);
                    }
                } catch (IOException | InterruptedException e) {
                    throw new AssertionError(e);
                }
            }, "fwd-paced" + pair.index);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (Pair pair : pairs) {
            pair.awaitReceived(perPair, Duration.ofSeconds(300));
        }
        return samples;
    }

    /**
     * {@code env} with {@code HUB_WAR} set when {@code war} names another build, and the
     * {@code bench.hub-env} settings ({@code KEY=value,KEY=value}) for both hubs.
     */
    private static java.util.Map<String, String> benchHubEnv(java.util.Map<String, String> env, String war) {
        java.util.Map<String, String> out = new java.util.HashMap<>(env);
        if (!war.isEmpty()) {
            out.put("HUB_WAR", war);
        }
        HubProcess.withBenchHubEnv(out);
        return out;
    }

    /** Phase 3: the peer down while the chats queue, then back; every chat counted at the recipient. */
    private void outage(HubServer hubA, HubServer hubB, int count, int seconds) throws Exception {
        hubB.stop();
        Cpu cpu = new Cpu(hubA, null);
        String loadBefore = HubProcess.loadAverage();
        long interval = TimeUnit.SECONDS.toNanos(seconds) / count;
        AtomicInteger errors = new AtomicInteger();
        try (RawWebSocket sender = RawWebSocket.open(hubA.port(), 0)) {
            sender.readTimeout(0);
            sender.sendText("{\"type\":\"heartbeat\",\"sender\":\"ACME/fo-sender\",\"target\":\"System\",\"payload\":\"\"}");
            Thread drain = new Thread(() -> {
                try {
                    String text;
                    while ((text = sender.readText()) != null) {
                        if (text.contains("\"type\":\"error\"")) {
                            errors.incrementAndGet();
                        }
                    }
                } catch (IOException e) {
                    // closed at the end
                }
            }, "fwd-outage-drain");
            drain.setDaemon(true);
            drain.start();
            long started = System.nanoTime();
            for (int i = 0; i < count; i++) {
                long wait = started + i * interval - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                sender.sendText("{\"type\":\"chat\",\"sender\":\"ACME/fo-sender\",\"target\":\"ACME/fout@hub-b\",\"payload\":\"fo " + i + "\"}");
            }
            long queuedIn = System.nanoTime() - started;
            long pending = awaitMetric(hubA, "synapse_message_forward_pending", count, Duration.ofSeconds(60));
            System.out.printf("ForwardBench outage: %d chats sent in %.1f s with the peer down, %d pending at the origin,"
                    + " %d refused; %s; load %s -> %s%n", count, queuedIn / 1e9, pending, errors.get(),
                    cpu.originOnly(count), loadBefore, HubProcess.loadAverage());
        }
        long restartAt = System.nanoTime();
        hubB.restart();
        long readyAt = System.nanoTime();
        Cpu back = new Cpu(hubA, hubB);
        Map<String, Integer> copies = new ConcurrentHashMap<>();
        AtomicLong lastArrival = new AtomicLong();
        try (RawWebSocket recipient = RawWebSocket.open(hubB.port(), 0)) {
            recipient.readTimeout(1000);
            recipient.sendText("{\"type\":\"heartbeat\",\"sender\":\"ACME/fout\",\"target\":\"System\",\"payload\":\"\","
                    + "\"token\":\"" + TOKEN + "\",\"mailbox\":true,\"since_seq\":" + lastSeq.get() + "}");
            long deadline = readyAt + TimeUnit.SECONDS.toNanos(Long.getLong("bench.outage-wait-seconds", 240));
            while (copies.size() < count && System.nanoTime() < deadline) {
                String text;
                try {
                    text = recipient.readText();
                } catch (java.net.SocketTimeoutException e) {
                    continue;
                }
                if (text == null) {
                    break;
                }
                if (text.contains("\"type\":\"chat\"") && text.contains("\"forwarded_from\"")) {
                    JsonObject chat = parse(text);
                    copies.merge(chat.getString("payload"), 1, Integer::sum);
                    lastArrival.set(System.nanoTime());
                }
            }
            // any late second copy
            long quiet = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < quiet) {
                try {
                    String text = recipient.readText();
                    if (text == null) {
                        break;
                    }
                    if (text.contains("\"type\":\"chat\"") && text.contains("\"forwarded_from\"")) {
                        copies.merge(parse(text).getString("payload"), 1, Integer::sum);
                    }
                } catch (java.net.SocketTimeoutException e) {
                    // nothing more
                }
            }
        }
        long twice = copies.values().stream().filter(n -> n > 1).count();
        System.out.printf("ForwardBench outage recovery: peer restart took %.1f s; %d of %d chats delivered, the last %.1f s after"
                + " the peer was ready; %d delivered more than once; %s%n", (readyAt - restartAt) / 1e9,
                copies.size(), count, (lastArrival.get() - readyAt) / 1e9, twice, back.per(count, lastArrival.get() - readyAt));
        assertEquals(count, copies.size(), "every queued chat delivered");
        assertEquals(0, twice, "none delivered twice");
    }

    /** One sender on hub-a and its recipient on hub-b. */
    private final class Pair {
        final int index;
        final String sender;
        final String recipient;
        final RawWebSocket senderSocket;
        final RawWebSocket recipientSocket;
        final AtomicInteger errors = new AtomicInteger();
        final AtomicInteger duplicates = new AtomicInteger();
        final AtomicInteger sent = new AtomicInteger();
        final AtomicInteger received = new AtomicInteger();
        final Map<Long, Long> sentAt = new ConcurrentHashMap<>();
        final AtomicLong sequence = new AtomicLong();
        volatile String lastError = "";
        volatile Semaphore open;
        volatile int target;
        volatile long[] samples;
        volatile int base;
        volatile long[] lastLatencies = new long[0];
        final Object progress = new Object();

        Pair(int portA, int portB, int index) throws Exception {
            this.index = index;
            this.sender = "ACME/fs" + index;
            this.recipient = "ACME/fr" + index;
            recipientSocket = RawWebSocket.open(portB, 0);
            recipientSocket.readTimeout(0);
            recipientSocket.sendText("{\"type\":\"heartbeat\",\"sender\":\"" + recipient + "\",\"target\":\"System\","
                    + "\"payload\":\"\",\"token\":\"" + TOKEN + "\"}");
            senderSocket = RawWebSocket.open(portA, 0);
            senderSocket.readTimeout(0);
            senderSocket.sendText("{\"type\":\"heartbeat\",\"sender\":\"" + sender + "\",\"target\":\"System\",\"payload\":\"\"}");
            Thread r = new Thread(this::recipientLoop, "fwd-recipient" + index);
            r.setDaemon(true);
            r.start();
            Thread s = new Thread(this::senderLoop, "fwd-sender-reader" + index);
            s.setDaemon(true);
            s.start();
        }

        void reset(int count, long[] latencySamples) {
            sent.set(0);
            received.set(0);
            sentAt.clear();
            target = count;
            samples = latencySamples;
            base = latencySamples == null ? 0 : index * count;
            lastLatencies = latencySamples == null && count != Integer.MAX_VALUE ? new long[count] : new long[0];
        }

        void send(long scheduled) throws IOException {
            long id = sequence.incrementAndGet();
            sentAt.put(id, scheduled);
            sent.incrementAndGet();
            senderSocket.sendText("{\"type\":\"chat\",\"sender\":\"" + sender + "\",\"target\":\"" + recipient
                    + "@hub-b\",\"payload\":\"fb " + id + "\"}");
        }

        void awaitReceived(int count, Duration patience) throws InterruptedException {
            long deadline = System.nanoTime() + patience.toNanos();
            synchronized (progress) {
                while (received.get() < count) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new AssertionError(recipient + " received " + received.get() + " of " + count
                                + "; errors " + errors.get() + " " + lastError);
                    }
                    TimeUnit.NANOSECONDS.timedWait(progress, Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)));
                }
            }
        }

        private void recipientLoop() {
            try {
                String text;
                while ((text = recipientSocket.readText()) != null) {
                    if (!text.contains("\"forwarded_from\"")) {
                        continue;
                    }
                    long now = System.nanoTime();
                    JsonObject chat = parse(text);
                    if (chat.containsKey("seq")) {
                        lastSeq.accumulateAndGet(chat.getJsonNumber("seq").longValue(), Math::max);
                    }
                    long id = Long.parseLong(chat.getString("payload").substring(3));
                    Long at = sentAt.remove(id);
                    if (at == null) {
                        duplicates.incrementAndGet();
                        continue;
                    }
                    int n = received.getAndIncrement();
                    long[] s = samples;
                    if (s != null && n < target) {
                        s[base + n] = now - at;
                    } else if (n < lastLatencies.length) {
                        lastLatencies[n] = now - at;
                    }
                    Semaphore window = open;
                    if (window != null) {
                        window.release();
                    }
                    synchronized (progress) {
                        progress.notifyAll();
                    }
                }
            } catch (IOException e) {
                // closed at the end of the run
            }
        }

        private void senderLoop() {
            try {
                String text;
                while ((text = senderSocket.readText()) != null) {
                    if (text.contains("\"type\":\"error\"")) {
                        errors.incrementAndGet();
                        lastError = text;
                    }
                }
            } catch (IOException e) {
                // closed at the end of the run
            }
        }

        void close() throws IOException {
            senderSocket.close();
            recipientSocket.close();
        }
    }

    private static long[] latencies(List<Pair> pairs) {
        int n = 0;
        for (Pair pair : pairs) {
            n += Math.min(pair.lastLatencies.length, pair.received.get());
        }
        long[] out = new long[n];
        int i = 0;
        for (Pair pair : pairs) {
            int k = Math.min(pair.lastLatencies.length, pair.received.get());
            System.arraycopy(pair.lastLatencies, 0, out, i, k);
            i += k;
        }
        return out;
    }

    /** Recipients react every 20 s (a history request), as a live agent does, so hub-b never marks them stale. */
    private static Thread reactions(List<Pair> pairs) {
        Thread thread = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(20_000);
                    for (Pair pair : pairs) {
                        pair.recipientSocket.sendText("{\"type\":\"history_request\",\"sender\":\"" + pair.recipient
                                + "\",\"target\":\"System\",\"history_target\":\"ACME/nobody\",\"limit\":1}");
                    }
                }
            } catch (InterruptedException stop) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                // closed at the end of the run
            }
        }, "fwd-reactions");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** CPU of both hubs from a starting point. */
    private static final class Cpu {
        final HubServer a;
        final HubServer b;
        final long a0;
        final long b0;
        final String load;

        Cpu(HubServer a, HubServer b) {
            this.a = a;
            this.b = b;
            this.a0 = HubProcess.cpuNanos(a.pid());
            this.b0 = b == null ? 0 : HubProcess.cpuNanos(b.pid());
            this.load = HubProcess.loadAverage();
        }

        String per(long chats, long elapsed) {
            long da = HubProcess.cpuNanos(a.pid()) - a0;
            long db = HubProcess.cpuNanos(b.pid()) - b0;
            return String.format("hub CPU per forwarded chat: origin %.1f us + receiver %.1f us = %.1f us (%.2f + %.2f cores);"
                    + " load %s -> %s", da / 1e3 / chats, db / 1e3 / chats, (da + db) / 1e3 / chats,
                    da / (double) elapsed, db / (double) elapsed, load, HubProcess.loadAverage());
        }

        String originOnly(long chats) {
            return String.format("origin CPU %.1f us per queued chat", (HubProcess.cpuNanos(a.pid()) - a0) / 1e3 / chats);
        }
    }

    private static long awaitMetric(HubServer hub, String name, long atLeast, Duration patience) throws Exception {
        long deadline = System.nanoTime() + patience.toNanos();
        long value = -1;
        while (System.nanoTime() < deadline) {
            value = metric(hub, name);
            if (value >= atLeast) {
                return value;
            }
            Thread.sleep(500);
        }
        return value;
    }

    private static long metric(HubServer hub, String name) throws IOException, InterruptedException {
        String body = HTTP.send(HttpRequest.newBuilder(hub.http("/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
        for (String line : body.split("\n")) {
            if (line.startsWith(name + " ")) {
                return (long) Double.parseDouble(line.substring(name.length() + 1).strip());
            }
        }
        throw new AssertionError(name + " missing from /metrics");
    }

    private static JsonObject parse(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }



}
