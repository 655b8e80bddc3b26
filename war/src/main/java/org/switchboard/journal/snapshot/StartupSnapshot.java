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
    /** Threads that restore or write parts side by side (the largest parts are independent holders). */
    private static final int THREADS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

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
        long loadStarted = System.nanoTime();
        SnapshotFile.Loaded loaded = SnapshotFile.load(file, journalLastSeq);
        long loadMillis = (System.nanoTime() - loadStarted) / 1_000_000;
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
        Map<String, String> texts = loaded.snapshot().parts();
        long started = System.nanoTime();
        List<Timed> done = inParallel(parts, texts::get, part -> {
            part.restorePart(texts.get(part.partName()));
            return null;
        });
        Timed failed = done.stream().filter(t -> t.failure() != null).findFirst().orElse(null);
        if (failed != null) {
            setAside();
            throw new IllegalStateException("SYNAPSE state snapshot " + file + ": part " + failed.part().partName()
                    + " could not be restored (" + failed.failure().getMessage()
                    + "); the file was set aside, restart to replay the whole journal", failed.failure());
        }
        LOG.info("SYNAPSE state snapshot at seq " + loaded.snapshot().seq() + " loaded in " + loadMillis
                + " ms, parts restored in " + (System.nanoTime() - started) / 1_000_000 + " ms (" + timings(done) + ")");
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
        String partTimes = "";
        try {
            Map<String, String> texts = new LinkedHashMap<>();
            if (journalId != null) {
                texts.put(JOURNAL_PART, journalId);
            }
            Map<String, String> partTexts = new java.util.concurrent.ConcurrentHashMap<>();
            List<Timed> done = inParallel(parts, name -> null, part -> {
                partTexts.put(part.partName(), part.snapshotPart());
                return null;
            });
            for (Timed timed : done) {
                if (timed.failure() != null) {
                    throw timed.failure();
                }
            }
            parts.forEach(part -> texts.put(part.partName(), partTexts.get(part.partName())));
            partTimes = timings(done);
            Files.createDirectories(file.getParent());
            SnapshotFile.write(file, new SnapshotFile.Snapshot(seq, texts));
            written = "written at seq " + seq + " in " + (System.nanoTime() - started) / 1_000_000 + " ms";
            LOG.info("SYNAPSE state snapshot " + written + " (parts " + partTimes + ")");
        } catch (IOException | RuntimeException e) {
            written = "not written (" + e.getMessage() + ")";
            LOG.warning("SYNAPSE state snapshot not written to " + file + ": " + e.getMessage());
        }
    }

    /** One part's run: its wall time, its thread's CPU time and what it threw (null = done). */
    private record Timed(SnapshotPart part, long millis, long cpuMillis, RuntimeException failure) {
    }

    /** What a part's run does; its result is unused. */
    @FunctionalInterface
    private interface PartTask {
        Void run(SnapshotPart part);
    }

    /**
     * Runs {@code task} for every part, the parts spread over up to {@link #THREADS} threads, largest text
     * first (by {@code sizeOf}, 0 when unknown): the parts belong to separate holders, and the delivery book and
     * idempotency ledger alone are most of a large snapshot, so they can run on separate cores. Waits for every part, so none still runs when this returns, and reports each one's outcome.
     */
    private static List<Timed> inParallel(List<SnapshotPart> parts, java.util.function.Function<String, String> sizeOf,
                                          PartTask task) {
        List<SnapshotPart> ordered = new java.util.ArrayList<>(parts);
        ordered.sort(java.util.Comparator.comparingInt((SnapshotPart p) -> {
            String text = sizeOf.apply(p.partName());
            return text == null ? 0 : text.length();
        }).reversed());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.max(1, Math.min(THREADS, ordered.size())), runnable -> {
                    Thread thread = new Thread(runnable, "snapshot-part");
                    thread.setDaemon(true);
                    return thread;
                });
        try {
            List<java.util.concurrent.Future<Timed>> futures = new java.util.ArrayList<>();
            for (SnapshotPart part : ordered) {
                futures.add(pool.submit(() -> {
                    long started = System.nanoTime();
                    long cpuStarted = org.switchboard.lifecycle.ThreadCpu.now();
                    RuntimeException failure = null;
                    try {
                        task.run(part);
                    } catch (RuntimeException e) {
                        failure = e;
                    }
                    return new Timed(part, (System.nanoTime() - started) / 1_000_000,
                            org.switchboard.lifecycle.ThreadCpu.millisSince(cpuStarted), failure);
                }));
            }
            List<Timed> done = new java.util.ArrayList<>();
            for (java.util.concurrent.Future<Timed> future : futures) {
                done.add(await(future));
            }
            return done;
        } finally {
            pool.shutdown();
        }
    }

    private static Timed await(java.util.concurrent.Future<Timed> future) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return future.get();
                } catch (InterruptedException e) {
                    interrupted = true; // the part keeps running: wait for it, so no restore runs on after start-up
                } catch (java.util.concurrent.ExecutionException e) {
                    // an Error in a part (out of memory, ...): the start cannot go on
                    if (e.getCause() instanceof Error error) {
                        throw error;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The parts' threads' CPU in all and each part's wall time: the start-up thread's own CPU figure
     * no longer includes the parts, which run on these threads.
     */
    private static String timings(List<Timed> done) {
        return "cpu " + done.stream().mapToLong(Timed::cpuMillis).sum() + " ms in all; "
                + done.stream().filter(t -> t.millis() > 0).map(t -> t.part().partName() + " " + t.millis() + " ms")
                        .collect(java.util.stream.Collectors.joining(", "));
    }

    /** What the last {@link #write} did, for the start-up log line. */
    public String written() {
        return written;
    }
}
