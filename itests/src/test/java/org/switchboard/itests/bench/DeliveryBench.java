package org.switchboard.itests.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.Json;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.RawWebSocket;

/**
 * Load generator for session-bound delivery (wire v3) with the journal on. Not part of the default
 * run (the name does not end in IT); see src/site/markdown/benchmarks.md.
 *
 * <p>Phase 1, admissions: {@code bench.pairs} (16) sender/recipient pairs, each recipient with its own
 * session; every sender keeps 16 requests open (the §2.8 per-sender cap) and each recipient answers
 * every offer with {@code delivery_outcome rejected}, which frees the slot. An admission counts when
 * its sender has the {@code queued} status and its offer reached the recipient. Reports admissions
 * per second over {@code bench.requests} (60000) after {@code bench.warmup} (30000).
 *
 * <p>Phase 2, cycle latency: requests offered evenly paced at {@code bench.rate} per second in total
 * (0 = half the measured admission rate), the pairs' schedules spread over one interval ({@code bench.stagger}),
 * each taken through boundary → ack → outcome completed by its
 * recipient; latency counts from the request's scheduled send time to the sender's
 * {@code completed} notification. {@code bench.cycles} (20000) measured after {@code bench.warmup-cycles}
 * (60000) at the same rate, which compile the stage reports' code (the admissions do not run it), then more in chunks
 * of 10,000 while the hub's JIT compiler threads used more than {@code bench.jit-quiet} cores (0.05) over a chunk, up
 * to {@code bench.warmup-cycles-max} (200,000: every request stays in the hub's heap). Both result lines carry
 * the hub's CPU time per operation and the load average, because the machine is shared.
 * A "cycle legs" line splits the measured cycles into the sender's lateness and the four round trips
 * through the hub, as the load generator sees them ({@link Legs}).
 * {@code bench.jfr=/path.jfr} records a JFR profile ({@code bench.jfr-settings}, default {@code profile}) of the
 * measured admissions, {@code bench.jfr-cycles=/path.jfr} one of the measured cycles. {@code bench.hub-war=/path.war} starts the hub
 * on another build of the application (a before/after pair run back to back from one checkout);
 * {@code bench.hub-java-opts} replaces the hub's JVM options ({@code -Xmx1g -XX:+UseParallelGC});
 * {@code bench.hub-env=KEY=value,…} adds hub settings (for example {@code HUB_DELIVERY_TERMINAL_MAX=50000}).
 * The last line gives the hub's heap after a full collection and the terminal requests it holds: every
 * request of the run stays in memory unless a {@code HUB_DELIVERY_TERMINAL_*} key is set.
 */
class DeliveryBench {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final int WINDOW = 16;
    /** When each measured cycle finished (nanoTime), by the same index as its latency: the tail's place in time. */
    private static final Finished FINISHED = new Finished();
    /** Top classes of the hub's live heap printed after the memory line ({@code bench.histogram}, 0 = none). */
    private static final int HISTOGRAM = Integer.getInteger("bench.histogram", 0);
    private static final int WARMUP_CHUNK = 10_000;
    /**
     * Whether the pairs' paced schedules are spread over one interval ({@code bench.stagger}, default true) rather
     * than all starting together, which sent the pairs' requests as one burst of {@code bench.pairs} every interval.
     */
    private static final boolean STAGGER = Boolean.parseBoolean(System.getProperty("bench.stagger", "true"));

