package org.switchboard.journal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One start-up scan of the journal shared by every reader that joined before it ran, each fed only the
 * kinds it asked for (issue 20: the hub, the forward outbox and coordination used to scan it three times).
 */
public final class ReplayFanout {

    private record Reader(Set<String> kinds, Consumer<JournalEvent> sink) {
    }

    private final List<Reader> readers = new ArrayList<>();
    private final List<Runnable> afterScan = new ArrayList<>();
    private boolean scanned;
    private long events;

    /**
     * Adds a reader of {@code kinds} (empty = every kind) to the coming scan. Returns false when the scan
     * has already run: the caller then reads the journal itself.
     */
    public synchronized boolean join(Set<String> kinds, Consumer<JournalEvent> sink) {
        if (scanned) {
            return false;
        }
        readers.add(new Reader(Set.copyOf(kinds), sink));
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
        if (scanned) {
            return;
        }
        scanned = true;
        Reader[] all = readers.toArray(new Reader[0]);
        scan.accept(event -> {
            events++;
            for (Reader reader : all) {
                if (reader.kinds.isEmpty() || reader.kinds.contains(event.kind())) {
                    reader.sink.accept(event);
                }
            }
        });
        readers.clear(); // the sinks hold start-up state; nothing needs them after the scan
        afterScan.forEach(Runnable::run);
        afterScan.clear();
    }

    /** Events the scan read (0 before it ran). */
    public synchronized long events() {
        return events;
    }
}
