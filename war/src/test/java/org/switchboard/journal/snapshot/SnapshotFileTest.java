package org.switchboard.journal.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The snapshot file: what is written is read back; anything doubtful means a full replay, with the reason. */
class SnapshotFileTest {

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("state.snapshot");
    }

    private static SnapshotFile.Snapshot sample() {
        return new SnapshotFile.Snapshot(4_200, Map.of("claims", "{\"live\":[\"t1\"]}", "chat", "{\"msg_id\":77,\"note\":\"é\\n\"}"));
    }

    @Test
    void aWrittenSnapshotLoadsBackWithItsSeqAndParts() throws Exception {
        SnapshotFile.write(file(), sample());
        SnapshotFile.Loaded loaded = SnapshotFile.load(file(), 5_000);
        assertTrue(loaded.usable(), loaded.reason());
        assertEquals(4_200, loaded.snapshot().seq());
        assertEquals(sample().parts(), loaded.snapshot().parts());
        assertFalse(Files.exists(dir.resolve("state.snapshot.tmp")), "the temporary file was renamed");
    }

    @Test
    void aRewriteReplacesTheOldSnapshot() throws Exception {
        SnapshotFile.write(file(), sample());
        SnapshotFile.write(file(), new SnapshotFile.Snapshot(4_300, Map.of("claims", "{}")));
        SnapshotFile.Loaded loaded = SnapshotFile.load(file(), 5_000);
        assertEquals(4_300, loaded.snapshot().seq());
        assertEquals(Map.of("claims", "{}"), loaded.snapshot().parts());
    }

    @Test
    void noFileMeansFullReplay() {
        SnapshotFile.Loaded loaded = SnapshotFile.load(file(), 5_000);
        assertFalse(loaded.usable());
        assertEquals("no snapshot", loaded.reason());
    }

    @Test
    void aDamagedBodyIsRefusedByItsChecksum() throws Exception {
        SnapshotFile.write(file(), sample());
        byte[] bytes = Files.readAllBytes(file());
        bytes[bytes.length - 3] ^= 0x01;
        Files.write(file(), bytes);
        SnapshotFile.Loaded loaded = SnapshotFile.load(file(), 5_000);
        assertFalse(loaded.usable());
        assertTrue(loaded.reason().contains("checksum"), loaded.reason());
    }

    @Test
    void anotherVersionIsRefused() throws Exception {
        SnapshotFile.write(file(), sample());
        // version 1 (JSON objects for the delivery book and idempotency ledger) is what the previous build wrote
        for (String other : new String[] {"1", "3"}) {
            String text = Files.readString(file(), StandardCharsets.UTF_8).replaceFirst("switchboard-snapshot 2 ",
                    "switchboard-snapshot " + other + " ");
            Path copy = file().resolveSibling("v" + other);
            Files.writeString(copy, text, StandardCharsets.UTF_8);
            SnapshotFile.Loaded loaded = SnapshotFile.load(copy, 5_000);
            assertFalse(loaded.usable());
            assertEquals("unknown version " + other, loaded.reason());
        }
    }

    @Test
    void aSnapshotBeyondTheJournalsEndIsRefused() throws Exception {
        SnapshotFile.write(file(), sample());
        SnapshotFile.Loaded loaded = SnapshotFile.load(file(), 4_199);
        assertFalse(loaded.usable(), "the database was restored from a backup older than the snapshot");
        assertTrue(loaded.reason().contains("beyond the journal's end"), loaded.reason());
        assertTrue(SnapshotFile.load(file(), 4_200).usable(), "a journal ending exactly at the snapshot is fine");
    }

    @Test
    void garbageIsUnreadable() throws Exception {
        Files.writeString(file(), "not a snapshot at all");
        assertFalse(SnapshotFile.load(file(), 5_000).usable());
        Files.writeString(file(), "switchboard-snapshot x 1 1 0\n");
        assertTrue(SnapshotFile.load(file(), 5_000).reason().startsWith("unreadable"));
    }

    @Test
    void aSnapshotCoversOnlyTheReadersWhosePartItHolds() {
        assertTrue(sample().covers(List.of("claims", "chat")));
        assertFalse(sample().covers(List.of("claims", "chat", "mailbox")), "the mailbox would need every event");
    }
}
