package org.switchboard.itests.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;

/**
 * Benchmark, not a test (run it with {@code -Dit.test=FanoutBench}): one sender broadcasts chats
 * ({@code target: "all"}) to N registered receivers on the packaged hub with its H2 journal on, and
 * every delivered chat frame is counted at the receivers (the sender's own copy included, as the hub
 * sends it one). The sender keeps at most {@code bench.window} broadcasts in flight, counted by its own
 * copies coming back. For each N in {@code bench.receivers} (50,500) in turn (more sockets are registered
 * between the phases) it warms up for {@code bench.warmup} seconds, measures {@code bench.seconds}
 * seconds and prints delivered frames per second and the hub's CPU time per delivered frame (issue 20's
 * target: at most 3 µs) with the load average. The sockets are {@link LeanSockets} (one reader thread),
 * so the client leaves the machine's cores to the hub. {@code bench.jfr=/path.jfr} records a JFR profile
 * of the last phase's measured period; {@code bench.hub-java-opts} replaces the hub's JVM options;
 * {@code bench.hub-war=/path/switchboard.war} starts another build.
 */
class FanoutBench {

    private static final List<Integer> RECEIVERS = Arrays.stream(System.getProperty("bench.receivers", "50,500").split(","))
            .map(String::trim).map(Integer::parseInt).toList();
    private static final int WINDOW = Integer.getInteger("bench.window", 16);
    private static final int WARMUP_SECONDS = Integer.getInteger("bench.warmup", 60);
    private static final int SECONDS = Integer.getInteger("bench.seconds", 30);
    private static final String JFR = System.getProperty("bench.jfr", "");
    /** Port of an already running hub to drive instead of starting one ({@code bench.pid}: its JVM, for the CPU figure). */
    private static final int EXTERNAL_PORT = Integer.getInteger("bench.port", 0);
    private static final String PAYLOAD = "fan-out bench payload: a short status line of about eighty characters...";

    @Test
    void broadcastFanOut() throws Exception {
        if (EXTERNAL_PORT > 0) {
            main(new String[0]);
            return;
        }
        Path db = Path.of(System.getProperty("hub.workDir", "target/hubs"))
                .resolve("fanout-bench-db-" + ProcessHandle.current().pid()).toAbsolutePath();
        Map<String, String> env = new HashMap<>();
        env.put("HUB_DB_URL", "jdbc:h2:file:" + db + "/switchboard;DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0");
        env.put("HUB_MAX_CLIENTS", "10000");
        env.put("HUB_MAX_CLIENTS_PER_HOST", "0");
        env.put("HUB_JAVA_OPTS", System.getProperty("bench.hub-java-opts", HubServer.BENCH_JVM));
        // another build of the application (e.g. the "before" of a back-to-back comparison); named switchboard.war
        String war = System.getProperty("bench.hub-war", "");
        if (!war.isEmpty()) {
            env.put("HUB_WAR", war);
        }
        try (HubServer hub = HubServer.start(env); LeanSockets sockets = new LeanSockets(hub.port())) {
            run(hub.pid(), sockets);
        }
    }

    /**
     * Drives a hub already running (started with {@code HUB_MAX_CLIENTS} above the sockets used and
     * {@code HUB_MAX_CLIENTS_PER_HOST=0}), without Maven: {@code java -cp <itests test classpath>
     * -Dbench.port=N -Dbench.pid=P org.switchboard.itests.bench.FanoutBench}.
     */
    public static void main(String[] args) throws Exception {
        if (EXTERNAL_PORT <= 0) {
            throw new IllegalArgumentException("set -Dbench.port (and -Dbench.pid for the CPU figure)");
        }
        long pid = Long.getLong("bench.pid", 0L);
        try (LeanSockets sockets = new LeanSockets(EXTERNAL_PORT)) {
            run(pid, sockets);
        }
    }

