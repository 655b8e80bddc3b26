package org.switchboard.journal.snapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The start-up side of state snapshots (issue 20): before the journal scan, restores every reader's
 * part from the newest usable snapshot and says from which seq the scan must start; right after the
 * scan (when the readers hold exactly the events up to the last seq read and nothing live has run
 * yet) writes a new snapshot once enough events were replayed since the one used.
 */
public final class StartupSnapshot {

    private static final Logger LOG = Logger.getLogger(StartupSnapshot.class.getName());

    /** The snapshot file's name under {@code <hub.data-dir>/snapshot/}. */
    public static final String FILE_NAME = "state.snapshot";

    /** What a restore did: the seq the state covers (0 = none: replay everything) and the log text. */
    public record Restored(long seq, String description) {
        /** True when a snapshot was restored. */
        public boolean used() {
            return seq > 0;
        }
    }

    private final Path file;
    private final boolean enabled;
    private final long intervalEvents;
    /** The journal's identity (its hub id) a snapshot is written for and checked against; null = unchecked. */
    private final String journalId;
    /** The reserved part holding {@link #journalId}; no reader's part has this name. */
    static final String JOURNAL_PART = "journal-id";
    private volatile String written = "not written";

    /** Snapshots in {@code file} (off when {@code enabled} is false), written after at least {@code intervalEvents} replayed events. */
    public StartupSnapshot(Path file, boolean enabled, long intervalEvents) {
        this(file, enabled, intervalEvents, null);
    }

    /**
     * As {@link #StartupSnapshot(Path, boolean, long)}, for the journal identified by {@code journalId}:
     * a snapshot written for another journal (say, a database file swapped under the same data
     * directory) is ignored, whatever its seq.
     */
    public StartupSnapshot(Path file, boolean enabled, long intervalEvents, String journalId) {
        this.file = file;
        this.enabled = enabled && file != null;
        this.intervalEvents = Math.max(1, intervalEvents);
        this.journalId = journalId;
    }

    /** Snapshots switched off (tests, hubs without a data directory). */
    public static StartupSnapshot off() {
        return new StartupSnapshot(null, false, 1);
    }

    /** The file, or null when off. */
    public Path file() {
        return enabled ? file : null;
    }

    /**
     * Restores {@code parts} from the snapshot when it is usable for a journal ending at
     * {@code journalLastSeq} and holds a part for each; otherwise nothing is restored (one WARNING when a
     * file was there but unusable). A part that passes the file's checksum but cannot be read has been
     * partly applied: the file is set aside ({@code .rejected}) and start-up fails, so the next start
     * replays everything.
     */
    public Restored restore(long journalLastSeq, List<SnapshotPart> parts) {
        if (!enabled) {
            return new Restored(0, "snapshots off");
        }
        SnapshotFile.Loaded loaded = SnapshotFile.load(file, journalLastSeq);
        if (!loaded.usable()) {
            if (!"no snapshot".equals(loaded.reason())) {
                LOG.warning("SYNAPSE state snapshot " + file + " ignored (" + loaded.reason() + "): replaying the whole journal");
            }
            return new Restored(0, loaded.reason());
        }
        if (journalId != null && !journalId.equals(loaded.snapshot().parts().get(JOURNAL_PART))) {
            LOG.warning("SYNAPSE state snapshot " + file + " ignored (written for another journal than "
                    + journalId + "): replaying the whole journal");
            return new Restored(0, "snapshot of another journal");
        }
        List<String> names = parts.stream().map(SnapshotPart::partName).toList();
        if (!loaded.snapshot().covers(names)) {
            LOG.warning("SYNAPSE state snapshot " + file + " ignored (it lacks a part of " + names
                    + "): replaying the whole journal");
            return new Restored(0, "snapshot lacks a part");
        }
        for (SnapshotPart part : parts) {
            try {
                part.restorePart(loaded.snapshot().parts().get(part.partName()));
            } catch (RuntimeException e) {
                setAside();
                throw new IllegalStateException("SYNAPSE state snapshot " + file + ": part " + part.partName()
                        + " could not be restored (" + e.getMessage() + "); the file was set aside, restart to replay the whole journal", e);
            }
        }
        return new Restored(loaded.snapshot().seq(), "snapshot at seq " + loaded.snapshot().seq());
    }

    private void setAside() {
        try {
            Files.move(file, file.resolveSibling(file.getFileName() + ".rejected"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            LOG.warning("SYNAPSE state snapshot could not be set aside: " + e.getMessage());
        }
    }

    /** True when a scan that read {@code replayedEvents} after the restored snapshot should write a new one. */
    public boolean due(long replayedEvents) {
        return enabled && replayedEvents >= intervalEvents;
    }

    /**
     * Writes the state of {@code parts} as covering journal seq {@code seq}. The caller guarantees the
     * parts hold exactly the events up to {@code seq} and that nothing changes them meanwhile. A failure
     * is logged (the next start replays more), never thrown.
     */
    public void write(long seq, List<SnapshotPart> parts) {
        if (!enabled || seq <= 0) {
            return;
        }
        long started = System.nanoTime();
        try {
            Map<String, String> texts = new LinkedHashMap<>();
            if (journalId != null) {
                texts.put(JOURNAL_PART, journalId);
            }
            for (SnapshotPart part : parts) {
                texts.put(part.partName(), part.snapshotPart());
            }
            Files.createDirectories(file.getParent());
            SnapshotFile.write(file, new SnapshotFile.Snapshot(seq, texts));
            written = "written at seq " + seq + " in " + (System.nanoTime() - started) / 1_000_000 + " ms";
        } catch (IOException | RuntimeException e) {
            written = "not written (" + e.getMessage() + ")";
            LOG.warning("SYNAPSE state snapshot not written to " + file + ": " + e.getMessage());
        }
    }

    /** What the last {@link #write} did, for the start-up log line. */
    public String written() {
        return written;
    }
}
