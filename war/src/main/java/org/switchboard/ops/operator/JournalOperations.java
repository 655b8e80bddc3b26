package org.switchboard.ops.operator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.switchboard.journal.Journal;

/**
 * The journal's operator view (last seq, rows, bytes on disk, replay time, pending receipts) and the
 * online backup: an H2 {@code BACKUP TO} zip under {@code <data dir>/backups/}, journalled as an
 * {@link OperatorAudit} event once written. Other databases are refused (use their own tools).
 */
public final class JournalOperations {

    /** File names of backups: {@code switchboard-<UTC yyyyMMdd-HHmmss>.zip}. */
    static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    /** The figures shown. {@code sizeBytes} is -1 when the database is not an H2 file in the data dir. */
    public record Stats(long lastSeq, long rows, long sizeBytes, long replayMillis, long pendingOutbox, long quarantinedRows) {
    }

    /** What the operations need from the database itself. */
    public interface Database {

        /** Rows in the journal table. */
        long journalRows();

        /** True when the database is H2 (backups are possible). */
        boolean isH2();

        /** Writes an online backup of the whole database to {@code zip}. */
        void backupTo(Path zip) throws Exception;
    }

    private final Journal journal;
    private final Database database;
    private final Path dataDir;
    private final LongSupplier replayMillis;
    private final DoubleSupplier clock;

    /**
     * @param journal      the journal (null on a hub without one: stats are zero, backups refused)
     * @param database     row count and backup
     * @param dataDir      the hub's data directory ({@code hub.data-dir})
     * @param replayMillis how long the start-up replay took
     * @param clock        epoch seconds
     */
    public JournalOperations(Journal journal, Database database, Path dataDir, LongSupplier replayMillis, DoubleSupplier clock) {
        this.journal = journal;
        this.database = database;
        this.dataDir = dataDir;
        this.replayMillis = replayMillis;
        this.clock = clock;
    }

    /** The current figures. */
    public Stats stats() {
        if (journal == null) {
            return new Stats(0, 0, -1, replayMillis.getAsLong(), 0, 0);
        }
        return new Stats(journal.lastSeq(), database.journalRows(), database.isH2() ? databaseBytes() : -1,
                replayMillis.getAsLong(), journal.pendingOutboxCount(), journal.corruptSeqs().size());
    }

    /** Bytes of the H2 files under {@code <data dir>/db} (the launcher's layout). */
    long databaseBytes() {
        Path db = dataDir.resolve("db");
        if (!Files.isDirectory(db)) {
            return -1;
        }
        try (Stream<Path> files = Files.list(db)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0; // a file H2 removed meanwhile
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where a backup made at {@code epochSeconds} goes. */
    public Path backupFile(double epochSeconds) {
        return dataDir.resolve("backups").resolve("switchboard-" + STAMP.format(Instant.ofEpochMilli((long) (epochSeconds * 1000))) + ".zip");
    }

    /**
     * Writes an online backup and journals who made it and where; returns the file. Refused (409) on a
     * database that is not H2 and on a hub without a journal; an existing file of the same second is
     * not overwritten (409).
     */
    public Path backup(String principal) {
        if (journal == null || !database.isH2()) {
            throw OperatorRefusal.conflict("online backup is for the embedded H2 database; use the database's own tools (pg_dump)");
        }
        double now = clock.getAsDouble();
        Path zip = backupFile(now);
        if (Files.exists(zip)) {
            throw OperatorRefusal.conflict("a backup was already written this second: " + zip.getFileName());
        }
        try {
            Files.createDirectories(zip.getParent());
            database.backupTo(zip);
        } catch (OperatorRefusal e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("backup to " + zip + " failed: " + e.getMessage(), e);
        }
        try {
            journal.append(List.of(OperatorAudit.event(principal, "journal.backup", zip.toString(), "", now)), List.of())
                    .get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("backup written to " + zip + " but its audit event was not journalled", e);
        } catch (Exception e) {
            throw new IllegalStateException("backup written to " + zip + " but its audit event was not journalled", e);
        }
        return zip;
    }
}
