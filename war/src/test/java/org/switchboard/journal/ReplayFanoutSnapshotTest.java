package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.journal.snapshot.SnapshotFile;
import org.switchboard.journal.snapshot.SnapshotPart;
import org.switchboard.journal.snapshot.StartupSnapshot;

/** The start-up scan from a state snapshot (issue 20): restore, tail only, write when due, ignore what is unusable. */
class ReplayFanoutSnapshotTest {

    /** A holder whose state is the sum of the seqs it was fed. */
    static final class Sum implements SnapshotPart {
        final String name;
        long sum;
        int fed;

        Sum(String name) {
            this.name = name;
        }

        void accept(JournalEvent e) {
            sum += e.seq();
            fed++;
        }

        @Override
        public String partName() {
            return name;
        }

        @Override
        public String snapshotPart() {
            return Long.toString(sum);
        }

        @Override
        public void restorePart(String text) {
            try {
                sum = Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(e);
            }
        }
    }

    private static ReplayFanout.Scan journal(int last) {
        return (after, sink) -> {
            for (long seq = after + 1; seq <= last; seq++) {
                sink.accept(new JournalEvent(seq, seq % 2 == 0 ? "even" : "odd", Json.createObjectBuilder().build(), 0));
            }
        };
    }

    private static List<Sum> start(StartupSnapshot snapshots, int last, ReplayFanout fanout) {
        Sum all = new Sum("all");
        Sum even = new Sum("even");
        fanout.join(Set.of(), all::accept, List.of(all));
        fanout.join(Set.of("even"), even::accept, List.of(even));
        fanout.run(journal(last), last, snapshots);
        return List.of(all, even);
    }

    private static long sum(int from, int to, boolean evenOnly) {
        long s = 0;
        for (int i = from; i <= to; i++) {
            if (!evenOnly || i % 2 == 0) {
                s += i;
            }
        }
        return s;
    }

    @Test
    void aSecondStartRestoresTheSnapshotAndReplaysOnlyTheTail(@TempDir Path dir) {
        StartupSnapshot snapshots = new StartupSnapshot(dir.resolve("state.snapshot"), true, 10);
        ReplayFanout first = new ReplayFanout();
        List<Sum> one = start(snapshots, 100, first);
        assertEquals(100, first.events());
        assertFalse(first.restored().used());
        assertEquals(100, SnapshotFile.load(dir.resolve("state.snapshot"), 100).snapshot().seq(), "written at the scan's end");

        ReplayFanout second = new ReplayFanout();
        List<Sum> two = start(snapshots, 130, second);
        assertTrue(second.restored().used());
        assertEquals(100, second.restored().seq());
        assertEquals(30, second.events(), "only the tail is read");
        assertEquals(30, two.get(0).fed, "the tail only");
        assertEquals(15, two.get(1).fed, "the tail's even events only");
        assertEquals(sum(1, 130, false), two.get(0).sum, "same state as a full replay");
        assertEquals(sum(1, 130, true), two.get(1).sum);
        assertEquals(sum(1, 100, false), one.get(0).sum);
        // the tail of 30 was due (>= 10): a new snapshot covers 130
        assertEquals(130, SnapshotFile.load(dir.resolve("state.snapshot"), 130).snapshot().seq());
    }

    @Test
    void aSnapshotWrittenForAnotherJournalMeansAFullReplay(@TempDir Path dir) {
        Path file = dir.resolve("state.snapshot");
        start(new StartupSnapshot(file, true, 10, "syn-aaaaaaaa"), 100, new ReplayFanout());
        assertTrue(Files.exists(file));

        ReplayFanout other = new ReplayFanout();
        List<Sum> sums = start(new StartupSnapshot(file, true, 10, "syn-bbbbbbbb"), 130, other);
        assertFalse(other.restored().used(), other.restored().description());
        assertEquals(130, other.events(), "every event of this journal is read");
        assertEquals(sum(1, 130, false), sums.get(0).sum);

        ReplayFanout same = new ReplayFanout();
        start(new StartupSnapshot(file, true, 1000, "syn-bbbbbbbb"), 140, same);
        assertTrue(same.restored().used(), "the snapshot the second start wrote is its own journal's");
        assertEquals(130, same.restored().seq());
    }

    @Test
    void aDamagedOrBeyondTheEndSnapshotMeansAFullReplay(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("state.snapshot");
        StartupSnapshot snapshots = new StartupSnapshot(file, true, 1000);
        start(snapshots, 50, new ReplayFanout()); // 50 < 1000: not due
        assertFalse(Files.exists(file));
        SnapshotFile.write(file, new SnapshotFile.Snapshot(80, java.util.Map.of("all", "1", "even", "1")));
        ReplayFanout beyond = new ReplayFanout();
        List<Sum> b = start(snapshots, 50, beyond);
        assertFalse(beyond.restored().used(), beyond.restored().description());
        assertEquals(sum(1, 50, false), b.get(0).sum);
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 2] ^= 1;
        Files.write(file, bytes);
        ReplayFanout damaged = new ReplayFanout();
        List<Sum> d = start(snapshots, 90, damaged);
        assertFalse(damaged.restored().used());
        assertEquals(90, damaged.events());
        assertEquals(sum(1, 90, false), d.get(0).sum);
    }

    @Test
    void aReaderWithoutPartsOrASnapshotMissingAPartMeansAFullReplayAndNoSnapshot(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("state.snapshot");
        StartupSnapshot snapshots = new StartupSnapshot(file, true, 1);
        ReplayFanout fanout = new ReplayFanout();
        List<JournalEvent> plain = new ArrayList<>();
        fanout.join(Set.of(), (Consumer<JournalEvent>) plain::add);
        start(snapshots, 20, fanout);
        assertFalse(Files.exists(file), "a reader that cannot restore: no snapshot");
        SnapshotFile.write(file, new SnapshotFile.Snapshot(10, java.util.Map.of("all", "55")));
        ReplayFanout missing = new ReplayFanout();
        List<Sum> m = start(snapshots, 20, missing);
        assertFalse(missing.restored().used(), "no part for 'even'");
        assertEquals(sum(1, 20, true), m.get(1).sum);
    }

    @Test
    void aPartThatCannotBeReadSetsTheFileAsideAndStopsTheStart(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("state.snapshot");
        SnapshotFile.write(file, new SnapshotFile.Snapshot(10, java.util.Map.of("all", "x", "even", "1")));
        StartupSnapshot snapshots = new StartupSnapshot(file, true, 1);
        assertThrows(IllegalStateException.class, () -> start(snapshots, 20, new ReplayFanout()));
        assertFalse(Files.exists(file));
        assertTrue(Files.exists(dir.resolve("state.snapshot.rejected")));
    }

    @Test
    void snapshotsOffReadEverythingAndWriteNothing(@TempDir Path dir) {
        Path file = dir.resolve("state.snapshot");
        ReplayFanout fanout = new ReplayFanout();
        start(new StartupSnapshot(file, false, 1), 20, fanout);
        assertEquals(20, fanout.events());
        assertFalse(Files.exists(file));
    }
}
