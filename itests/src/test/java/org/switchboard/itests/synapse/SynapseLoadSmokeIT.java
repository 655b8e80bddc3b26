package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;

/**
 * Opt-in load smoke ({@code -Dsynapse.load=true}): sender/receiver pairs exchange directed chats
 * through a journal-backed hub; asserts every message arrives exactly once and in order per sender,
 * and prints throughput and latency percentiles. Not a benchmark of record (shared CI cores).
 */
class SynapseLoadSmokeIT {

    @Test
    void directedChatUnderLoadArrivesCompleteAndInOrder() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("synapse.load"), "opt-in: -Dsynapse.load=true");
        int pairs = Integer.getInteger("synapse.load.pairs", 10);
        int perSender = Integer.getInteger("synapse.load.messages", 2000);
        java.util.Map<String, String> env = HubServer.env("HUB_PRIVATE_DIRECTED_MESSAGES", "true");
        String javaOpts = System.getProperty("synapse.load.javaOpts");
        if (javaOpts != null) {
            env.put("HUB_JAVA_OPTS", javaOpts); // e.g. a JFR recording of the hub under load
        }
        try (HubServer hub = HubServer.start(env)) {
            HttpClient http = HttpClient.newHttpClient();
            CountDownLatch done = new CountDownLatch(pairs);
            long[][] latencies = new long[pairs][perSender];
            AtomicInteger disorder = new AtomicInteger();
            List<WebSocket> senders = new ArrayList<>();
            List<WebSocket> receivers = new ArrayList<>();
            for (int p = 0; p < pairs; p++) {
                int pair = p;
                CountDownLatch registered = new CountDownLatch(1);
                WebSocket receiver = http.newWebSocketBuilder().buildAsync(hub.webSocketUri(), new WebSocket.Listener() {
                    final StringBuilder partial = new StringBuilder();
                    int next;

                    @Override
                    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                        partial.append(data);
                        if (last) {
                            String text = partial.toString();
                            partial.setLength(0);
                            if (text.contains("\"presence_update\"") && text.contains("\"agent\":\"load/r" + pair + "\"")) {
                                registered.countDown();
                            }
                            int marker = text.indexOf("\"payload\":\"m:");
                            if (marker >= 0 && text.contains("\"type\":\"chat\"")) {
                                String[] fields = text.substring(marker + 13, text.indexOf('"', marker + 13)).split(":");
                                int index = Integer.parseInt(fields[0]);
                                if (index != next) {
                                    disorder.incrementAndGet();
                                }
                                next = index + 1;
                                latencies[pair][index] = System.nanoTime() - Long.parseLong(fields[1]);
                                if (next == perSender) {
                                    done.countDown();
                                }
                            }
                        }
                        ws.request(1);
                        return null;
                    }
                }).join();
                receiver.sendText("{\"type\":\"heartbeat\",\"sender\":\"load/r" + pair + "\",\"target\":\"System\",\"payload\":\"online\"}", true).join();
                registered.await(30, TimeUnit.SECONDS);
                receivers.add(receiver);
                WebSocket sender = http.newWebSocketBuilder().buildAsync(hub.webSocketUri(), new WebSocket.Listener() {
                }).join();
                sender.sendText("{\"type\":\"heartbeat\",\"sender\":\"load/s" + pair + "\",\"target\":\"System\",\"payload\":\"online\"}", true).join();
                senders.add(sender);
            }
            Thread.sleep(1000);
            long start = System.nanoTime();
            List<CompletableFuture<?>> sending = new ArrayList<>();
            for (int p = 0; p < pairs; p++) {
                int pair = p;
                sending.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < perSender; i++) {
                        senders.get(pair).sendText("{\"type\":\"chat\",\"sender\":\"load/s" + pair + "\",\"target\":\"load/r" + pair
                                + "\",\"payload\":\"m:" + i + ":" + System.nanoTime() + "\"}", true).join();
                    }
                }));
            }
            CompletableFuture.allOf(sending.toArray(CompletableFuture[]::new)).join();
            boolean complete = done.await(120, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - start) / 1e9;
            long[] all = Arrays.stream(latencies).flatMapToLong(Arrays::stream).filter(v -> v > 0).sorted().toArray();
            System.out.printf("SYNAPSE load smoke: %d msgs in %.2f s = %.0f msgs/s; latency p50 %.1f ms, p99 %.1f ms%n",
                    (long) pairs * perSender, seconds, pairs * perSender / seconds,
                    all.length == 0 ? 0 : all[all.length / 2] / 1e6, all.length == 0 ? 0 : all[(int) (all.length * 0.99)] / 1e6);
            assertEquals(true, complete, "every receiver got every message");
            assertEquals(0, disorder.get(), "per-sender order preserved");
            for (WebSocket ws : senders) {
                ws.abort();
            }
            for (WebSocket ws : receivers) {
                ws.abort();
            }
        }
    }
}
