package org.switchboard.synapse.claims;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.Peer;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.VerbHandler;
import org.switchboard.synapse.idempotency.IdempotencyLedger;
import org.switchboard.synapse.idempotency.MutationFlow;

/**
 * Benchmark {@code main}, not a test: hub-side cost of one claim + release pair through the real
 * dispatcher, {@link MutationFlow} and {@link ClaimBook} with an in-memory journal and fake sockets
 * (4 bound sockets receive every broadcast). Excludes the network and the database.
 */
public final class ClaimFlowBench {

    private ClaimFlowBench() {
    }

    /** A socket that only counts what it is sent. */
    private record CountingPeer(String id) implements Peer {
        @Override
        public String remoteHost() {
            return "127.0.0.1";
        }

        @Override
        public CompletableFuture<Boolean> send(String text) {
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
        TestHub t = new TestHub(new InMemoryJournal());
        ClaimBook book = new ClaimBook();
        MutationFlow flow = new MutationFlow(new IdempotencyLedger());
        t.hub.dispatcher().register(new VerbHandler() {
            @Override
            public Set<String> types() {
                return Set.of("claim", "release");
            }

            @Override
            public void handle(InboundFrame in, SynapseContext ctx) {
                if (in.type().equals("claim")) {
                    ClaimRequest r = book.request(in.frame());
                    flow.run(in, ctx, false, (c, now) -> book.claim(r, in.sender(), "p", now, c).mutation(), e -> { });
                } else {
                    flow.run(in, ctx, false, (c, now) -> book.release(ReleaseRequest.from(in.frame(), in.sender()),
                            in.sender(), now, c).mutation(), e -> { });
                }
            }
        });
        // counting sockets: the shared FakePeer parses every frame it receives, which would dominate
        Connection[] clients = new Connection[4];
        String[] names = new String[clients.length];
        for (int i = 0; i < clients.length; i++) {
            names[i] = "c" + i;
            clients[i] = new Connection(new CountingPeer("p" + i), 1_767_225_600.0);
            t.hub.opened(clients[i]);
            t.hub.dispatcher().onText(clients[i], "{\"type\":\"heartbeat\",\"sender\":\"" + names[i] + "\"}");
        }
        for (int round = 0; round < 5; round++) {
            int pairs = 20_000;
            long start = System.nanoTime();
            for (int i = 0; i < pairs; i++) {
                int n = i % clients.length;
                String task = "t" + (i % 64);
                t.hub.dispatcher().onText(clients[n], "{\"type\":\"claim\",\"sender\":\"" + names[n]
                        + "\",\"task_id\":\"" + task + "\",\"paths\":[\"p/" + task + "\"]}");
                t.hub.dispatcher().onText(clients[n], "{\"type\":\"release\",\"sender\":\"" + names[n]
                        + "\",\"task_id\":\"" + task + "\"}");
            }
            double secs = (System.nanoTime() - start) / 1e9;
            System.out.printf("round %d: %.0f pairs/s (%.1f us per pair)%n", round, pairs / secs, secs * 1e6 / pairs);
        }
    }
}