    @Test
    void admissionsPerSecondAndCycleLatency() throws Exception {
        int pairs = Integer.getInteger("bench.pairs", 16);
        int requests = Integer.getInteger("bench.requests", 60_000);
        int warmup = Integer.getInteger("bench.warmup", 30_000);
        int cycles = Integer.getInteger("bench.cycles", 20_000);
        double rate = Double.parseDouble(System.getProperty("bench.rate", "0"));
        int warmupCycles = Integer.getInteger("bench.warmup-cycles", 60_000);
        int warmupCyclesMax = Integer.getInteger("bench.warmup-cycles-max", 200_000);
        double jitQuiet = Double.parseDouble(System.getProperty("bench.jit-quiet", "0.05"));
        Map<String, String> hubEnv = new java.util.HashMap<>(Map.of("HUB_JAVA_OPTS",
                System.getProperty("bench.hub-java-opts", HubServer.BENCH_JVM)));
        String war = System.getProperty("bench.hub-war", "");
        if (!war.isEmpty()) {
            hubEnv.put("HUB_WAR", war);
        }
        HubProcess.withBenchHubEnv(hubEnv);
        try (HubServer hub = HubServer.start(hubEnv)) {
            awaitApplication(hub);
            List<Pair> all = new ArrayList<>();
            for (int p = 0; p < pairs; p++) {
                all.add(new Pair(hub.port(), p));
            }
            admissions(all, warmup / pairs, "warm-up");
            String jfr = System.getProperty("bench.jfr", "");
            if (!jfr.isEmpty()) {
                HubProcess.jcmd(hub.pid(), "JFR.start", "name=deliverybench", "settings=" + System.getProperty("bench.jfr-settings", "profile"), "filename=" + jfr);
            }
            long cpuBefore = HubProcess.cpuNanos(hub.pid());
            long clientBefore = HubProcess.cpuNanos(ProcessHandle.current().pid());
            JournalCounters journalBefore = JournalCounters.read(hub);
            String loadBefore = HubProcess.loadAverage();
            long elapsed = admissions(all, requests / pairs, "measured");
            long cpu = HubProcess.cpuNanos(hub.pid()) - cpuBefore;
            long clientCpu = HubProcess.cpuNanos(ProcessHandle.current().pid()) - clientBefore;
            String journal = JournalCounters.read(hub).since(journalBefore);
            if (!jfr.isEmpty()) {
                HubProcess.jcmd(hub.pid(), "JFR.stop", "name=deliverybench");
            }
            int admitted = (requests / pairs) * pairs;
            double perSecond = admitted / (elapsed / 1e9);
            System.out.printf("DeliveryBench admissions: %d pairs, %d admissions in %.2f s = %.0f admissions/s"
                    + " (each with a rejected outcome freeing its slot); hub CPU %.1f us/admission (%.2f cores); load %s -> %s%n",
                    pairs, admitted, elapsed / 1e9, perSecond, cpu / 1e3 / admitted, cpu / (double) elapsed, loadBefore, HubProcess.loadAverage());
            System.out.printf("DeliveryBench admissions: load generator CPU %.1f us/admission (%.2f cores); journal %s%n",
                    clientCpu / 1e3 / admitted, clientCpu / (double) elapsed, journal);

            double cycleRate = rate > 0 ? rate : perSecond / 2;
            // the stage reports of a cycle (boundary, ack, completed) are not in the admissions: warm them, then
            // go on in chunks while the JIT still compiles (it took ~3 minutes of load on a slow 2-core VM)
            cyclesRun(all, Math.max(1, warmupCycles / pairs), cycleRate, null);
            int warmed = warmupCycles;
            double compiling = Double.NaN;
            while (warmed < warmupCyclesMax) {
                var ticksBefore = HubProcess.threadTicks(hub.pid());
                long chunkStarted = System.nanoTime();
                cyclesRun(all, Math.max(1, WARMUP_CHUNK / pairs), cycleRate, null);
                warmed += WARMUP_CHUNK;
                compiling = HubProcess.compilerCores(ticksBefore, HubProcess.threadTicks(hub.pid()), System.nanoTime() - chunkStarted);
                if (compiling <= jitQuiet) {
                    break;
                }
            }
            System.out.printf("DeliveryBench warm-up: %d cycles; JIT compiler threads %.2f cores over the last %d%n",
                    warmed, compiling, WARMUP_CHUNK);
            long[] latencies = new long[(cycles / pairs) * pairs];
            String jfrCycles = System.getProperty("bench.jfr-cycles", "");
            if (!jfrCycles.isEmpty()) {
                HubProcess.jcmd(hub.pid(), "JFR.start", "name=deliverycycles", "settings=" + System.getProperty("bench.jfr-settings", "profile"), "filename=" + jfrCycles);
            }
            cpuBefore = HubProcess.cpuNanos(hub.pid());
            clientBefore = HubProcess.cpuNanos(ProcessHandle.current().pid());
            journalBefore = JournalCounters.read(hub);
            loadBefore = HubProcess.loadAverage();
            long cycleElapsed = cyclesRun(all, cycles / pairs, cycleRate, latencies);
            cpu = HubProcess.cpuNanos(hub.pid()) - cpuBefore;
            clientCpu = HubProcess.cpuNanos(ProcessHandle.current().pid()) - clientBefore;
            journal = JournalCounters.read(hub).since(journalBefore);
            if (!jfrCycles.isEmpty()) {
                HubProcess.jcmd(hub.pid(), "JFR.stop", "name=deliverycycles");
            }
            System.out.printf("DeliveryBench cycles: %d request->boundary->ack->outcome cycles offered at %.0f/s, done in %.2f s;"
                    + " request->completed %s; hub CPU %.1f us/cycle (%.2f cores); load %s -> %s%n",
                    latencies.length, cycleRate, cycleElapsed / 1e9, new Percentiles(latencies, latencies.length).summary(),
                    cpu / 1e3 / latencies.length, cpu / (double) cycleElapsed, loadBefore, HubProcess.loadAverage());
            // the generator shares the two cores: hub and generator together say how near saturation the run was
            System.out.printf("DeliveryBench cycles: load generator CPU %.1f us/cycle (%.2f cores); journal %s%n",
                    clientCpu / 1e3 / latencies.length, clientCpu / (double) cycleElapsed, journal);
            System.out.printf("DeliveryBench cycle legs (p50 / p99 ms): %s%n", Legs.summary(all));
            System.out.printf("DeliveryBench cycles over 20 ms by half second (count/worst ms): %s%n",
                    FINISHED.overByWindow(latencies, 20_000_000L, 500_000_000L));
            System.out.printf("DeliveryBench cycles: the first half second began at the hub's uptime %.2f s (counted from"
                            + " run-hub's start, a little before the JVM's), at %s (for GC logs decorated with time)%n",
                    FINISHED.hubUptimeAtFirst(latencies, hub.pid()), FINISHED.firstFinishedAt(latencies));
            System.out.printf("DeliveryBench memory: hub heap after full GC %.1f MB, terminal archive %.1f MB outside the heap;"
                            + " terminal requests held %.0f, forgotten %.0f%n",
                    SoakBench.heapAfterFullGc(hub.pid()) / 1e6, archiveBytes(hub) / 1e6,
                    hub.metric("synapse_delivery_terminal_held"), hub.metric("synapse_delivery_terminal_forgotten_total"));
            if (HISTOGRAM > 0) {
                // what the held requests cost: the top classes of the hub's live heap
                HubProcess.jcmdLines(hub.pid(), "GC.class_histogram").stream().limit(HISTOGRAM + 3L)
                        .forEach(line -> System.out.println("DeliveryBench histogram: " + line));
            }
            for (Pair pair : all) {
                assertEquals(0, pair.refusals.get(), "refusals seen by " + pair.sender);
                pair.close();
            }
        }
    }

