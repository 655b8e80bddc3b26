package org.switchboard.itests.bench;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Benchmark, not a test (the name matches no surefire or failsafe pattern; run it with
 * {@code -Dit.test=ClaimBench}): claim + release round trips over WebSocket against the packaged
 * hub with its H2 journal on (write-through commits). {@code bench.clients} sockets each keep
 * {@code bench.window} disjoint tasks cycling: claim, wait for the own {@code claim_granted}, release,
 * wait for the own {@code release_granted}, repeat. Every grant and release is broadcast to every
 * socket, as in production. Prints completed pairs per second over the measured period.
 */
class ClaimBench {

    private static final int CLIENTS = Integer.getInteger("bench.clients", 4);
    private static final int WINDOW = Integer.getInteger("bench.window", 8);
    private static final int WARMUP_SECONDS = Integer.getInteger("bench.warmup", 10);
    private static final int SECONDS = Integer.getInteger("bench.seconds", 20);

    @Test
    void claimReleasePairsPerSecond() throws Exception {
        Path db = Path.of(System.getProperty("hub.workDir", "target/hubs"))
                .resolve("claim-bench-db-" + ProcessHandle.current().pid()).toAbsolutePath();
        try (HubServer hub = HubServer.start(Map.of("HUB_DB_URL",
                "jdbc:h2:file:" + db + "/switchboard;DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0"))) {
            awaitReady(hub);
            LongAdder pairs = new LongAdder();
            long warmEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(WARMUP_SECONDS);
            long end = warmEnd + TimeUnit.SECONDS.toNanos(SECONDS);
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            List<Future<Long>> results = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                int n = i;
                results.add(pool.submit(() -> drive(hub, "bench/c" + n, warmEnd, end, pairs)));
            }
            long total = 0;
            for (Future<Long> f : results) {
                total += f.get(5, TimeUnit.MINUTES);
            }
            pool.shutdown();
            System.out.printf("ClaimBench: %d clients x window %d: %d claim+release pairs in %d s = %.0f pairs/s%n",
                    CLIENTS, WINDOW, total, SECONDS, total / (double) SECONDS);
        }
    }

    /** One client's loop; returns the pairs completed inside the measured period. */
    private static long drive(HubServer hub, String me, long warmEnd, long end, LongAdder pairs) {
        long measured = 0;
        try (SynapseClient c = SynapseClient.register(hub.webSocketUri(), me)) {
            for (int t = 0; t < WINDOW; t++) {
                c.send(claim(me, t));
            }
            int inFlight = WINDOW;
            while (inFlight > 0) {
                JsonObject frame = c.next(Duration.ofSeconds(30));
                String type = frame.getString("type", "");
                if (!me.equals(frame.getString("owner", ""))) {
                    continue;
                }
                String taskId = frame.getString("task_id", "");
                if ("claim_granted".equals(type)) {
                    c.send(Json.createObjectBuilder().add("type", "release").add("target", "System")
                            .add("task_id", taskId).build());
                } else if ("release_granted".equals(type)) {
                    long now = System.nanoTime();
                    if (now > warmEnd && now <= end) {
                        measured++;
                        pairs.increment();
                    }
                    if (now <= end) {
                        c.send(claim(me, Integer.parseInt(taskId.substring(taskId.lastIndexOf('-') + 1))));
                    } else {
                        inFlight--;
                    }
                }
            }
        }
        return measured;
    }

    private static JsonObject claim(String me, int t) {
        String taskId = me.replace('/', '_') + "-" + t;
        return Json.createObjectBuilder().add("type", "claim").add("target", "System").add("task_id", taskId)
                .add("paths", Json.createArrayBuilder().add("bench/" + taskId)).add("ttl_seconds", 600).build();
    }

    private static void awaitReady(HubServer hub) throws Exception {
        var http = java.net.http.HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            try {
                if (http.send(java.net.http.HttpRequest.newBuilder(hub.http("/health")).build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException e) {
                // not up yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("hub not ready; see " + hub.logFile());
    }
}
