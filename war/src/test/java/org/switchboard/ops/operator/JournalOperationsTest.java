package org.switchboard.ops.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.InMemoryJournal;

class JournalOperationsTest {

    private static final double NOW = 1_767_225_600.0; // 2026-01-01T00:00:00Z

    @TempDir
    Path data;

    /** A database double: H2 or not, counting backups by writing a file. */
    private static final class FakeDatabase implements JournalOperations.Database {
        final boolean h2;
        final List<Path> backups = new ArrayList<>();

        FakeDatabase(boolean h2) {
            this.h2 = h2;
        }

        @Override
        public long journalRows() {
            return 42;
        }

        @Override
        public boolean isH2() {
            return h2;
        }

        @Override
        public void backupTo(Path zip) throws Exception {
            Files.writeString(zip, "zip");
            backups.add(zip);
        }
    }

    @Test
    void statsReportSeqRowsBytesAndReplayTime() throws Exception {
        InMemoryJournal journal = new InMemoryJournal();
        journal.append("chat", Json.createObjectBuilder().add("x", 1).build()).join();
        Files.createDirectories(data.resolve("db"));
        Files.write(data.resolve("db/switchboard.mv.db"), new byte[1234]);
        JournalOperations ops = new JournalOperations(journal, new FakeDatabase(true), data, () -> 77, () -> NOW);
        JournalOperations.Stats stats = ops.stats();
        assertEquals(1, stats.lastSeq());
        assertEquals(42, stats.rows());
        assertEquals(1234, stats.sizeBytes());
        assertEquals(77, stats.replayMillis());
    }

    @Test
    void backupWritesATimestampedZipAndJournalsIt() {
        InMemoryJournal journal = new InMemoryJournal();
        FakeDatabase db = new FakeDatabase(true);
        JournalOperations ops = new JournalOperations(journal, db, data, () -> 0, () -> NOW);
        Path zip = ops.backup("jmx:controlRole");
        assertEquals(data.resolve("backups/switchboard-20260101-000000.zip"), zip);
        assertTrue(Files.exists(zip));
        JournalEvent audit = journal.events().get(0);
        assertEquals(OperatorAudit.KIND, audit.kind());
        assertEquals("journal.backup", audit.payload().getString("operation"));
        assertEquals(zip.toString(), audit.payload().getString("target"));
        assertEquals("jmx:controlRole", audit.payload().getString("principal"));
        // same second again: refused, the first file is kept
        assertEquals(409, assertThrows(OperatorRefusal.class, () -> ops.backup("p")).status());
        assertEquals(1, db.backups.size());
    }

    @Test
    void backupIsRefusedOffH2() {
        InMemoryJournal journal = new InMemoryJournal();
        JournalOperations ops = new JournalOperations(journal, new FakeDatabase(false), data, () -> 0, () -> NOW);
        assertEquals(409, assertThrows(OperatorRefusal.class, () -> ops.backup("p")).status());
        assertEquals(-1, ops.stats().sizeBytes());
        assertTrue(journal.events().isEmpty());
    }
}