    /** Closed loop: every sender keeps WINDOW requests open; returns the elapsed nanoseconds. */
    private static long admissions(List<Pair> pairs, int perPair, String label) throws Exception {
        long started = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (Pair pair : pairs) {
            pair.start(perPair, false, 0, null);
            Thread t = new Thread(() -> pair.sendAll(perPair, false, 0, null, 0), "bench-" + label + pair.index);
            threads.add(t);
            t.start();
        }
        for (Pair pair : pairs) {
            if (!pair.done.await(300, TimeUnit.SECONDS)) {
                throw new AssertionError(label + ": pair " + pair.index + " stalled at " + pair.admitted.get());
            }
        }
        for (Thread t : threads) {
            t.join();
        }
        return System.nanoTime() - started;
    }

    /** Paced full cycles at {@code rate} per second in total; returns the elapsed nanoseconds. */
    private static long cyclesRun(List<Pair> pairs, int perPair, double rate, long[] latencies) throws Exception {
        long started = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (Pair pair : pairs) {
            pair.start(perPair, true, pair.index * perPair, latencies);
            long interval = (long) (1e9 / (rate / pairs.size()));
            long first = started + (STAGGER ? interval * pair.index / pairs.size() : 0);
            Thread t = new Thread(() -> pair.sendAll(perPair, true, interval, latencies, first), "bench-cycle" + pair.index);
            threads.add(t);
            t.start();
        }
        for (Pair pair : pairs) {
            if (!pair.done.await(300, TimeUnit.SECONDS)) {
                throw new AssertionError("cycles: pair " + pair.index + " stalled");
            }
        }
        for (Thread t : threads) {
            t.join();
        }
        return System.nanoTime() - started;
    }

