package org.switchboard.journal;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.switchboard.lifecycle.ExecutorStop;
import org.switchboard.lifecycle.ThreadCpu;
import org.switchboard.schema.SchemaMigration;

/**
 * The {@link Journal} on JPA: appends go through a {@link GroupCommitter} whose writer runs on a
 * container-managed thread and commits each batch in its own JTA transaction via {@link JournalStore};
 * acknowledgements complete in seq order on a second managed thread.
 */
@ApplicationScoped
public class JpaJournal implements Journal {

    /** Configuration key for an operator-chosen hub id (environment {@code HUB_ID}); blank = generate once and keep. */
    public static final String HUB_ID_KEY = "hub.id";
    /**
     * Configuration key for how often the embedded H2 file is forced to disk, in milliseconds
     * (environment {@code HUB_JOURNAL_SYNC_INTERVAL_MS}); 0 = never, leaving it to the OS (~30 s).
     */
    public static final String SYNC_INTERVAL_KEY = "hub.journal.sync-interval-ms";
    /**
     * Configuration key for how often the embedded H2 file's sparse chunks are compacted, in milliseconds
     * (environment {@code HUB_JOURNAL_COMPACT_INTERVAL_MS}, default 250); 0 = never (the chunk table then grows
     * by one entry per commit until the next {@code compact-db}).
     */
    public static final String COMPACT_INTERVAL_KEY = "hub.journal.compact-interval-ms";
    /**
     * Configuration key for the count of chunks older than H2's retention window above which a compaction
     * run rewrites anything (environment {@code HUB_JOURNAL_COMPACT_ABOVE_CHUNKS}); see
     * {@link FileCompactionStats} for why young chunks are left alone.
     */
    public static final String COMPACT_ABOVE_CHUNKS_KEY = "hub.journal.compact-above-chunks";
    /**
     * The shortest wait of a small commit batch for more appends while appends keep coming, in
     * microseconds (environment {@code HUB_JOURNAL_COMMIT_LINGER_FLOOR_MICROS}, default 2000; 0 keeps the
     * wait at the previous commit's time capped at 1 ms). See {@link GroupCommitPolicy}.
     */
    public static final String LINGER_FLOOR_KEY = "hub.journal.commit-linger-floor-micros";
    /**
     * Rows (events, outbox and side rows) at which a lingering commit batch stops waiting and commits
     * (environment {@code HUB_JOURNAL_COMMIT_LINGER_ROWS}, default 64; 0 never waits). See {@link GroupCommitPolicy}.
     */
    public static final String LINGER_ROWS_KEY = "hub.journal.commit-linger-rows";
    /**
     * The floor instead, when shorter, for a batch holding a prompt append ({@link Journal#appendPrompt}: a
     * delivery request or stage report, which its client waits on), in microseconds (environment
     * {@code HUB_JOURNAL_COMMIT_LINGER_PROMPT_FLOOR_MICROS}, default 1000; 0 = the plain floor for all).
     */
    public static final String LINGER_PROMPT_FLOOR_KEY = "hub.journal.commit-linger-prompt-floor-micros";
    /** Chunks filled below this percentage are rewritten. */
    static final int COMPACT_FILL_RATE = 80;
    /**
     * Configuration key for the most a compaction run rewrites (environment
     * {@code HUB_JOURNAL_COMPACT_MAX_WRITE_BYTES}, default 512 KiB). The pages are rewritten beside the commits
     * (only chunks holding H2's own metadata take its store lock), and the next commit writes them: a larger run
     * makes that commit longer. When runs held the store lock, 64 MB every 30 s held it up to 0.8 s and 2 MiB a
     * second 25–124 ms; 512 KiB four times a second keeps the same pace in smaller steps.
     */
    public static final String COMPACT_MAX_WRITE_KEY = "hub.journal.compact-max-write-bytes";
    /** Past this many chunks, young or old, a run compacts anyway (~15 MB of H2's heap). */
    static final int COMPACT_HARD_LIMIT_CHUNKS = 65_536;
    /** Seqs a retention delete covers per statement (and commit). */
    static final int RETENTION_DELETE_WINDOW = 5_000;
    /** Rows fetched per query while replaying or reading. */
    static final int PAGE = 1000;
    private static final Logger LOG = Logger.getLogger(JpaJournal.class.getName());

    @Inject
    JournalStore store;

    private final OutboxAudiences outboxAudiences = new OutboxAudiences();

    /** The schema scripts run before the journal's first query (schema.md). */
    @Inject
    SchemaMigration schema;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;

    @Inject
    @ConfigProperty(name = HUB_ID_KEY)
    Optional<String> configuredHubId;

