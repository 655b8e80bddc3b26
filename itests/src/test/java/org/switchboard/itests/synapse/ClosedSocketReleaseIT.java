package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.RawWebSocket;
import org.switchboard.itests.support.SynapseClient;

/**
 * A closed socket leaves the hub's heap at once, not when its registration deadline would have run:
 * with a one-hour deadline, 120 registered and 120 never-registered sockets are opened and closed, and
 * the hub's live {@code org.switchboard.synapse.Connection} objects (counted by {@code jcmd
 * GC.class_histogram}, which collects first) are back to a handful. Before the fix every one of them
 * stayed, with its WebSocket session and the container's request (issue 20's connection storm).
 */
class ClosedSocketReleaseIT {

    private static final int SOCKETS = 120;

    @Test
    void closedSocketsDoNotWaitForTheirRegistrationDeadline() throws Exception {
        try (HubServer hub = HubServer.start(HubServer.env("HUB_AUTH_TIMEOUT_SECONDS", "3600",
                "HUB_MAX_CLIENTS_PER_HOST", "0"))) {
            for (int i = 0; i < SOCKETS; i++) {
                SynapseClient.register(hub.webSocketUri(), "release/agent-" + i).close();
                try (RawWebSocket raw = RawWebSocket.open(hub.port(), 0)) {
                    assertTrue(raw.upgraded(), raw.handshakeAnswer());
                }
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (hub.metric("synapse_connected_clients") > 0) {
                assertTrue(System.nanoTime() < deadline, "every socket closed on the hub's side");
                Thread.sleep(100);
            }
            long live = liveConnections(hub.pid());
            assertTrue(live <= 10, live + " Connection objects still live after " + 2 * SOCKETS + " sockets closed");
        }
    }

    /** Live instances of the hub's {@code Connection} after a full collection. */
    private static long liveConnections(long pid) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder("jcmd", Long.toString(pid), "GC.class_histogram").redirectErrorStream(true).start();
        String histogram = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(jcmd.waitFor() == 0, histogram);
        for (String line : histogram.split("\n")) {
            String[] cols = line.trim().split("\\s+");
            if (cols.length >= 4 && cols[3].equals("org.switchboard.synapse.Connection")) {
                return Long.parseLong(cols[1]);
            }
        }
        return 0; // none live
    }
}
