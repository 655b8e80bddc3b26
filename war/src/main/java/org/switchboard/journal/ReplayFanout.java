package org.switchboard.journal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.switchboard.journal.snapshot.SnapshotPart;
import org.switchboard.journal.snapshot.StartupSnapshot;

/**
 * One start-up scan of the journal shared by every reader that joined before it ran, each fed only the
 * kinds it asked for (issue 20: the hub, the forward outbox and coordination used to scan it three times).
 */
public final class ReplayFanout {

    private record Reader(Set<String> kinds, Consumer<JournalEvent> sink, List<SnapshotPart> parts) {
    }

    /** How a scan reads the journal: every readable event with seq above the first argument, in seq order. */
    @FunctionalInterface
    public interface Scan {
        /** Feeds {@code sink} the events after {@code afterSeq}. */
        void after(long afterSeq, Consumer<JournalEvent> sink);
    }

    private final List<Reader> readers = new ArrayList<>();
    private final List<Runnable> afterScan = new ArrayList<>();
    private boolean scanned;
    private long events;
    private long lastSeq;
    private StartupSnapshot.Restored restored = new StartupSnapshot.Restored(0, "snapshots off");

    /**
     * Adds a reader of {@code kinds} (empty = every kind) to the coming scan. Returns false when the scan
     * has already run: the caller then reads the journal itself.
     */
    public synchronized boolean join(Set<String> kinds, Consumer<JournalEvent> sink) {
        return join(kinds, sink, List.of());
    }

    /**
     * As {@link #join(Set, Consumer)}, for a reader whose replayed state {@code parts} can snapshot and
     * restore (issue 20): a scan that starts from a snapshot restores them first and feeds only the
     * events after it. A reader without parts keeps snapshots from being used or written.
     */
    public synchronized boolean join(Set<String> kinds, Consumer<JournalEvent> sink, List<SnapshotPart> parts) {
        if (scanned) {
            return false;
        }
        readers.add(new Reader(Set.copyOf(kinds), sink, List.copyOf(parts)));
        return true;
    }

    /**
     * Runs {@code action} once the scan has fed every reader (e.g. to publish state only when it is
     * whole). Returns false when the scan has already run: nothing is scheduled.
     */
    public synchronized boolean afterScan(Runnable action) {
        if (scanned) {
            return false;
        }
        afterScan.add(action);
        return true;
    }

    /** Runs the one scan through {@code scan} (e.g. {@code journal::replay}); a second call does nothing. */
    public synchronized void run(Consumer<Consumer<JournalEvent>> scan) {
        run((after, sink) -> scan.accept(sink), 0, StartupSnapshot.off());
    }

    /**
     * Runs the one scan from a snapshot when {@code snapshots} has a usable one for a journal ending at
     * {@code journalLastSeq} (every reader's parts restored, then only later events fed), else from the
     * start; then, while no live change can have run yet, writes a new snapshot when one is due. A
     * second call does nothing.
     */
    public synchronized void run(Scan scan, long journalLastSeq, StartupSnapshot snapshots) {
        if (scanned) {
            return;
        }
        scanned = true;
        Reader[] all = readers.toArray(new Reader[0]);
        List<SnapshotPart> parts = new ArrayList<>();
        boolean snapshottable = true;
        for (Reader reader : all) {
            parts.addAll(reader.parts);
            snapshottable &= !reader.parts.isEmpty();
        }
        StartupSnapshot used = snapshottable ? snapshots : StartupSnapshot.off();
        restored = used.restore(journalLastSeq, parts);
        lastSeq = restored.seq();
        scan.after(restored.seq(), event -> {
            events++;
            lastSeq = Math.max(lastSeq, event.seq());
            for (Reader reader : all) {
                if (reader.kinds.isEmpty() || reader.kinds.contains(event.kind())) {
                    reader.sink.accept(event);
                }
            }
        });
        // the readers hold exactly the events up to lastSeq, and nothing live has run: a consistent point
        if (used.due(events)) {
            used.write(lastSeq, parts);
        }
        readers.clear(); // the sinks hold start-up state; nothing needs them after the scan
        afterScan.forEach(Runnable::run);
        afterScan.clear();
    }

    /** What the scan started from: the snapshot restored (seq 0 = none) and why. */
    public synchronized StartupSnapshot.Restored restored() {
        return restored;
    }

    /** Events the scan read (0 before it ran). */
    public synchronized long events() {
        return events;
    }
}
