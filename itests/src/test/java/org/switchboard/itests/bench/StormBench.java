package org.switchboard.itests.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;

/**
 * Benchmark, not a test (run it with {@code -Dit.test=StormBench}): a connection storm on the packaged
 * hub. In each of {@code bench.rounds} (8) rounds, {@code bench.sockets} (500) sockets connect and
 * register at once ({@code bench.threads} (16) connecting threads); every registration's
 * {@code presence_update} goes to every socket bound at that moment. A round ends when every socket
 * has received its own {@code joined} presence and the presence frames stopped coming; it prints
 * connections per second (sockets / time until the last own {@code joined}), the presence frames
 * delivered and the hub's CPU time per presence frame (issue 20: at most 5 µs, and at least 5× the
 * reference's 139–157 connections/s), with the load average. Between rounds all sockets close (their
 * {@code left} presences are not measured); the early rounds are the warm-up. After the last round its
 * sockets stay, {@code bench.idle} (5000) sockets in all are held open (the rest upgraded, not
 * registered: registering 5,000 would send ~N³/3 roster entries) and the hub's heap after a full
 * collection is printed against the same figure taken before the last round; the benchmark's hub gets a
 * registration deadline of {@code bench.auth-timeout} (3600) seconds so the unregistered ones stay
 * (a hub driven through {@code bench.port} needs {@code HUB_AUTH_TIMEOUT_SECONDS} set likewise). {@code bench.jfr=/path.jfr}
 * records a JFR profile of the last round ({@code bench.jfr-rounds=N}: of the last N rounds, with the closes between
 * them); {@code bench.hub-war=/path/switchboard.war} starts another build;
 * {@code bench.hub-env=KEY=value,…} adds hub settings.
 */
class StormBench {

    private static final int ROUNDS = Integer.getInteger("bench.rounds", 8);
    private static final int SOCKETS = Integer.getInteger("bench.sockets", 500);
    private static final int THREADS = Integer.getInteger("bench.threads", 16);
    private static final int IDLE = Integer.getInteger("bench.idle", 5000);
    private static final String JFR = System.getProperty("bench.jfr", "");
    /** How many of the last rounds the JFR recording spans ({@code bench.jfr-rounds}, 1): one warm round has too few samples. */
    private static final int JFR_ROUNDS = Math.max(1, Integer.getInteger("bench.jfr-rounds", 1));
    /** Top classes of the hub's heap printed with the idle figure ({@code bench.histogram}, 0 = none). */
    private static final int HISTOGRAM = Integer.getInteger("bench.histogram", 0);
    /** Port of an already running hub to drive instead of starting one ({@code bench.pid}: its JVM, for the CPU figure). */
    private static final int EXTERNAL_PORT = Integer.getInteger("bench.port", 0);

    @Test
    void connectionStorm() throws Exception {
        if (EXTERNAL_PORT > 0) {
            main(new String[0]);
            return;
        }
        Path db = Path.of(System.getProperty("hub.workDir", "target/hubs"))
                .resolve("storm-bench-db-" + ProcessHandle.current().pid()).toAbsolutePath();
        Map<String, String> env = new HashMap<>();
        env.put("HUB_DB_URL", "jdbc:h2:file:" + db + "/switchboard;DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0");
        env.put("HUB_MAX_CLIENTS", Integer.toString(Math.max(IDLE, SOCKETS) + 100));
        env.put("HUB_MAX_CLIENTS_PER_HOST", "0");
        // the idle sockets never register: without this the 10 s registration deadline (4012) closes them
        env.put("HUB_AUTH_TIMEOUT_SECONDS", System.getProperty("bench.auth-timeout", "3600"));
        env.put("HUB_JAVA_OPTS", System.getProperty("bench.hub-java-opts", HubServer.BENCH_JVM));
        // another build of the application (e.g. the "before" of a back-to-back comparison); named switchboard.war
        String war = System.getProperty("bench.hub-war", "");
        if (!war.isEmpty()) {
            env.put("HUB_WAR", war);
        }
        HubProcess.withBenchHubEnv(env);
        try (HubServer hub = HubServer.start(env)) {
            run(hub.pid(), hub.port());
        }
    }

    /**
     * Drives a hub already running (started with {@code HUB_MAX_CLIENTS} above the sockets used and
     * {@code HUB_MAX_CLIENTS_PER_HOST=0}), without Maven: {@code java -cp <itests test classpath>
     * -Dbench.port=N -Dbench.pid=P org.switchboard.itests.bench.StormBench}.
     */
    public static void main(String[] args) throws Exception {
        if (EXTERNAL_PORT <= 0) {
            throw new IllegalArgumentException("set -Dbench.port (and -Dbench.pid for the CPU figure)");
        }
        long pid = Long.getLong("bench.pid", 0L);
        run(pid, EXTERNAL_PORT);
    }

    private static void run(long pid, int port) throws Exception {
        ExecutorService connectors = Executors.newFixedThreadPool(THREADS);
        try (LeanSockets sockets = new LeanSockets(port)) {
            long heapBefore = 0;
            for (int round = 1; round <= ROUNDS; round++) {
                boolean last = round == ROUNDS;
                if (last) {
                    heapBefore = heap(pid);
                }
                if (round == Math.max(1, ROUNDS - JFR_ROUNDS + 1) && !JFR.isEmpty()) {
                    HubProcess.jcmd(pid, "JFR.start", "name=storm", "settings=profile", "filename=" + JFR);
                }
                storm(round, pid, port, sockets, connectors);
                if (last && !JFR.isEmpty()) {
                    HubProcess.jcmd(pid, "JFR.stop", "name=storm");
                }
                if (!last) {
                    sockets.closeAll();
                    quiet(sockets, 2000);
                }
            }
            idle(pid, sockets, connectors, heapBefore);
        } finally {
            connectors.shutdownNow();
        }
    }