    /** One sender socket and one recipient socket with its own delivery session. */
    private static final class Pair {
        final int index;
        final String sender;
        final String recipient;
        final String incarnation;
        final RawWebSocket senderSocket;
        final RawWebSocket recipientSocket;
        final AtomicInteger refusals = new AtomicInteger();
        final Semaphore open = new Semaphore(WINDOW);
        final Map<String, Long> sentAt = new ConcurrentHashMap<>();
        final AtomicInteger admitted = new AtomicInteger();
        final AtomicInteger offered = new AtomicInteger();
        final AtomicLong sequence = new AtomicLong();
        volatile CountDownLatch done = new CountDownLatch(0);
        volatile int target;
        volatile boolean cycle;
        volatile int latencyBase;
        volatile long[] latencies;
        final AtomicInteger completed = new AtomicInteger();
        /** When each measured request left the sender, and when the recipient sent its latest report for it. */
        final Map<String, Long> sentActual = new ConcurrentHashMap<>();
        final Map<String, Long> reported = new ConcurrentHashMap<>();
        final Legs legs = new Legs();

        Pair(int port, int index) throws Exception {
            this.index = index;
            this.sender = "bench/ds" + index;
            this.recipient = "bench/dr" + index;
            String token = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(("bench-token-" + index + "-" + System.nanoTime()).getBytes(StandardCharsets.US_ASCII)));
            this.incarnation = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII)));
            recipientSocket = RawWebSocket.open(port, 0);
            recipientSocket.readTimeout(0);
            recipientSocket.sendText(Json.createObjectBuilder().add("type", "heartbeat").add("sender", recipient)
                    .add("target", "System").add("payload", "").add("protocol_version", 3).add("delivery_session_token", token)
                    .add("delivery_capabilities", Json.createObjectBuilder().add("follow_up", "native")).build().toString());
            senderSocket = RawWebSocket.open(port, 0);
            senderSocket.readTimeout(0);
            senderSocket.sendText(Json.createObjectBuilder().add("type", "heartbeat").add("sender", sender)
                    .add("target", "System").add("payload", "").add("protocol_version", 3).build().toString());
            awaitText(recipientSocket, "\"delivery_session\"");
            Thread r = new Thread(this::recipientLoop, "bench-recipient" + index);
            r.setDaemon(true);
            r.start();
            Thread s = new Thread(this::senderLoop, "bench-sender" + index);
            s.setDaemon(true);
            s.start();
        }

        void start(int count, boolean cycleMode, int base, long[] samples) {
            admitted.set(0);
            offered.set(0);
            completed.set(0);
            cycle = cycleMode;
            latencyBase = base;
            latencies = samples;
            legs.reset(samples == null ? 0 : count);
            target = count;
            done = new CountDownLatch(1);
        }

        void sendAll(int count, boolean paced, long interval, long[] samples, long started) {
            try {
                for (int i = 0; i < count; i++) {
                    long scheduled = paced ? started + i * interval : System.nanoTime();
                    if (paced) {
                        long wait = scheduled - System.nanoTime();
                        if (wait > 0) {
                            TimeUnit.NANOSECONDS.sleep(wait);
                        }
                    }
                    open.acquire();
                    String id = "rq-" + sequence.incrementAndGet();
                    sentAt.put(id, scheduled);
                    long sending = System.nanoTime();
                    if (paced && samples != null) {
                        sentActual.put(id, sending);
                        legs.add(Legs.PACING, sending - scheduled);
                    }
                    senderSocket.sendText("{\"type\":\"delivery_request\",\"sender\":\"" + sender + "\",\"target\":\"" + recipient
                            + "\",\"payload\":\"\",\"protocol_version\":3,\"request_id\":\"" + id + "\",\"idempotency_key\":\"" + id
                            + "\",\"target_incarnation\":\"" + incarnation + "\",\"mode\":\"follow_up\",\"task_id\":\"T\","
                            + "\"body\":\"bench body " + id + "\",\"deadline\":" + (System.currentTimeMillis() / 1000.0 + 3600) + "}");
                }
            } catch (IOException | InterruptedException e) {
                throw new AssertionError(e);
            }
        }

        private void senderLoop() {
            try {
                String text;
                while ((text = senderSocket.readText()) != null) {
                    if (text.contains("\"delivery_refused\"")) {
                        refusals.incrementAndGet();
                        continue;
                    }
                    if (!text.contains("\"delivery_status\"")) {
                        continue;
                    }
                    String stage = field(text, "stage");
                    boolean notification = text.contains("\"audience\":");
                    if (!notification && "queued".equals(stage)) {
                        admitted.incrementAndGet();
                        maybeDone();
                    } else if (notification && ("rejected".equals(stage) || "completed".equals(stage))) {
                        String requestId = field(text, "request_id");
                        Long at = sentAt.remove(requestId);
                        Long outcomeSent = reported.remove(requestId);
                        if (outcomeSent != null && latencies != null) {
                            legs.add(Legs.OUTCOME, System.nanoTime() - outcomeSent);
                        }
                        if ("completed".equals(stage) && at != null && latencies != null) {
                            int n = completed.getAndIncrement();
                            if (n < target) {
                                long now = System.nanoTime();
                                latencies[latencyBase + n] = now - at;
                                FINISHED.put(latencies, latencyBase + n, now);
                            }
                        } else if ("completed".equals(stage)) {
                            completed.incrementAndGet();
                        }
                        open.release();
                        maybeDone();
                    }
                }
            } catch (IOException e) {
                // socket closed at the end of the run
            }
        }

        private void maybeDone() {
            boolean finished = cycle ? completed.get() >= target : admitted.get() >= target && offered.get() >= target;
            if (finished) {
                done.countDown();
            }
        }

        private void recipientLoop() {
            try {
                String text;
                while ((text = recipientSocket.readText()) != null) {
                    boolean offer = text.contains("\"delivery_offer\"");
                    if (!offer && !text.contains("\"delivery_status\"") || text.contains("\"audience\":")) {
                        continue;
                    }
                    String key = field(text, "operation_key");
                    String rid = field(text, "request_id");
                    long now = System.nanoTime();
                    if (offer) {
                        offered.incrementAndGet();
                        if (cycle) {
                            Long sent = sentActual.remove(rid);
                            if (sent != null) {
                                legs.add(Legs.REQUEST, now - sent);
                            }
                            reportTimed("delivery_boundary", key, rid, "b", "\"boundary\":\"turn\"", null);
                        } else {
                            report("delivery_outcome", key, rid, "o", "\"reason_code\":\"bench\"", "rejected");
                        }
                        maybeDone();
                    } else if (cycle && "boundary_delivered".equals(field(text, "stage"))) {
                        leg(Legs.BOUNDARY, rid, now);
                        reportTimed("delivery_ack", key, rid, "a", "\"receipt_id\":\"r\"", null);
                    } else if (cycle && "acknowledged".equals(field(text, "stage"))) {
                        leg(Legs.ACK, rid, now);
                        reportTimed("delivery_outcome", key, rid, "c", "\"executor_ref\":\"x\",\"outcome_code\":\"ok\"", "completed");
                    }
                }
            } catch (IOException e) {
                // socket closed at the end of the run
            }
        }

        /** Counts the leg from the recipient's previous report of {@code rid} to the status now answering it. */
        private void leg(int leg, String rid, long now) {
            Long sent = reported.get(rid);
            if (sent != null && latencies != null) {
                legs.add(leg, now - sent);
            }
        }

        /** A report whose answer is timed (measured cycles only). */
        private void reportTimed(String type, String key, String rid, String mutation, String evidence, String stage) throws IOException {
            if (latencies != null) {
                reported.put(rid, System.nanoTime());
            }
            report(type, key, rid, mutation, evidence, stage);
        }

        private void report(String type, String key, String rid, String mutation, String evidence, String stage) throws IOException {
            recipientSocket.sendText("{\"type\":\"" + type + "\",\"sender\":\"" + recipient + "\",\"target\":\"System\",\"protocol_version\":3,"
                    + "\"operation_key\":\"" + key + "\",\"request_id\":\"" + rid + "\",\"task_id\":\"T\",\"mutation_id\":\"" + mutation
                    + "\",\"evidence\":{" + evidence + "}" + (stage == null ? "" : ",\"stage\":\"" + stage + "\"") + "}");
        }

        void close() throws IOException {
            senderSocket.close();
            recipientSocket.close();
        }
    }

    /** Completion times of the measured cycles, for the line that places the slow ones in time. */
    static final class Finished {
        private volatile long[] owner;
        private volatile long[] at;

        void put(long[] latencies, int index, long nanos) {
            if (owner != latencies) {
                synchronized (this) {
                    if (owner != latencies) {
                        at = new long[latencies.length];
                        owner = latencies; // written after at: a thread that sees the owner sees its array
                    }
                }
            }
            at[index] = nanos;
        }

        /** The hub process's age in seconds when the first measured cycle finished (within ~10 ms: the start is in clock ticks). */
        double hubUptimeAtFirst(long[] latencies, long pid) {
            long[] finished = owner == latencies ? at : null;
            long first = finished == null ? Long.MAX_VALUE : firstFinished(finished);
            java.util.Optional<java.time.Instant> started = ProcessHandle.of(pid).flatMap(h -> h.info().startInstant());
            if (first == Long.MAX_VALUE || started.isEmpty()) {
                return Double.NaN;
            }
            long firstWallMillis = System.currentTimeMillis() - (System.nanoTime() - first) / 1_000_000L;
            return (firstWallMillis - started.get().toEpochMilli()) / 1e3;
        }

        /** The wall-clock time the first measured cycle finished; null when none did. */
        java.time.Instant firstFinishedAt(long[] latencies) {
            long[] finished = owner == latencies ? at : null;
            long first = finished == null ? Long.MAX_VALUE : firstFinished(finished);
            return first == Long.MAX_VALUE ? null
                    : java.time.Instant.ofEpochMilli(System.currentTimeMillis() - (System.nanoTime() - first) / 1_000_000L);
        }

        /** The earliest completion time recorded (0 marks a cycle that did not finish); Long.MAX_VALUE when none. */
        private static long firstFinished(long[] finished) {
            long first = Long.MAX_VALUE;
            for (long f : finished) {
                if (f != 0) {
                    first = Math.min(first, f);
                }
            }
            return first;
        }

        /** For each window after the first finished cycle: how many took longer than {@code bound}, and the worst. */
        String overByWindow(long[] latencies, long bound, long window) {
            long[] finished = owner == latencies ? at : null;
            if (finished == null) {
                return "none";
            }
            long first = firstFinished(finished);
            if (first == Long.MAX_VALUE) {
                return "none";
            }
            long last = Long.MIN_VALUE;
            for (long f : finished) {
                if (f != 0) {
                    last = Math.max(last, f);
                }
            }
            int windows = (int) ((last - first) / window) + 1;
            int[] over = new int[windows];
            long[] worst = new long[windows];
            for (int i = 0; i < finished.length; i++) {
                if (finished[i] == 0) {
                    continue;
                }
                int w = (int) ((finished[i] - first) / window);
                worst[w] = Math.max(worst[w], latencies[i]);
                if (latencies[i] > bound) {
                    over[w]++;
                }
            }
            StringBuilder out = new StringBuilder();
            for (int w = 0; w < windows; w++) {
                out.append(w == 0 ? "" : " ").append(over[w]).append('/').append(Math.round(worst[w] / 1e6));
            }
            return out.toString();
        }
    }

    /**
     * A measured cycle cut into its legs as the load generator sees them: the sender's lateness against its
     * schedule, then each of the four hub round trips (request sent → offer at the recipient; boundary, ack
     * sent → the recipient's status; outcome sent → the sender's {@code completed} notification).
     */
    static final class Legs {
        static final int PACING = 0;
        static final int REQUEST = 1;
        static final int BOUNDARY = 2;
        static final int ACK = 3;
        static final int OUTCOME = 4;
        private static final String[] NAMES = {"sender late", "request->offer", "boundary->status", "ack->status",
                "outcome->completed"};
        private final long[][] samples = new long[NAMES.length][];
        private final AtomicInteger[] counts = new AtomicInteger[NAMES.length];

        Legs() {
            reset(0);
        }

        void reset(int capacity) {
            for (int i = 0; i < NAMES.length; i++) {
                samples[i] = new long[capacity];
                counts[i] = new AtomicInteger();
            }
        }

        void add(int leg, long nanos) {
            int n = counts[leg].getAndIncrement();
            if (n < samples[leg].length) {
                samples[leg][n] = nanos;
            }
        }

        /** "leg p50 / p99" for each leg, over every pair's samples. */
        static String summary(List<Pair> pairs) {
            StringBuilder out = new StringBuilder();
            for (int leg = 0; leg < NAMES.length; leg++) {
                long[] all = new long[pairs.stream().mapToInt(pair -> pair.legs.samples[0].length).sum()];
                int filled = 0;
                for (Pair pair : pairs) {
                    Legs own = pair.legs;
                    int n = Math.min(own.counts[leg].get(), own.samples[leg].length);
                    System.arraycopy(own.samples[leg], 0, all, filled, n);
                    filled += n;
                }
                Percentiles p = new Percentiles(all, filled);
                out.append(leg == 0 ? "" : "; ").append(NAMES[leg])
                        .append(String.format(" %.2f / %.2f", p.millis(50), p.millis(99)));
            }
            return out.toString();
        }
    }

    private static void awaitText(RawWebSocket socket, String marker) throws IOException {
        String text;
        while ((text = socket.readText()) != null) {
            if (text.contains(marker)) {
                return;
            }
        }
        throw new AssertionError("closed before " + marker);
    }

    /**
     * The string value of a top-level member found by text search: the hub's frames here carry plain
     * ASCII values without escapes, and parsing every frame as JSON cost the load generator as much CPU
     * as the hub spent serving it, on the same two cores.
     */
    static String field(String text, String name) {
        String marker = "\"" + name + "\":\"";
        int at = text.indexOf(marker);
        if (at < 0) {
            return null;
        }
        int start = at + marker.length();
        return text.substring(start, text.indexOf('"', start));
    }

    private static void awaitApplication(HubServer hub) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            int status = HTTP.send(HttpRequest.newBuilder(hub.http("/health")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
            if (status == 200) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("hub application not started");
    }




    /** The terminal archive's bytes outside the heap; NaN from a build without that metric (an older build of a pair). */
    private static double archiveBytes(HubServer hub) throws IOException, InterruptedException {
        try {
            return hub.metric("synapse_delivery_terminal_archive_bytes");
        } catch (AssertionError olderBuild) {
            return Double.NaN;
        }
    }
}
