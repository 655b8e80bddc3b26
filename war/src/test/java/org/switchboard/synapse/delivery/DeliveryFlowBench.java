package org.switchboard.synapse.delivery;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CompletableFuture;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.Peer;
import org.switchboard.synapse.TestHub;

/**
 * Benchmark {@code main}, not a test: hub-side cost of one delivery admission (request, status, offer,
 * {@code rejected} outcome, its status and notification) through the real dispatcher and
 * {@link DeliveryService} with an in-memory journal and sockets that only keep the last offer.
 * Excludes the network and the database; prints the thread's CPU time and allocation per admission
 * (allocation does not depend on what else runs on the machine). A third argument {@code cycle} takes
 * each request through boundary → ack → outcome {@code completed} instead, as DeliveryBench's cycles do.
 */
public final class DeliveryFlowBench {

    private DeliveryFlowBench() {
    }

    /** A socket that remembers the operation key of the last offer it was sent. */
    private static final class OfferPeer implements Peer {
        String lastKey;
        long frames;
        private final String id = "p" + System.identityHashCode(this);

        @Override
        public String id() {
            return id;
        }

        @Override
        public String remoteHost() {
            return "127.0.0.1";
        }

        @Override
        public CompletableFuture<Boolean> send(String text) {
            frames++;
            if (text.startsWith("{\"type\":\"delivery_offer\"")) {
                int at = text.indexOf("\"operation_key\":\"") + 17;
                lastKey = text.substring(at, text.indexOf('"', at));
            }
            return SENT;
        }

        @Override
        public void close(int code, String reason) {
        }

        @Override
        public boolean isOpen() {
            return true;
        }
    }

    private static final CompletableFuture<Boolean> SENT = CompletableFuture.completedFuture(true);

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int perRound = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        boolean cycle = args.length > 2 && "cycle".equals(args[2]);
        TestHub t = new TestHub(new InMemoryJournal());
        int pairs = 16;
        Connection[] senders = new Connection[pairs];
        Connection[] recipients = new Connection[pairs];
        OfferPeer[] recipientPeers = new OfferPeer[pairs];
        String token = "ab".repeat(31);
        for (int i = 0; i < pairs; i++) {
            senders[i] = new Connection(new OfferPeer(), 1_767_225_600.0);
            t.hub.opened(senders[i]);
            t.hub.dispatcher().onText(senders[i], "{\"type\":\"heartbeat\",\"sender\":\"s" + i + "\",\"protocol_version\":3}");
            recipientPeers[i] = new OfferPeer();
            recipients[i] = new Connection(recipientPeers[i], 1_767_225_600.0);
            t.hub.opened(recipients[i]);
            String tok = token + String.format("%02x", i);
            t.hub.dispatcher().onText(recipients[i], "{\"type\":\"heartbeat\",\"sender\":\"r" + i + "\",\"protocol_version\":3,"
                    + "\"delivery_session_token\":\"" + tok + "\",\"delivery_capabilities\":{\"follow_up\":\"native\"}}");
        }
        String[] incarnations = new String[pairs];
        for (int i = 0; i < pairs; i++) {
            incarnations[i] = DeliveryDigests.incarnation(token + String.format("%02x", i));
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.ThreadMXBean allocation = (com.sun.management.ThreadMXBean) threads;
        long self = Thread.currentThread().getId();
        long seq = 0;
        double deadline = 1_767_225_600.0 + 86_400;
        for (int round = 0; round < rounds; round++) {
            long cpu0 = threads.getCurrentThreadCpuTime();
            long bytes0 = allocation.getThreadAllocatedBytes(self);
            long start = System.nanoTime();
            for (int n = 0; n < perRound; n++) {
                int i = n % pairs;
                String id = "rq-" + (++seq);
                t.hub.dispatcher().onText(senders[i], "{\"type\":\"delivery_request\",\"sender\":\"s" + i + "\",\"target\":\"r" + i
                        + "\",\"payload\":\"\",\"protocol_version\":3,\"request_id\":\"" + id + "\",\"idempotency_key\":\"" + id
                        + "\",\"target_incarnation\":\"" + incarnations[i] + "\",\"mode\":\"follow_up\",\"task_id\":\"T\","
                        + "\"body\":\"bench body " + id + "\",\"deadline\":" + deadline + "}");
                String key = recipientPeers[i].lastKey;
                if (cycle) {
                    report(t, recipients[i], i, "delivery_boundary", key, id, "b", "\"boundary\":\"turn\"", null);
                    report(t, recipients[i], i, "delivery_ack", key, id, "a", "\"receipt_id\":\"r\"", null);
                    report(t, recipients[i], i, "delivery_outcome", key, id, "c", "\"executor_ref\":\"x\",\"outcome_code\":\"ok\"", "completed");
                } else {
                    report(t, recipients[i], i, "delivery_outcome", key, id, "o", "\"reason_code\":\"bench\"", "rejected");
                }
            }
            double secs = (System.nanoTime() - start) / 1e9;
            double cpuUs = (threads.getCurrentThreadCpuTime() - cpu0) / 1e3 / perRound;
            double kb = (allocation.getThreadAllocatedBytes(self) - bytes0) / 1024.0 / perRound;
            String what = cycle ? "cycle" : "admission";
            System.out.printf("round %d: %.0f %ss/s, %.1f us wall, %.1f us thread CPU, %.1f KB allocated per %s%n",
                    round, perRound / secs, what, secs * 1e6 / perRound, cpuUs, kb, what);
        }
    }

    private static void report(TestHub t, Connection recipient, int i, String type, String key, String id, String mutation,
                               String evidence, String stage) {
        t.hub.dispatcher().onText(recipient, "{\"type\":\"" + type + "\",\"sender\":\"r" + i + "\",\"target\":\"System\","
                + "\"protocol_version\":3,\"operation_key\":\"" + key + "\",\"request_id\":\"" + id + "\",\"task_id\":\"T\","
                + "\"mutation_id\":\"" + mutation + "\",\"evidence\":{" + evidence + "}"
                + (stage == null ? "" : ",\"stage\":\"" + stage + "\"") + "}");
    }
}