    @Inject
    @ConfigProperty(name = SYNC_INTERVAL_KEY, defaultValue = "1000")
    long syncIntervalMillis;

    @Inject
    @ConfigProperty(name = COMPACT_INTERVAL_KEY, defaultValue = "250")
    long compactIntervalMillis;

    @Inject
    @ConfigProperty(name = COMPACT_ABOVE_CHUNKS_KEY, defaultValue = "4096")
    int compactAboveChunks;

    @Inject
    @ConfigProperty(name = COMPACT_MAX_WRITE_KEY, defaultValue = "524288")
    int compactMaxWriteBytes;

    @Inject
    @ConfigProperty(name = LINGER_FLOOR_KEY, defaultValue = "2000")
    long lingerFloorMicros;

    @Inject
    @ConfigProperty(name = LINGER_ROWS_KEY, defaultValue = "64")
    int lingerRows;

    @Inject
    @ConfigProperty(name = LINGER_PROMPT_FLOOR_KEY, defaultValue = "1000")
    long lingerPromptFloorMicros;

    private final FileCompactionStats compactionStats = new FileCompactionStats();

    private JournalReader reader;
    /** The managed threads of the journal's pools and committer, waited for at stop until they have ended. */
    private ExecutorStop.TrackedThreads ownThreads;
    private GroupCommitter committer;
    private ExecutorService completions;
    private ScheduledExecutorService syncScheduler;
    private PeriodicFileTask fileSync;
    private PeriodicFileTask fileCompaction;
    private String hubId;

