package org.switchboard.itests.redsyn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.request;

import jakarta.json.JsonArray;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Benchmark, not a test (its name does not match {@code *IT}): run it with
 * {@code mvn -B -o -pl war,itests verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=RedsynBench}.
 * Measures send → take → ack cycles per second against the packaged server with the embedded H2
 * database, and the server heap that 2,000 parked long polls cost. Knobs (system properties):
 * {@code bench.threads} (16), {@code bench.seconds} (20), {@code bench.warmup} (30 s), {@code bench.polls} (2000; 0 skips
 * the parked-poll part), {@code bench.jfr} (a file: record a JFR profile of the hub during the measured cycles),
 * {@code bench.history} (3000; 0 skips the history part: one agent's server CPU per cycle measured before and
 * after that many more of its messages are stored, which shows whether take and ack slow down as an inbox's
 * history grows), {@code bench.port} (drive a hub already running on this loopback port, started with
 * {@code REDSYN_ADMIN_TOKEN=test-admin-token-123}, instead of starting one). With the cycles it prints how
 * many statements the hub's relay writer committed together (from its {@code /metrics}). Results are
 * printed to the failsafe output ({@code itests/target/failsafe-reports/...RedsynBench-output.txt}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedsynBench {

    private static final int THREADS = Integer.getInteger("bench.threads", 16);
    private static final int SECONDS = Integer.getInteger("bench.seconds", 20);
    private static final int POLLS = Integer.getInteger("bench.polls", 2000);
    private static final int WARMUP = Integer.getInteger("bench.warmup", 30);
    private static final String JFR = System.getProperty("bench.jfr", "");
    private static final int PORT = Integer.getInteger("bench.port", 0);
    private static final int HISTORY = Integer.getInteger("bench.history", 3000);
    /** A fresh organisation per run, so that runs can share a hub. */
    private static final String ORG = "acme" + Long.toString(System.currentTimeMillis() % 100_000_000L, 36);

    private Relay relay;
    private RedsynClient client;
    private int port;
    private String token;

    @BeforeAll
    void start() {
        if (PORT > 0) {
            port = PORT;
            client = new RedsynClient("http://127.0.0.1:" + port + "/redsyn");
            String email = "bench" + System.currentTimeMillis() + "@acme.test";
            RedsynClient.Reply person = client.post("/admin/persons", Relay.ADMIN, obj("email", email, "plan", "enterprise"));
            assertEquals(201, person.status(), person.toString());
            RedsynClient.Reply node = client.post("/admin/persons/" + person.json().getJsonNumber("id").longValue() + "/nodes",
                    Relay.ADMIN, obj("name", "laptop"));
            assertEquals(201, node.status(), node.toString());
            token = node.json().getString("token");
        } else {
            // deep stacks: Payara's request path alone is deeper than JFR's default 64 frames
            relay = JFR.isEmpty() ? Relay.start("HUB_JAVA_OPTS", org.switchboard.itests.support.HubServer.BENCH_JVM)
                    : Relay.start("HUB_JAVA_OPTS", "-Xmx1g -XX:+UseParallelGC -XX:FlightRecorderOptions:stackdepth=256");
            client = relay.client;
            port = relay.hub.port();
            token = relay.personWithNode("bench@acme.test", "enterprise");
        }
        assertEquals(201, client.post("/v1/orgs", token, obj("handle", ORG, "me", "bench")).status());
    }

    @AfterAll
    void stop() {
        if (relay != null) {
            relay.stop();
        }
    }

    @Test
    void cyclesPerSecondAndParkedPollHeap() throws Exception {
        cycles();
        if (HISTORY > 0) {
            historyGrowth();
        }
        if (POLLS > 0) {
            parkedPolls();
        }
    }

    private void cycles() throws Exception {
        for (int t = 0; t < THREADS; t++) {
            assertEquals(201, client.put("/v1/agents/" + ORG + "/general/bench/w" + t, token, obj("listening", true)).status());
        }
        // the sending agent exists before the threads start (simultaneous first sends would race to create it: 409, retry)
        assertEquals(201, client.put("/v1/agents/" + ORG + "/general/bench/cli", token, obj("listening", false)).status());
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String base = "http://127.0.0.1:" + port + "/redsyn/v1";
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong cycles = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            String agent = ORG + "/general/bench/w" + t;
            Thread w = new Thread(() -> {
                while (running.get()) {
                    try {
                        int acked = oneCycle(http, base, agent);
                        if (acked == 0) {
                            failures.incrementAndGet();
                        } else if (measuring.get()) {
                            cycles.addAndGet(acked);
                        }
                    } catch (IOException | RuntimeException e) {
                        failures.incrementAndGet();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "bench-" + t);
            workers.add(w);
            w.start();
        }
        Thread.sleep(WARMUP * 1000L); // warm-up: the JIT needs it, all the more on a busy machine
        long pid = hubPid();
        if (!JFR.isEmpty()) {
            run("jcmd", Long.toString(pid), "JFR.start", "name=bench", "settings=profile", "filename=" + JFR);
        }
        long cpuBefore = cpuTicks(pid);
        long requestCpuBefore = requestThreadTicks(pid);
        long[] writerBefore = relayWriterCounters(http);
        measuring.set(true);
        long started = System.nanoTime();
        Thread.sleep(SECONDS * 1000L);
        measuring.set(false);
        double elapsed = (System.nanoTime() - started) / 1e9;
        double cpuSeconds = (cpuTicks(pid) - cpuBefore) / 100.0;
        double requestCpuSeconds = (requestThreadTicks(pid) - requestCpuBefore) / 100.0;
        long[] writerAfter = relayWriterCounters(http);
        if (!JFR.isEmpty()) {
            run("jcmd", Long.toString(pid), "JFR.stop", "name=bench");
        }
        running.set(false);
        for (Thread w : workers) {
            w.join(30_000);
        }
        System.out.printf("REDSYN bench: %d threads, %.1f s: %d send->take->ack cycles = %.0f cycles/s (failures %d); "
                        + "server CPU %.1f s = %.2f ms per cycle (request threads alone %.2f ms: without JIT, GC, timers); load average %s%n",
                THREADS, elapsed, cycles.get(), cycles.get() / elapsed, failures.get(), cpuSeconds,
                cycles.get() == 0 ? 0 : cpuSeconds * 1000 / cycles.get(),
                cycles.get() == 0 ? 0 : requestCpuSeconds * 1000 / cycles.get(), loadAverage());
        if (writerBefore != null && writerAfter != null) {
            long commits = writerAfter[0] - writerBefore[0];
            long updates = writerAfter[1] - writerBefore[1];
            System.out.printf("REDSYN relay writer: %d statements (requests' inserts, takes' leases, acks) in %d commits = %.1f per commit%n", updates, commits,
                    commits == 0 ? 0.0 : (double) updates / commits);
        } else {
            System.out.println("REDSYN relay writer: the hub's /metrics does not report it");
        }
    }

    /** The hub's relay writer counters {commits, statements} from {@code /metrics} (named inbox writer before 2026-12-06), or null. */
    private long[] relayWriterCounters(HttpClient http) throws IOException, InterruptedException {
        HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        long commits = -1;
        long updates = -1;
        for (String line : metrics.body().split("\n")) {
            if (line.startsWith("redsyn_relay_writer_commits_total ") || line.startsWith("redsyn_inbox_writer_commits_total ")) {
                commits = (long) Double.parseDouble(line.substring(line.indexOf(' ') + 1).trim());
            } else if (line.startsWith("redsyn_relay_writer_updates_total ") || line.startsWith("redsyn_inbox_writer_updates_total ")) {
                updates = (long) Double.parseDouble(line.substring(line.indexOf(' ') + 1).trim());
            }
        }
        return metrics.statusCode() != 200 || commits < 0 || updates < 0 ? null : new long[] {commits, updates};
    }

    /** One agent, one client: server CPU per cycle with a short history, then after {@code HISTORY} more cycles. */
    private void historyGrowth() throws Exception {
        String agent = ORG + "/general/bench/h";
        assertEquals(201, client.put("/v1/agents/" + agent, token, obj("listening", true)).status());
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String base = "http://127.0.0.1:" + port + "/redsyn/v1";
        long pid = hubPid();
        int sample = 300;
        for (int i = 0; i < sample; i++) { // unmeasured: the same warm-up the measured rounds get
            assertEquals(1, oneCycle(http, base, agent));
        }
        double[] msPerCycle = new double[2];
        for (int round = 0; round < 2; round++) {
            if (round == 1) {
                for (int i = 0; i < HISTORY; i++) {
                    assertEquals(1, oneCycle(http, base, agent));
                }
            }
            long before = cpuTicks(pid);
            for (int i = 0; i < sample; i++) {
                assertEquals(1, oneCycle(http, base, agent));
            }
            msPerCycle[round] = (cpuTicks(pid) - before) * 10.0 / sample;
        }
        System.out.printf("REDSYN history: one agent, sequential cycles: server CPU %.2f ms per cycle over its cycles 301-%d, "
                + "%.2f ms over cycles %d-%d; load average %s%n", msPerCycle[0], 2 * sample, msPerCycle[1], 2 * sample + HISTORY + 1,
                3 * sample + HISTORY, loadAverage());
    }

    /** Send one request to {@code agent}, take what waits and ack it; returns how many were acked (0: something failed). */
    private int oneCycle(HttpClient http, String base, String agent) throws IOException, InterruptedException {
        HttpResponse<String> sent = http.send(post(base + "/messages", request(ORG + "/general/bench/cli", agent, "ping").toString()),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> taken = http.send(HttpRequest.newBuilder(URI.create(base + "/inbox/" + agent))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
        JsonArray items = RedsynClient.parse(taken.body()).asJsonObject().getJsonArray("items");
        if (sent.statusCode() != 201 || items == null || items.isEmpty()) {
            return 0;
        }
        List<String> ids = items.stream().map(v -> v.asJsonObject().getString("id")).toList();
        HttpResponse<String> acked = http.send(post(base + "/inbox/" + agent + "/ack", obj("ids", ids).toString()),
                HttpResponse.BodyHandlers.ofString());
        return acked.statusCode() == 200 ? ids.size() : 0;
    }

    private HttpRequest post(String url, String json) {
        return HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)).build();
    }

    private void parkedPolls() throws Exception {
        int agents = 100;
        for (int a = 0; a < agents; a++) {
            client.put("/v1/agents/" + ORG + "/general/bench/p" + a, token, obj("listening", true));
        }
        long pid = hubPid();
        long before = usedHeapAfterGc(pid);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(30)).build();
        String base = "http://127.0.0.1:" + port + "/redsyn/v1";
        List<CompletableFuture<HttpResponse<String>>> polls = new ArrayList<>();
        CountDownLatch sentAll = new CountDownLatch(1);
        for (int i = 0; i < POLLS; i++) {
            HttpRequest r = HttpRequest.newBuilder(URI.create(base + "/inbox/" + ORG + "/general/bench/p" + (i % agents) + "?wait=25"))
                    .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + token).build();
            polls.add(http.sendAsync(r, HttpResponse.BodyHandlers.ofString()));
        }
        sentAll.countDown();
        Thread.sleep(10_000); // let them all park
        long done = polls.stream().filter(CompletableFuture::isDone).count();
        long during = usedHeapAfterGc(pid);
        System.out.printf("REDSYN bench: %d long polls sent, %d answered early; server heap after GC %d MB before, %d MB with them parked: %.1f MB for the parked polls (%.1f KB each)%n",
                POLLS, done, before >> 20, during >> 20, (during - before) / 1048576.0, (during - before) / 1024.0 / Math.max(1, POLLS - done));
        // wake a few: one message per agent answers its parked polls
        long woke = System.nanoTime();
        for (int a = 0; a < agents; a++) {
            client.post("/v1/messages", token, request(ORG + "/general/bench/cli", ORG + "/general/bench/p" + a, "wake"));
        }
        int answered = 0;
        for (CompletableFuture<HttpResponse<String>> f : polls) {
            try {
                HttpResponse<String> r = f.get(60, TimeUnit.SECONDS);
                if (r.statusCode() == 200) {
                    answered++;
                }
            } catch (Exception e) {
                // counted as unanswered
            }
        }
        System.out.printf("REDSYN bench: %d of %d polls answered 200 (woken or timed out) within %.1f s of the wake-up sends%n",
                answered, POLLS, (System.nanoTime() - woke) / 1e9);
    }

    /** The hub's JVM: the process whose command line names the hub's data directory (or its port). */
    private long hubPid() {
        String mark = relay != null ? relay.hub.dataDir().toAbsolutePath().toString() : "--port " + port + " ";
        Optional<ProcessHandle> java = ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains("payara-micro") && c.contains(mark)).orElse(false))
                .findFirst();
        return java.orElseThrow(() -> new IllegalStateException("hub JVM not found")).pid();
    }

    private static long usedHeapAfterGc(long pid) throws Exception {
        run("jcmd", Long.toString(pid), "GC.run");
        String info = run("jcmd", Long.toString(pid), "GC.heap_info");
        long used = 0;
        Pattern usedK = Pattern.compile("used (\\d+)K");
        for (String line : info.split("\n")) {
            // heap generations only (ParallelGC: PSYoungGen + ParOldGen; G1: garbage-first heap), not Metaspace
            if (line.contains("PSYoungGen") || line.contains("ParOldGen") || line.contains("garbage-first heap")) {
                Matcher m = usedK.matcher(line);
                if (m.find()) {
                    used += Long.parseLong(m.group(1)) * 1024;
                }
            }
        }
        return used;
    }

    /** User + system CPU of a process, in clock ticks (1/100 s on Linux). */
    private static long cpuTicks(long pid) throws IOException {
        String[] f = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + pid + "/stat")).split("\\) ")[1].split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** CPU of the hub's HTTP request threads ({@code http-thread-pool::...}, truncated by Linux to 15 characters). */
    private static long requestThreadTicks(long pid) throws IOException {
        long ticks = 0;
        try (var tasks = java.nio.file.Files.list(java.nio.file.Path.of("/proc/" + pid + "/task"))) {
            for (java.nio.file.Path task : tasks.toList()) {
                try {
                    String stat = java.nio.file.Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (name.startsWith("http-thread")) {
                        String[] f = stat.substring(stat.lastIndexOf(") ") + 2).split(" ");
                        ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    }
                } catch (IOException e) {
                    // the thread ended
                }
            }
        }
        return ticks;
    }

    private static String loadAverage() throws IOException {
        return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        return out;
    }
}