    private static void run(long pid, LeanSockets sockets) throws Exception {
        Semaphore window = new Semaphore(WINDOW);
        CountDownLatch[] joined = {new CountDownLatch(1)};
        LeanSockets.Listener receiver = new LeanSockets.Listener() {
            @Override
            public void joined(LeanSockets.Client client) {
                joined[0].countDown();
            }
        };
        LeanSockets.Client sender = sockets.open("fan/sender", new LeanSockets.Listener() {
            @Override
            public void chat(LeanSockets.Client client) {
                window.release();
            }

            @Override
            public void joined(LeanSockets.Client client) {
                joined[0].countDown();
            }
        });
        sockets.register(sender);
        await(joined[0], "the sender's registration");
        int registered = 0;
        String chat = "{\"type\":\"chat\",\"sender\":\"fan/sender\",\"target\":\"all\",\"payload\":\"" + PAYLOAD + "\"}";
        for (int phase = 0; phase < RECEIVERS.size(); phase++) {
            int n = RECEIVERS.get(phase);
            joined[0] = new CountDownLatch(n - registered);
            for (int i = registered; i < n; i++) {
                // registered at once: the hub may close a socket that stays unregistered while others storm in
                sockets.register(sockets.open(String.format("fan/r%05d", i), receiver));
            }
            await(joined[0], n + " receivers' registrations");
            registered = n;
            Thread.sleep(1000); // let the presence frames of the registrations drain
            boolean last = phase == RECEIVERS.size() - 1;
            if (last && !JFR.isEmpty()) {
                HubProcess.jcmd(pid, "JFR.start", "name=fanout", "settings=profile",
                        "delay=" + WARMUP_SECONDS + "s", "duration=" + SECONDS + "s", "filename=" + JFR);
            }
            long warmEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(WARMUP_SECONDS);
            long end = warmEnd + TimeUnit.SECONDS.toNanos(SECONDS);
            AtomicLong sent = new AtomicLong();
            long chatsAtStart = -1;
            long cpuAtStart = 0;
            long sentAtStart = 0;
            String loadBefore = "";
            while (System.nanoTime() < end) {
                if (!window.tryAcquire(10, TimeUnit.SECONDS)) {
                    throw new AssertionError("no broadcast came back to the sender within 10 s");
                }
                if (chatsAtStart < 0 && System.nanoTime() >= warmEnd) {
                    chatsAtStart = sockets.chats.get();
                    cpuAtStart = HubProcess.cpuNanos(pid);
                    sentAtStart = sent.get();
                    loadBefore = HubProcess.loadAverage();
                }
                sockets.send(sender, chat);
                sent.incrementAndGet();
            }
            long chats = sockets.chats.get() - chatsAtStart;
            long cpu = HubProcess.cpuNanos(pid) - cpuAtStart;
            long broadcasts = sent.get() - sentAtStart;
            System.out.printf("FanoutBench 1->%d (+ the sender's own copy), window %d, %d s: %d broadcasts, %d delivered frames"
                            + " = %.0f frames/s (%.0f broadcasts/s); hub CPU %.2f us per delivered frame (%.1f us per broadcast);"
                            + " closed sockets %d; load %s -> %s%n",
                    n, WINDOW, SECONDS, broadcasts, chats, chats / (double) SECONDS, broadcasts / (double) SECONDS,
                    cpu / 1000.0 / Math.max(1, chats), cpu / 1000.0 / Math.max(1, broadcasts), sockets.closed.get(),
                    loadBefore, HubProcess.loadAverage());
            // let the window drain before the next phase registers more sockets
            if (!window.tryAcquire(WINDOW, 60, TimeUnit.SECONDS)) {
                throw new AssertionError("broadcasts still in flight 60 s after the phase");
            }
            window.release(WINDOW);
        }
    }

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        if (!latch.await(300, TimeUnit.SECONDS)) {
            throw new AssertionError(what + " not confirmed within 300 s (" + latch.getCount() + " missing)");
        }
    }
}