    @PostConstruct
    void start() {
        ownThreads = ExecutorStop.tracked(threads);
        schema.ensureCurrent();
        boolean h2 = false;
        try {
            h2 = store.makeCommitsDurable();
        } catch (SQLException e) {
            // Not fatal: the launcher's H2 URL already carries WRITE_DELAY=0; say so loudly for other set-ups.
            LOG.log(Level.WARNING, "journal: could not set H2 WRITE_DELAY 0; acknowledged events may be lost"
                    + " on kill -9 unless the JDBC URL sets it", e);
        }
        if (h2) {
            startFileSync();
        }
        try {
            store.dropKindIndex();
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "journal: could not drop the unused journal_event_kind index; it only costs writes", e);
        }
        hubId = resolveHubId();
        reader = new JournalReader(this::page, this::recordQuarantine, PAGE);
        reader.alreadyQuarantined(store.quarantinedStillPresent());
        long lastSeq = store.maxSeq();
        completions = Executors.newSingleThreadExecutor(ownThreads);
        checkCompactMaxWrite(compactMaxWriteBytes);
        GroupCommitPolicy policy = commitPolicy(lingerFloorMicros, lingerRows, lingerPromptFloorMicros);
        if (lingerFloorMicros > 0) {
            LOG.info(() -> "journal: while appends keep coming, a small commit batch waits at least " + lingerFloorMicros
                    + " us for more (" + LINGER_FLOOR_KEY + "), " + policy.floorFor(true) / 1000
                    + " us when a client waits on it (" + LINGER_PROMPT_FLOOR_KEY + ")");
        }
        outboxAudiences.seed(store.pendingOutboxSenders());
        committer = new GroupCommitter(policy, this::write, completions,
                JpaJournal::now, lastSeq, store.maxOutboxOrder());
        committer.start(ownThreads);
        LOG.info(() -> "journal open: hub_id " + hubId + ", last seq " + lastSeq
                + (reader.corruptSeqs().isEmpty() ? "" : ", " + reader.corruptSeqs().size() + " quarantined rows"));
    }

    /** Opens the journal at deployment rather than on first use, so the hub id exists before any client. */
    void openAtStartup(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        hubId();
    }

    private void startFileSync() {
        fileSync = new PeriodicFileTask(store::syncFile, failure -> LOG.log(Level.WARNING,
                "journal: H2 file sync refused, left to the OS from now on: " + failure.getMessage()));
        // two threads: a compaction run takes up to seconds and must not hold back the next sync
        syncScheduler = Executors.newScheduledThreadPool(2, ownThreads);
        if (fileSync.start(syncScheduler, syncIntervalMillis)) {
            LOG.info(() -> "journal: H2 file forced to disk every " + syncIntervalMillis + " ms (" + SYNC_INTERVAL_KEY + ")");
        }
        fileCompaction = new PeriodicFileTask(this::compactFileOnce, failure -> LOG.log(Level.WARNING,
                "journal: H2 file compaction failed and is off from now on (" + COMPACT_INTERVAL_KEY + "): " + failure));
        if (fileCompaction.start(syncScheduler, compactIntervalMillis)) {
            LOG.info(() -> "journal: H2 file's chunks counted every " + compactIntervalMillis + " ms ("
                    + COMPACT_INTERVAL_KEY + "), sparse ones compacted above " + compactAboveChunks + " old chunks ("
                    + COMPACT_ABOVE_CHUNKS_KEY + ")");
        }
    }

    private void compactFileOnce() throws SQLException {
        H2FileCompaction.FileState file = store.fileState();
        if (file == null) {
            throw new SQLException("the data source is not an embedded H2 file");
        }
        if (!compactionStats.observe(System.currentTimeMillis(), file.chunks(), file.version(), file.retentionMillis(),
                compactAboveChunks, COMPACT_HARD_LIMIT_CHUNKS)) {
            return;
        }
        long started = System.nanoTime();
        long cpuStarted = ThreadCpu.now();
        int after = store.compactFile(COMPACT_FILL_RATE, compactMaxWriteBytes);
        long nanos = System.nanoTime() - started;
        // embedded H2 runs the work in the calling thread, so its CPU time is the run's
        boolean first = compactionStats.compacted(after, nanos, ThreadCpu.now() - cpuStarted);
        long millis = TimeUnit.NANOSECONDS.toMillis(nanos);
        if (first) {
            LOG.info(() -> "journal: H2 file compaction engaged (" + millis + " ms, " + file.chunks() + " chunks before, "
                    + compactionStats.oldChunks() + " of them old, " + after + " after)");
        } else {
            LOG.fine(() -> "journal: H2 file compacted in " + millis + " ms, " + file.chunks() + " -> " + after + " chunks");
        }
    }

    /**
     * The group-commit policy {@link #LINGER_FLOOR_KEY}, {@link #LINGER_ROWS_KEY} and
     * {@link #LINGER_PROMPT_FLOOR_KEY} describe; refuses values out of range.
     */
    static GroupCommitPolicy commitPolicy(long lingerFloorMicros, int lingerRows, long promptFloorMicros) {
        if (lingerFloorMicros < 0 || lingerFloorMicros > 100_000) {
            throw new IllegalStateException(LINGER_FLOOR_KEY + " must be 0 to 100000 (microseconds), not " + lingerFloorMicros);
        }
        if (promptFloorMicros < 0 || promptFloorMicros > 100_000) {
            throw new IllegalStateException(LINGER_PROMPT_FLOOR_KEY + " must be 0 to 100000 (microseconds), not " + promptFloorMicros);
        }
        if (lingerRows < 0 || lingerRows > GroupCommitPolicy.DEFAULT.maxRowsPerBatch()) {
            throw new IllegalStateException(LINGER_ROWS_KEY + " must be 0 to " + GroupCommitPolicy.DEFAULT.maxRowsPerBatch()
                    + ", not " + lingerRows);
        }
        return GroupCommitPolicy.DEFAULT.withLingerFloor(lingerFloorMicros * 1000).withLingerRows(lingerRows)
                .withPromptLingerFloor(promptFloorMicros * 1000);
    }

    /** Refuses a {@link #COMPACT_MAX_WRITE_KEY} below one H2 block. */
    static void checkCompactMaxWrite(int bytes) {
        if (bytes < 4096) {
            throw new IllegalStateException(COMPACT_MAX_WRITE_KEY + " must be at least 4096 (bytes), not " + bytes);
        }
    }

    /** The embedded file's chunk count and compaction work so far (all zero on other databases). */
    public FileCompactionStats compactionStats() {
        return compactionStats;
    }

    @PreDestroy
    void stop() {
        if (fileSync != null) {
            fileSync.close();
            fileCompaction.close();
            // not interrupted: an interrupt inside an H2 file operation closes H2's file channel
            syncScheduler.shutdown();
        }
        committer.close();
        completions.shutdown();
        try {
            // Bounded (with the committer's 3 s) inside the 10 s a SIGTERM may take; a completion still
            // running then is only a fan-out to sockets that are being closed anyway.
            if (!completions.awaitTermination(1, TimeUnit.SECONDS)) {
                completions.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // their managed threads end (and the container closes what they used) before the persistence unit does
        ExecutorStop.awaitEnded(Duration.ofSeconds(1), ownThreads, syncScheduler, completions);
    }

    @Override
    public CompletableFuture<long[]> append(List<JournalEvent.Draft> events, List<OutboxRow> outbox) {
        return committer.submit(events, outbox);
    }

    @Override
    public CompletableFuture<long[]> append(List<JournalEvent.Draft> events, List<OutboxRow> outbox,
                                            List<SideRow> sideRows) {
        return committer.submit(events, outbox, sideRows);
    }

    @Override
    public CompletableFuture<long[]> appendPrompt(List<JournalEvent.Draft> events, List<OutboxRow> outbox) {
        return committer.submit(events, outbox, SideRows.take(), true);
    }

    @Override
    public long lastSeqOf(Set<String> kinds) {
        try {
            return store.lastSeqOf(kinds);
        } catch (SQLException e) {
            throw new IllegalStateException("journal: could not read the newest event of " + kinds, e);
        }
    }

    @Override
    public long deleteBelow(long fromSeq, long belowSeq, Set<String> kinds, long[] keep) {
        try {
            return store.deleteBelow(fromSeq, belowSeq, kinds, keep, RETENTION_DELETE_WINDOW);
        } catch (SQLException e) {
            throw new IllegalStateException("journal: retention could not delete below seq " + belowSeq, e);
        }
    }

    @Override
    public boolean writesSideRows() {
        return true;
    }

    @Override
    public CompletableFuture<Void> flushed() {
        return committer.flushed();
    }

    @Override
    public List<JournalEvent> read(long afterSeq, int limit, Set<String> kinds) {
        return reader.read(afterSeq, limit, kinds);
    }

    @Override
    public JournalEvent at(long seq) {
        JournalReader.StoredEvent row;
        try {
            row = store.find(seq);
        } catch (SQLException e) {
            throw new IllegalStateException("journal read failed: " + e.getMessage(), e);
        }
        return row == null ? null : reader.decode(row);
    }

    @Override
    public long lastSeq() {
        return committer.committedSeq();
    }

    @Override
    public void replay(Consumer<JournalEvent> sink) {
        reader.replay(sink);
    }

    @Override
    public void replay(long afterSeq, Consumer<JournalEvent> sink) {
        reader.replay(afterSeq, sink);
    }

    @Override
    public List<Long> corruptSeqs() {
        return reader.corruptSeqs();
    }

    /** The committer's sink: stores the batch, then notes the senders its waiting outbox rows are for. */
    private void write(SequencedBatch batch) throws SQLException {
        store.write(batch);
        outboxAudiences.committed(batch.outbox());
    }

    @Override
    public List<OutboxRow> pendingOutbox(String sender) {
        long mark = outboxAudiences.mark(sender);
        if (mark == 0) {
            return List.of(); // no row waits for this sender: no read
        }
        List<OutboxRow> rows = new ArrayList<>();
        for (OutboxEntity entity : store.pendingOutbox(sender)) {
            rows.add(entity.toRow());
        }
        if (rows.isEmpty()) {
            outboxAudiences.foundNone(sender, mark);
        }
        return rows;
    }

    @Override
    public boolean mayHaveOutbox(String sender) {
        return outboxAudiences.mark(sender) != 0;
    }

    @Override
    public void markDelivered(List<String> notificationIds) {
        if (notificationIds != null && !notificationIds.isEmpty()) {
            store.markDelivered(List.copyOf(notificationIds), now());
        }
    }

    @Override
    public long pendingOutboxCount() {
        return store.pendingOutboxCount();
    }

    @Override
    public String hubId() {
        return hubId;
    }

    /** Group commits done since start (diagnostics). */
    public long batchesCommitted() {
        return committer.batchesCommitted();
    }

    /** The group committer's timings since start (diagnostics, {@code /metrics}). */
    public GroupCommitter timings() {
        return committer;
    }

    private String resolveHubId() {
        String configured = configuredHubId.orElse(null);
        String chosen = HubIdFormat.choose(configured, configured == null || configured.isBlank()
                ? store.setting(JournalSettingEntity.HUB_ID) : null);
        if (chosen != null) {
            return chosen;
        }
        String generated = HubIdFormat.generate(new SecureRandom());
        store.putSetting(JournalSettingEntity.HUB_ID, generated);
        return generated;
    }

    private List<JournalReader.StoredEvent> page(long afterSeq, int limit, Set<String> kinds) {
        try {
            return store.page(afterSeq, limit, kinds);
        } catch (SQLException e) {
            throw new IllegalStateException("journal read failed: " + e.getMessage(), e);
        }
    }

    private void recordQuarantine(Map<Long, String> reasons) {
        LOG.warning(() -> "journal: quarantined undecodable rows " + reasons.keySet());
        try {
            store.quarantine(reasons, now());
        } catch (RuntimeException e) {
            // The in-memory quarantine already degrades the hub; the marker is written again on the next start.
            LOG.log(Level.WARNING, "journal: could not record quarantine markers", e);
        }
    }

    private static double now() {
        return System.currentTimeMillis() / 1000.0;
    }
}
