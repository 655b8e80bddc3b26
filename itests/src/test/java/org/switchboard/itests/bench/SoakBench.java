package org.switchboard.itests.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.request;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.redsyn.RedsynClient;
import org.switchboard.itests.redsyn.Relay;
import org.switchboard.itests.support.SynapseClient;

/**
 * Soak: one hub under a steady mix of directed chat, history requests, connection churn and REDSYN
 * send/take/ack for {@code soak.minutes} (30). Once a minute the hub's heap is sampled after a full
 * collection: the live bytes {@code jcmd <pid> GC.class_histogram} totals (it collects first).
 * The samples from minute {@code soak.warmup-minutes} (5) on must all lie within
 * {@code soak.tolerance} (0.10) of the first of them. Not part of the default run (the name does not
 * end in IT); see src/site/markdown/soak.md. {@code soak.chat-rate} chats per second in total (100).
 */
class SoakBench {

    private static final Pattern HISTOGRAM_TOTAL = Pattern.compile("^Total\\s+\\d+\\s+(\\d+)\\s*$", Pattern.MULTILINE);

    /** Failed load steps (a refusal or a timeout), reported with each sample. */
    private final AtomicLong errors = new AtomicLong();

    @Test
    void heapAfterFullCollectionStaysFlat() throws Exception {
        int minutes = Integer.getInteger("soak.minutes", 30);
        int warmup = Integer.getInteger("soak.warmup-minutes", 5);
        double tolerance = Double.parseDouble(System.getProperty("soak.tolerance", "0.10"));
        int chatRate = Integer.getInteger("soak.chat-rate", 100);
        assertTrue(minutes > warmup, "soak.minutes must exceed soak.warmup-minutes");

        Relay relay = Relay.start("HUB_JAVA_OPTS", org.switchboard.itests.support.HubServer.BENCH_JVM);
        try {
            RedsynClient c = relay.client;
            String token = relay.personWithNode("soak@acme.test", "enterprise");
            assertEquals(201, c.post("/v1/orgs", token, obj("handle", "soak", "me", "joel")).status());
            assertEquals(201, c.put("/v1/agents/soak/general/joel/box", token, obj("listening", true)).status());

            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong chats = new AtomicLong();
            AtomicLong received = new AtomicLong();
            AtomicLong histories = new AtomicLong();
            AtomicLong churns = new AtomicLong();
            AtomicLong redsynSent = new AtomicLong();
            AtomicLong redsynTaken = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            List<SynapseClient> clients = new ArrayList<>();
            int pairs = 4;
            for (int p = 0; p < pairs; p++) {
                SynapseClient receiver = SynapseClient.register(relay.hub.webSocketUri(), "soak/r" + p);
                SynapseClient sender = SynapseClient.register(relay.hub.webSocketUri(), "soak/s" + p);
                clients.add(receiver);
                clients.add(sender);
                threads.add(loop(running, "drain-r" + p, 0, () -> {
                    try {
                        receiver.next(Duration.ofSeconds(1));
                        received.incrementAndGet();
                    } catch (AssertionError idle) {
                        return; // nothing this second
                    }
                }));
                threads.add(loop(running, "drain-s" + p, 0, () -> {
                    try {
                        sender.next(Duration.ofSeconds(1));
                    } catch (AssertionError idle) {
                        return; // nothing this second
                    }
                }));
                int index = p;
                long pause = Math.max(1, 1000L * pairs / chatRate);
                threads.add(loop(running, "chat-" + p, pause, () -> {
                    long n = chats.incrementAndGet();
                    String text = "soak " + n + " " + "p".repeat(512 + (int) (n % 3072));
                    sender.send(SynapseClient.frame("chat", "soak/r" + index, text).add("client_msg_id", "s" + index + "-" + n));
                }));
            }
            // receivers heartbeat as live agents do (senders are busy chatting); a silent recipient would be marked stale and its chats dead-lettered
            List<SynapseClient> agents = clients.stream().filter(a -> a.name().startsWith("soak/r")).toList();
            threads.add(loop(running, "heartbeat", 15_000, () -> {
                for (SynapseClient agent : agents) {
                    agent.send(SynapseClient.frame("heartbeat", "System", "online"));
                }
            }));
            SynapseClient historian = SynapseClient.register(relay.hub.webSocketUri(), "soak/historian");
            clients.add(historian);
            threads.add(loop(running, "history", 1000, () -> {
                historian.send(SynapseClient.frame("history_request", "System", "history").add("limit", 100));
                historian.expectType("history_snapshot");
                histories.incrementAndGet();
            }));
            threads.add(loop(running, "churn", 200, () -> {
                String name = "soak/churn" + (churns.incrementAndGet() % 200);
                try (SynapseClient churner = SynapseClient.register(relay.hub.webSocketUri(), name)) {
                    churner.send(SynapseClient.frame("chat", "soak/r0", "hello from " + name));
                }
            }));
            threads.add(loop(running, "redsyn-send", 50, () -> {
                RedsynClient.Reply r = c.post("/v1/messages", token, request("soak/general/joel/cli", "box", "soak " + redsynSent.get()));
                if (r.status() == 201) {
                    redsynSent.incrementAndGet();
                } else {
                    errors.incrementAndGet();
                }
            }));
            threads.add(loop(running, "redsyn-take", 0, () -> {
                List<String> ids = c.get("/v1/inbox/soak/general/joel/box?wait=5", token).items().stream()
                        .map(v -> v.asJsonObject().getString("id")).toList();
                if (!ids.isEmpty()) {
                    c.post("/v1/inbox/soak/general/joel/box/ack", token, obj("ids", ids));
                    redsynTaken.addAndGet(ids.size());
                }
            }));

            List<Long> samples = new ArrayList<>();
            String baselineHistogram = "";
            String lastHistogram = "";
            long start = System.nanoTime();
            for (int minute = 1; minute <= minutes; minute++) {
                long due = start + TimeUnit.MINUTES.toNanos(minute);
                Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(due - System.nanoTime())));
                String histogram = jcmd(relay.hub.pid(), "GC.class_histogram");
                long used = histogramTotal(histogram);
                samples.add(used);
                if (minute == warmup) {
                    baselineHistogram = histogram;
                }
                lastHistogram = histogram;
                System.out.printf("SoakBench minute %d: heap after full GC %.1f MB; chats %d sent %d received, %d history, %d churn,"
                                + " REDSYN %d sent %d taken, %d errors%n", minute, used / 1048576.0, chats.get(), received.get(),
                        histories.get(), churns.get(), redsynSent.get(), redsynTaken.get(), errors.get());
            }
            running.set(false);
            for (Thread thread : threads) {
                thread.join(15_000);
            }
            clients.forEach(SynapseClient::close);

