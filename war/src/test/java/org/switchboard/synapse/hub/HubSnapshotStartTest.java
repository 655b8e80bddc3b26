package org.switchboard.synapse.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.journal.ReplayFanout;
import org.switchboard.journal.snapshot.SnapshotPart;
import org.switchboard.journal.snapshot.StartupSnapshot;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;

/** The hub's start-up from a state snapshot: a restart restores every part and replays only the tail (issue 20). */
class HubSnapshotStartTest {

    private static SynapseHub hub(InMemoryJournal journal) {
        return new SynapseHub(SynapseSettings.defaults(), journal, () -> 1_767_225_600.0, Runnable::run, Runnable::run, List::of);
    }

    private static List<String> texts(SynapseHub hub) {
        return hub.snapshotParts().stream().map(SnapshotPart::snapshotPart).toList();
    }

    private static void traffic(TestHub test, int round) {
        TestHub.Client a = test.register("p/a");
        TestHub.Client b = test.register("p/b");
        for (int i = 0; i < 5; i++) {
            a.send(TestHub.frame("chat", i % 2 == 0 ? "p/b" : "all", "r" + round + "-" + i));
            a.send(TestHub.frame("chat", "p/c", "offline " + i).add("receipt_requested", true));
        }
        b.send(Json.createObjectBuilder().add("type", "ack").add("seq", test.journal.lastSeq() - 2));
        a.disconnect();
        b.disconnect();
    }

    @Test
    void aRestartFromTheSnapshotHasTheStateOfAFullReplay(@TempDir Path dir) {
        InMemoryJournal journal = new InMemoryJournal();
        TestHub live = new TestHub(journal);
        traffic(live, 1);
        StartupSnapshot snapshots = new StartupSnapshot(dir.resolve("state.snapshot"), true, 1);

        ReplayFanout first = new ReplayFanout();
        hub(journal).replayJournal(first, snapshots);
        assertFalse(first.restored().used());
        long covered = journal.lastSeq();
        traffic(new TestHub(journal), 2); // a second run journals more

        ReplayFanout second = new ReplayFanout();
        SynapseHub restarted = hub(journal);
        restarted.replayJournal(second, snapshots);
        assertTrue(second.restored().used());
        assertEquals(covered, second.restored().seq());
        assertEquals(journal.lastSeq() - covered, second.events(), "only the tail is replayed");

        SynapseHub full = hub(journal);
        full.replayJournal(new ReplayFanout(), StartupSnapshot.off());
        assertEquals(texts(full), texts(restarted));
        assertEquals(full.mailbox().pendingFor("p/c", List.of()), restarted.mailbox().pendingFor("p/c", List.of()));
        assertTrue(full.mailbox().pendingFor("p/c", List.of()) > 0, "chats to an offline receiver stay pending");
    }
}
