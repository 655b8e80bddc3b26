package org.switchboard.journal.snapshot;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * The file of a state snapshot (issue 20): format version, the journal seq the state covers, one text
 * part per start-up reader, and a CRC-32 of the body; written atomically (temporary file, forced to
 * disk, renamed over the old one), and loaded only when every check passes. {@link StartupSnapshot} writes
 * and reads it at start-up (journal.md, "Restart time").
 */
public final class SnapshotFile {

    /**
     * The only format this code writes and reads. 2: the delivery book and idempotency ledger as rows
     * (a version-1 file is ignored with a WARNING and the journal replayed once, never misread).
     */
    public static final int VERSION = 2;
    private static final String MAGIC = "switchboard-snapshot";

    /** A snapshot: the state as of journal seq {@code seq}, by part name (each part's own text). */
    public record Snapshot(long seq, Map<String, String> parts) {
        public Snapshot {
            parts = Map.copyOf(parts);
        }

        /** True when every one of {@code readers} has a part here (else the start must replay everything). */
        public boolean covers(Collection<String> readers) {
            return parts.keySet().containsAll(readers);
        }
    }

    /** The outcome of a load: the snapshot to start from, or null and why a full replay is needed. */
    public record Loaded(Snapshot snapshot, String reason) {
        /** True when the start may replay only the events after {@link Snapshot#seq()}. */
        public boolean usable() {
            return snapshot != null;
        }
    }

    private SnapshotFile() {
    }

    /** Writes {@code snapshot} to {@code file} atomically: a crash leaves the old file or the new one, never a mix. */
    public static void write(Path file, Snapshot snapshot) throws IOException {
        StringBuilder body = new StringBuilder();
        // sorted, so the same state always gives the same bytes
        new TreeMap<>(snapshot.parts()).forEach((name, text) -> {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            body.append(name).append(' ').append(bytes.length).append('\n').append(text).append('\n');
        });
        byte[] bodyBytes = body.toString().getBytes(StandardCharsets.UTF_8);
        CRC32 crc = new CRC32();
        crc.update(bodyBytes);
        byte[] header = (MAGIC + " " + VERSION + " " + snapshot.seq() + " " + snapshot.parts().size() + " "
                + Long.toHexString(crc.getValue()) + "\n").getBytes(StandardCharsets.UTF_8);
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            out.write(java.nio.ByteBuffer.wrap(header));
            out.write(java.nio.ByteBuffer.wrap(bodyBytes));
            out.force(true);
        }
        try {
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Loads {@code file} for a journal whose highest seq is {@code journalLastSeq}. Missing, unreadable
     * (bad header, length or checksum), of another version, or covering a seq beyond the journal's end
     * (the database was restored from an older backup): not usable, with the reason.
     */
    public static Loaded load(Path file, long journalLastSeq) {
        byte[] all;
        try {
            all = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new Loaded(null, "no snapshot");
        } catch (IOException e) {
            return new Loaded(null, "unreadable: " + e.getMessage());
        }
        int newline = indexOf(all, 0);
        if (newline < 0) {
            return new Loaded(null, "unreadable: no header");
        }
        String[] header = new String(all, 0, newline, StandardCharsets.UTF_8).split(" ");
        if (header.length != 5 || !MAGIC.equals(header[0])) {
            return new Loaded(null, "unreadable: not a snapshot header");
        }
        long seq;
        int count;
        long expectedCrc;
        try {
            if (Integer.parseInt(header[1]) != VERSION) {
                return new Loaded(null, "unknown version " + header[1]);
            }
            seq = Long.parseLong(header[2]);
            count = Integer.parseInt(header[3]);
            expectedCrc = Long.parseLong(header[4], 16);
        } catch (NumberFormatException e) {
            return new Loaded(null, "unreadable: bad header field");
        }
        CRC32 crc = new CRC32();
        crc.update(all, newline + 1, all.length - newline - 1);
        if (crc.getValue() != expectedCrc) {
            return new Loaded(null, "unreadable: checksum mismatch");
        }
        if (seq > journalLastSeq) {
            return new Loaded(null, "covers seq " + seq + " beyond the journal's end " + journalLastSeq);
        }
        Map<String, String> parts = new TreeMap<>();
        int at = newline + 1;
        try {
            for (int i = 0; i < count; i++) {
                int end = indexOf(all, at);
                String[] partHeader = new String(all, at, end - at, StandardCharsets.UTF_8).split(" ");
                int length = Integer.parseInt(partHeader[1]);
                parts.put(partHeader[0], new String(all, end + 1, length, StandardCharsets.UTF_8));
                at = end + 1 + length + 1;
            }
        } catch (RuntimeException e) {
            return new Loaded(null, "unreadable: bad part");
        }
        return new Loaded(new Snapshot(seq, parts), "snapshot at seq " + seq);
    }

    private static int indexOf(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