            List<Long> compared = samples.subList(warmup - 1, samples.size()); // minute `warmup` onwards
            long baseline = compared.get(0);
            long max = compared.stream().mapToLong(Long::longValue).max().orElse(0);
            long min = compared.stream().mapToLong(Long::longValue).min().orElse(0);
            String summary = String.format("SoakBench: %d min, samples from minute %d compared with minute %d's %.1f MB:"
                            + " min %.1f MB (%+.1f%%), max %.1f MB (%+.1f%%), tolerance %.0f%%; all samples (MB) %s",
                    minutes, warmup, warmup, baseline / 1048576.0, min / 1048576.0, 100.0 * (min - baseline) / baseline,
                    max / 1048576.0, 100.0 * (max - baseline) / baseline, tolerance * 100,
                    samples.stream().map(s -> String.format("%.1f", s / 1048576.0)).toList());
            System.out.println(summary);
            System.out.println("SoakBench: classes whose live bytes grew most from minute " + warmup + " to the end:");
            growth(baselineHistogram, lastHistogram).forEach(System.out::println);
            assertTrue(chats.get() > 0 && received.get() > 0 && histories.get() > 0 && churns.get() > 0
                    && redsynSent.get() > 0 && redsynTaken.get() > 0, "every kind of traffic ran: " + summary);
            assertTrue(max <= baseline * (1 + tolerance) && min >= baseline * (1 - tolerance), summary);
        } finally {
            relay.stop();
        }
    }

    /** One row of a class histogram: {@code num: instances bytes class}. */
    private static final Pattern HISTOGRAM_ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)", Pattern.MULTILINE);

    /** The 15 classes whose live bytes grew most between two histograms, as printable lines: what a leak would be. */
    static List<String> growth(String before, String after) {
        java.util.Map<String, long[]> rows = new java.util.HashMap<>();
        for (int side = 0; side < 2; side++) {
            Matcher m = HISTOGRAM_ROW.matcher(side == 0 ? before : after);
            while (m.find()) {
                long[] row = rows.computeIfAbsent(m.group(3), k -> new long[4]);
                row[side * 2] = Long.parseLong(m.group(1));
                row[side * 2 + 1] = Long.parseLong(m.group(2));
            }
        }
        return rows.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue()[3] - b.getValue()[1], a.getValue()[3] - a.getValue()[1]))
                .limit(15)
                .map(e -> String.format("  %+10d bytes %+8d instances  %s", e.getValue()[3] - e.getValue()[1],
                        e.getValue()[2] - e.getValue()[0], e.getKey()))
                .toList();
    }

    /**
     * Bytes of live objects in the hub JVM right after a full collection: {@code jcmd <pid> GC.class_histogram}
     * collects first and then counts in the same safepoint, so nothing the hub allocates in between is
     * counted (unlike {@code GC.run} followed by {@code GC.heap_info}, which also sees the young generation
     * refilled between the two commands).
     */
    static long heapAfterFullGc(long pid) throws Exception {
        return histogramTotal(jcmd(pid, "GC.class_histogram"));
    }

    private static long histogramTotal(String histogram) {
        Matcher m = HISTOGRAM_TOTAL.matcher(histogram);
        assertTrue(m.find(), "no Total line in the class histogram: "
                + histogram.substring(Math.max(0, histogram.length() - 500)));
        return Long.parseLong(m.group(1));
    }

    private static String jcmd(long pid, String command) throws Exception {
        Process process = new ProcessBuilder("jcmd", Long.toString(pid), command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS) && process.exitValue() == 0, "jcmd " + command + ": " + out);
        return out;
    }

    /** Runs {@code step} every {@code pauseMillis} until stopped; a failing step is counted, not fatal. */
    private Thread loop(AtomicBoolean running, String name, long pauseMillis, Step step) {
        Thread thread = new Thread(() -> {
            while (running.get()) {
                try {
                    step.run();
                } catch (Exception | AssertionError e) {
                    errors.incrementAndGet();
                }
                if (pauseMillis > 0) {
                    try {
                        Thread.sleep(pauseMillis);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }, "soak-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** One unit of load. */
    private interface Step {
        void run() throws Exception;
    }
}
