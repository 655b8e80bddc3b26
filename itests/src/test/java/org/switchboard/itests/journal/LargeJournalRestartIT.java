package org.switchboard.itests.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Restart on a large journal (issue 20): a journal of {@code -Drestart.events} events (10⁶ by default)
 * is written offline by {@link JournalGenerator}, then one hub boots on it. The hub must rebuild what
 * the events leave (live claims, board tasks, a receiver's unacked mailbox) and report its start-up
 * replay time, which is checked only against a generous bound ({@code -Drestart.bound-ms}). That first
 * start replays everything and writes a state snapshot; the hub is then stopped and started once more,
 * and that second start must restore the snapshot, replay only the events appended after it, and still
 * hold the same claims, board tasks and unacked mailbox.
 */
class LargeJournalRestartIT {

    /** 2·10⁵ in CI (about a minute to write); the benchmark figure uses {@code -Drestart.events=1000000}. */
    private static final long EVENTS = Long.getLong("restart.events", 200_000);
    /** Generous: the CI machine runs at load 20-40; the figures that count are in benchmarks.md. */
    private static final long BOUND_MS = Long.getLong("restart.bound-ms", 180_000);
    private static final String HUB_ID = "syn-0a1b2c3d";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Pattern REPLAY = Pattern.compile("ready \\(journal replay (\\d+) ms, cpu (\\d+) ms");
    private static final Pattern SNAPSHOT = Pattern.compile("in one scan; state snapshot (used at seq (\\d+), (\\d+) events replayed after it|not used: [^,)]*)");
    /** The restore's own line: file load, the parts' wall time and their threads' CPU (not in the start-up thread's figure). */
    private static final Pattern RESTORE = Pattern.compile("loaded in (\\d+) ms, parts restored in (\\d+) ms \\(cpu (\\d+) ms in all");
    private static final Pattern COORDINATION = Pattern.compile("coordination rebuilt from (\\d+) journal events \\((in the hub's start-up scan|own read)\\) in (\\d+) ms \\(cpu (\\d+) ms\\)");
    private HubServer hub;

    @AfterEach
    void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    @Test
    void aHubOnAGeneratedJournalRebuildsItsStateAndSaysHowLongReplayTook() throws Exception {
        hub = HubServer.prepare(Map.of());
        long started = System.nanoTime();
        double now = System.currentTimeMillis() / 1000.0;
        JournalGenerator.Expected expected = new JournalGenerator(HUB_ID, now - EVENTS * 0.01 - 60)
                .write(hub.dataDir(), EVENTS);
        long generated = (System.nanoTime() - started) / 1_000_000;
        long bootStarted = System.nanoTime();
        hub.restart();
        long boot = (System.nanoTime() - bootStarted) / 1_000_000;

        String log = Files.readString(hub.logFile());
        Matcher replay = REPLAY.matcher(log);
        Matcher coordination = COORDINATION.matcher(log);
        assertTrue(replay.find(), "the hub logs its journal replay time");
        assertTrue(coordination.find(), "the hub logs its coordination rebuild time");
        long replayMillis = Long.parseLong(replay.group(1));
        // inside the hub's one scan, coordination's figure includes the hub's replay: not added twice
        boolean sharedScan = !"own read".equals(coordination.group(2));
        long coordinationMillis = Long.parseLong(coordination.group(3));
        long hubCpu = ProcessHandle.of(hub.pid()).flatMap(p -> p.info().totalCpuDuration()).map(Duration::toMillis).orElse(-1L);
        System.out.printf("restart on %,d events (last seq %,d): generated in %,d ms; journal replay %,d ms (cpu %s ms),"
                + " coordination rebuild %,d ms (cpu %s ms, %s events, %s); boot to ready %,d ms, hub cpu at ready %,d ms%n",
                EVENTS, expected.lastSeq(), generated, replayMillis, replay.group(2), coordinationMillis,
                coordination.group(4), coordination.group(1), coordination.group(2), boot, hubCpu);

        checkState(expected);
        long startupMillis = sharedScan ? Math.max(replayMillis, coordinationMillis) : replayMillis + coordinationMillis;
        assertTrue(startupMillis < BOUND_MS, "start-up replay " + startupMillis + " ms within the bound of " + BOUND_MS + " ms");
        Matcher first = SNAPSHOT.matcher(log);
        assertTrue(first.find(), "the ready line says whether a snapshot was used");
        assertTrue(first.group(1).startsWith("not used"), "the first start on the generated journal replays everything: " + first.group());
        assertTrue(log.contains("new snapshot written at seq "), "the full replay wrote a state snapshot");

        // the one extra restart of this class: from the snapshot, only the tail is replayed
        hub.stop();
        long secondStarted = System.nanoTime();
        hub.restart();
        long secondBoot = (System.nanoTime() - secondStarted) / 1_000_000;
        String second = Files.readString(hub.logFile()).substring(log.length());
        Matcher secondReplay = REPLAY.matcher(second);
        Matcher used = SNAPSHOT.matcher(second);
        Matcher restore = RESTORE.matcher(second);
        Matcher secondCoordination = COORDINATION.matcher(second);
        assertTrue(secondReplay.find() && used.find() && restore.find() && secondCoordination.find(),
                "the second start logs its replay, snapshot, restore and coordination");
        assertTrue(used.group(2) != null, "the second start used the snapshot: " + used.group());
        long snapshotSeq = Long.parseLong(used.group(2));
        long tail = Long.parseLong(used.group(3));
        assertTrue(snapshotSeq >= expected.lastSeq(), "the snapshot covers the generated journal: " + used.group());
        assertTrue(tail < 10_000, "only the events after the snapshot are replayed: " + used.group());
        System.out.printf("restart from the snapshot (seq %,d, %,d events after it): journal replay %s ms (cpu %s ms);"
                + " snapshot loaded in %s ms, parts restored in %s ms (cpu %s ms on their threads); coordination %s ms"
                + " (cpu %s ms); boot to ready %,d ms%n", snapshotSeq, tail, secondReplay.group(1), secondReplay.group(2),
                restore.group(1), restore.group(2), restore.group(3), secondCoordination.group(3), secondCoordination.group(4),
                secondBoot);
        checkState(expected);
    }

    /** What the generated journal leaves: no corrupt rows, its live claims, the late receiver's unacked chats, the board's tasks. */
    private void checkState(JournalGenerator.Expected expected) throws Exception {
        HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(hub.http("/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonObject body = Json.createReader(new StringReader(health.body())).readObject();
        assertEquals(0, body.getInt("journal_corrupt_rows"), health.body());
        assertEquals(expected.liveClaims(), body.getInt("active_claims"), health.body());

        try (SynapseClient late = SynapseClient.connect(hub.webSocketUri(), JournalGenerator.LATE_RECEIVER)) {
            late.expectType("welcome");
            late.send(SynapseClient.frame("heartbeat", "System", "online").add("mailbox", true)
                    .add("since_seq", expected.firstUnackedSeq() - 1));
            Set<Long> replayed = new HashSet<>();
            while (replayed.size() < expected.unacked()) {
                JsonObject frame = late.next(WAIT);
                if ("chat".equals(frame.getString("type", "")) && frame.getBoolean("replayed", false)) {
                    replayed.add(frame.getJsonNumber("seq").longValue());
                }
            }
            assertEquals(expected.unacked(), replayed.size());
            late.send(SynapseClient.frame("board_request", "System", "board"));
            JsonObject board = late.expect(f -> "board_snapshot".equals(f.getString("type", "")), WAIT).getJsonObject("board");
            int tasks = board.containsKey("total_tasks") ? board.getInt("total_tasks") : board.getJsonArray("tasks").size();
            assertEquals(expected.boardTasks(), tasks, "every generated board task");
        }
    }
}