    private static void storm(int round, long pid, int port, LeanSockets sockets, ExecutorService connectors) throws Exception {
        CountDownLatch joined = new CountDownLatch(SOCKETS);
        LeanSockets.Listener listener = new LeanSockets.Listener() {
            @Override
            public void joined(LeanSockets.Client client) {
                joined.countDown();
            }
        };
        String load = HubProcess.loadAverage();
        long presencesAtStart = sockets.presences.get();
        double[] coalescedAtStart = coalesced(port);
        long cpuAtStart = HubProcess.cpuNanos(pid);
        long start = System.nanoTime();
        List<Future<?>> work = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int first = t;
            work.add(connectors.submit(() -> {
                for (int i = first; i < SOCKETS; i += THREADS) {
                    sockets.register(sockets.open(String.format("storm/r%d-%05d", round, i), listener));
                }
                return null;
            }));
        }
        for (Future<?> f : work) {
            f.get(300, TimeUnit.SECONDS);
        }
        if (!joined.await(300, TimeUnit.SECONDS)) {
            throw new AssertionError(joined.getCount() + " sockets never saw their own joined presence");
        }
        long allJoined = System.nanoTime();
        quiet(sockets, 500);
        long cpu = HubProcess.cpuNanos(pid) - cpuAtStart;
        long presences = sockets.presences.get() - presencesAtStart;
        double[] coalesced = coalesced(port);
        double seconds = (allJoined - start) / 1e9;
        System.out.printf("StormBench round %d: %d sockets connected and registered in %.2f s = %.0f connections/s;"
                        + " %d presence frames delivered (%.0f per registration); hub CPU %.2f us per presence frame"
                        + " (%.0f us per connection); broadcast UTF-8 %.1f MB encoded, %.1f MB reused; %.2f frames per coalesced"
                        + " write; closed by the hub %d;"
                        + " load %s -> %s%n",
                round, SOCKETS, seconds, SOCKETS / seconds, presences, presences / (double) SOCKETS,
                cpu / 1000.0 / Math.max(1, presences), cpu / 1000.0 / SOCKETS, (coalesced[0] - coalescedAtStart[0]) / 1e6,
                (coalesced[1] - coalescedAtStart[1]) / 1e6, (coalesced[3] - coalescedAtStart[3]) / (coalesced[2] - coalescedAtStart[2]), sockets.closed.get(),
                load, HubProcess.loadAverage());
    }

    /** A metric's value, NaN when the hub's build has no such metric (an earlier one through bench.hub-war). */
    private static double optional(String metrics, String name) {
        return metrics.contains("\n" + name + " ") ? HubServer.metricValue(metrics, name) : Double.NaN;
    }

    /**
     * The hub's coalesced writes so far: UTF-8 bytes encoded, bytes reused from another socket's encoding,
     * writes, frames written.
     */
    private static double[] coalesced(int port) throws Exception {
        String metrics = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        return new double[] {optional(metrics, "synapse_coalesced_encoded_bytes_total"),
                optional(metrics, "synapse_coalesced_reused_bytes_total"),
                optional(metrics, "synapse_coalesced_writes_total"),
                optional(metrics, "synapse_coalesced_frames_total")};
    }

    /** Holds {@link #IDLE} sockets open (the last round's registered ones plus upgraded, unregistered ones). */
    private static void idle(long pid, LeanSockets sockets, ExecutorService connectors, long heapBefore) throws Exception {
        int more = Math.max(0, IDLE - sockets.size());
        LeanSockets.Listener nothing = new LeanSockets.Listener() {
        };
        List<Future<?>> work = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int first = t;
            work.add(connectors.submit(() -> {
                for (int i = first; i < more; i += THREADS) {
                    sockets.open("idle/" + i, nothing);
                }
                return null;
            }));
        }
        for (Future<?> f : work) {
            f.get(600, TimeUnit.SECONDS);
        }
        Thread.sleep(5000);
        long heap = heap(pid);
        System.out.printf("StormBench idle: %d sockets open (%d registered), hub heap after full GC %.1f MB"
                        + " (%.1f MB before the last round's %d sockets; %.1f KB per socket); closed by the hub %d; load %s%n",
                sockets.size(), SOCKETS, heap / 1e6, heapBefore / 1e6, SOCKETS,
                (heap - heapBefore) / 1e3 / Math.max(1, sockets.size()), sockets.closed.get(), HubProcess.loadAverage());
        if (HISTOGRAM > 0 && pid > 0) {
            // what the idle sockets hold: the top classes of the hub's live heap
            HubProcess.jcmdLines(pid, "GC.class_histogram").stream().limit(HISTOGRAM + 3L)
                    .forEach(line -> System.out.println("StormBench idle histogram: " + line));
        }
    }

    /** The hub's heap after a full collection, or -1 (printed as such) when jcmd could not attach. */
    private static long heap(long pid) {
        try {
            return SoakBench.heapAfterFullGc(pid);
        } catch (Exception | AssertionError e) {
            System.out.println("StormBench: no heap figure (" + e.getMessage() + ")");
            return -1;
        }
    }

    /** Waits until no presence frame arrived for {@code millis}. */
    private static void quiet(LeanSockets sockets, long millis) throws InterruptedException {
        long seen = -1;
        while (seen != sockets.presences.get()) {
            seen = sockets.presences.get();
            Thread.sleep(millis);
        }
    }
}
