package org.switchboard.itests.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * {@code server-config/compact-db}, the offline compaction of the embedded H2 file: it refuses
 * while the hub runs, shrinks the file once the hub is stopped, and every journalled chat is still
 * replayed through the mailbox after the restart.
 */
class CompactDatabaseIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int CHATS = 300;
    private HubServer hub;

    @AfterEach
    void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    @Test
    void compactsAStoppedHubsDatabaseAndKeepsEveryJournalledChat() throws Exception {
        hub = HubServer.start();
        Map<Long, String> journalled = new TreeMap<>(); // seq -> payload, from the receipts
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "compact/alice")) {
            for (int i = 0; i < CHATS; i++) {
                alice.send(SynapseClient.frame("chat", "compact/bob", "kept #" + i)
                        .add("receipt_requested", true).add("client_msg_id", "kept-" + i));
            }
            while (journalled.size() < CHATS) {
                JsonObject frame = alice.next(WAIT);
                if ("delivery_receipt".equals(frame.getString("type", "")) && frame.containsKey("message_seq")) {
                    String clientId = frame.getString("client_msg_id");
                    journalled.put(frame.getJsonNumber("message_seq").longValue(),
                            "kept #" + clientId.substring("kept-".length()));
                }
            }
        }
        Path file = hub.dataDir().resolve("db/switchboard.mv.db");

        Result refused = compactDb();
        assertEquals(1, refused.exitCode, refused.output);
        assertTrue(refused.output.contains("Stop the hub first"), refused.output);

        hub.stop();
        long before = Files.size(file);
        Result compacted = compactDb();
        assertEquals(0, compacted.exitCode, compacted.output);
        long after = Files.size(file);
        assertTrue(after < before, "file shrank: " + before + " -> " + after + "; " + compacted.output);
        System.out.printf("compact-db: %,d -> %,d bytes after %d chats%n", before, after, CHATS);

        hub.restart();
        Map<Long, String> replayed = new TreeMap<>();
        try (SynapseClient bob = SynapseClient.connect(hub.webSocketUri(), "compact/bob")) {
            bob.expectType("welcome");
            bob.send(SynapseClient.frame("heartbeat", "System", "online").add("mailbox", true).add("since_seq", 0));
            while (replayed.size() < CHATS) {
                JsonObject frame = bob.next(WAIT);
                if ("chat".equals(frame.getString("type", "")) && frame.getBoolean("replayed", false)) {
                    replayed.put(frame.getJsonNumber("seq").longValue(), frame.getString("payload"));
                }
            }
        }
        assertEquals(journalled, replayed, "every journalled chat replays with its seq and payload after compaction");
    }

    /** Runs the script the way an operator would, against this hub's data directory. */
    private Result compactDb() throws IOException, InterruptedException {
        Path script = Path.of(System.getProperty("hub.runScript")).resolveSibling("compact-db");
        ProcessBuilder builder = new ProcessBuilder("bash", script.toString());
        builder.environment().put("HUB_DATA_DIR", hub.dataDir().toString());
        builder.environment().put("HUB_PAYARA_JAR", System.getProperty("payara.microJar"));
        builder.environment().put("HUB_RUNTIME_DIR", hub.dataDir().resolveSibling("compact-runtime").toString());
        builder.redirectErrorStream(true);
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "compact-db finished");
        return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    private record Result(int exitCode, String output) {
    }
}
