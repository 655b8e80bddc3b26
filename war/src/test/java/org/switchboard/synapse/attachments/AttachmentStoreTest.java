package org.switchboard.synapse.attachments;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AttachmentStoreTest {

    private static final String ALICE = "ACME/alice\0conn-1";
    private static final String BOB = "ACME/bob\0conn-2";
    private static final int CHUNK = 32 * 1024;

    @TempDir
    Path temp;

    private Path root;
    private final MemoryLedger ledger = new MemoryLedger();
    private double now = 1_790_000_000;
    private AttachmentStore store;

    @BeforeEach
    void open() throws IOException {
        root = temp.resolve("attachments");
        store = AttachmentStore.open(root, ledger, () -> now, AttachmentStore.Limits.SPEC);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private AttachmentMetadata meta(byte[] bytes, String mediaType) {
        return new AttachmentMetadata("ACME", sha256(bytes), bytes.length, mediaType, "ci:run/551", now + 3600);
    }

    private AttachmentMetadata upload(String owner, byte[] bytes, String mediaType) throws Exception {
        String id = store.begin(owner, meta(bytes, mediaType));
        for (int offset = 0; offset < bytes.length; offset += CHUNK) {
            store.chunk(owner, id, offset, Arrays.copyOfRange(bytes, offset, Math.min(bytes.length, offset + CHUNK)));
        }
        return store.commit(owner, id);
    }

    private static void refused(String error, Supplier<?> call) {
        AttachmentRefusal refusal = assertThrows(AttachmentRefusal.class, call::get);
        assertEquals(error, refusal.error());
    }

    private static void refused(String error, Runnable call) {
        refused(error, () -> {
            call.run();
            return null;
        });
    }

    private long stagedFiles() throws IOException {
        try (var files = Files.list(root.resolve("staging"))) {
            return files.count();
        }
    }

    @Test
    void directoriesAreOwnerOnlyAndAGroupWritableParentIsRefused() throws Exception {
        for (Path dir : List.of(root, root.resolve("staging"), root.resolve("objects"))) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        }
        Path shared = Files.createDirectory(temp.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxr-x"));
        assertThrows(IOException.class,
                () -> AttachmentStore.open(shared.resolve("a"), new MemoryLedger(), () -> now, AttachmentStore.Limits.SPEC));
        Path link = Files.createSymbolicLink(temp.resolve("link"), root);
        assertThrows(IOException.class,
                () -> AttachmentStore.open(link, new MemoryLedger(), () -> now, AttachmentStore.Limits.SPEC));
    }

    @Test
    void fiveMebibytesRoundTripInThirtyTwoKibChunks() throws Exception {
        byte[] bytes = new byte[5 * 1024 * 1024];
        new Random(17).nextBytes(bytes);
        AttachmentMetadata stored = upload(ALICE, bytes, "application/octet-stream");
        assertEquals(bytes.length, stored.length());
        assertEquals(stored, store.info("ACME", stored.digest()));
        // the file lives under the server-generated name only
        Path file = root.resolve("objects").resolve(AttachmentStore.fileName("ACME", stored.digest()));
        assertTrue(Files.isRegularFile(file));
        assertEquals(sha256(("ACME\0" + stored.digest()).getBytes(StandardCharsets.UTF_8)), file.getFileName().toString());
        ByteArrayOutputStream back = new ByteArrayOutputStream();
        long offset = 0;
        int reads = 0;
        while (true) {
            AttachmentStore.Chunk chunk = store.read("ACME", stored.digest(), offset, false);
            assertTrue(chunk.body().length <= CHUNK);
            back.write(chunk.body());
            offset += chunk.body().length;
            reads++;
            if (chunk.eof()) {
                break;
            }
        }
        assertEquals(160, reads);
        assertArrayEquals(bytes, back.toByteArray());
        assertEquals(0, stagedFiles());
        assertTrue(ledger.uploads.isEmpty());
    }

    @Test
    void digestMismatchAbortsTheUpload() throws Exception {
        byte[] bytes = "hello".getBytes(StandardCharsets.UTF_8);
        AttachmentMetadata claimed = new AttachmentMetadata("ACME", sha256("other".getBytes(StandardCharsets.UTF_8)),
                5, "text/plain", "p", now + 60);
        String id = store.begin(ALICE, claimed);
        store.chunk(ALICE, id, 0, bytes);
        refused(AttachmentErrors.DIGEST_MISMATCH, () -> store.commit(ALICE, id));
        refused(AttachmentErrors.UNKNOWN_UPLOAD, () -> store.commit(ALICE, id));
        refused(AttachmentErrors.UNAVAILABLE, () -> store.info("ACME", claimed.digest()));
        assertEquals(0, stagedFiles());
        assertEquals(0, store.activeUploads());
        assertTrue(ledger.uploads.isEmpty());
    }

    @Test
    void chunkRules() throws Exception {
        byte[] bytes = "abcdef".getBytes(StandardCharsets.UTF_8);
        String id = store.begin(ALICE, meta(bytes, "text/plain"));
        refused(AttachmentErrors.UNKNOWN_UPLOAD, () -> store.chunk(BOB, id, 0, bytes));
        refused(AttachmentErrors.UNKNOWN_UPLOAD, () -> store.chunk(ALICE, "nothex", 0, bytes));
        refused(AttachmentErrors.UNKNOWN_UPLOAD, () -> store.chunk("ACME/alice\0conn-9", id, 0, bytes));
        refused(AttachmentErrors.INVALID_OFFSET, () -> store.chunk(ALICE, id, 1, bytes));
        refused(AttachmentErrors.INVALID_CHUNK_LENGTH, () -> store.chunk(ALICE, id, 0, new byte[0]));
        refused(AttachmentErrors.INVALID_CHUNK_LENGTH, () -> store.chunk(ALICE, id, 0, new byte[7]));
        assertEquals(3, store.chunk(ALICE, id, 0, Arrays.copyOf(bytes, 3)));
        refused(AttachmentErrors.INCOMPLETE, () -> store.commit(ALICE, id));
        // bytes appended behind the store's back: the staging file no longer matches the count
        Files.write(root.resolve("staging").resolve(id), new byte[] {1}, StandardOpenOption.APPEND);
        refused(AttachmentErrors.STAGING_MISMATCH, () -> store.chunk(ALICE, id, 3, Arrays.copyOfRange(bytes, 3, 6)));
        store.abort(ALICE, id);
        assertEquals(0, stagedFiles());
        refused(AttachmentErrors.UNKNOWN_UPLOAD, () -> store.abort(ALICE, id));
    }

    @Test
    void anIncompleteUploadIsNeverReadable() throws Exception {
        byte[] bytes = "abcdef".getBytes(StandardCharsets.UTF_8);
        AttachmentMetadata m = meta(bytes, "text/plain");
        String id = store.begin(ALICE, m);
        store.chunk(ALICE, id, 0, bytes);
        refused(AttachmentErrors.UNAVAILABLE, () -> store.read("ACME", m.digest(), 0, false));
        refused(AttachmentErrors.UNAVAILABLE, () -> store.info("ACME", m.digest()));
    }

    @Test
    void disconnectDiscardsOnlyThatSessionsStaging() throws Exception {
        byte[] a = "aaaa".getBytes(StandardCharsets.UTF_8);
        byte[] b = "bbbb".getBytes(StandardCharsets.UTF_8);
        String mine = store.begin(ALICE, meta(a, "text/plain"));
        store.chunk(ALICE, mine, 0, Arrays.copyOf(a, 2));
        String theirs = store.begin(BOB, meta(b, "text/plain"));
        assertEquals(2, stagedFiles());
        assertEquals(1, store.sessionClosed(ALICE));
        assertEquals(1, stagedFiles());
        assertEquals(1, store.activeUploads());
        refused(AttachmentErrors.UNKNOWN_UPLOAD, () -> store.chunk(ALICE, mine, 2, Arrays.copyOfRange(a, 2, 4)));
        store.chunk(BOB, theirs, 0, b);
        assertEquals(4, store.commit(BOB, theirs).length());
        assertEquals(0, ledger.uploads.size());
    }

    @Test
    void restartDiscardsStagingAndOrphanObjects() throws Exception {
        byte[] kept = "kept".getBytes(StandardCharsets.UTF_8);
        AttachmentMetadata stored = upload(ALICE, kept, "text/plain");
        String id = store.begin(ALICE, meta("half".getBytes(StandardCharsets.UTF_8), "text/plain"));
        store.chunk(ALICE, id, 0, "ha".getBytes(StandardCharsets.UTF_8));
        // a crash between rename and the ledger commit leaves an object file with no row
        Path orphan = root.resolve("objects").resolve(AttachmentStore.fileName("ACME", "0".repeat(64)));
        Files.write(orphan, new byte[] {1, 2});
        assertEquals(1, stagedFiles());
        assertEquals(1, ledger.uploads.size());

        AttachmentStore restarted = AttachmentStore.open(root, ledger, () -> now, AttachmentStore.Limits.SPEC);
        assertEquals(0, stagedFiles());
        assertTrue(ledger.uploads.isEmpty());
        assertEquals(0, restarted.activeUploads());
        assertFalse(Files.exists(orphan));
        refused(AttachmentErrors.UNKNOWN_UPLOAD, () -> restarted.chunk(ALICE, id, 2, "lf".getBytes(StandardCharsets.UTF_8)));
        assertArrayEquals(kept, restarted.read("ACME", stored.digest(), 0, false).body());
    }

    @Test
    void readVerifiesTheCompleteDigestAndStoredLength() throws Exception {
        byte[] bytes = new byte[100_000];
        new Random(3).nextBytes(bytes);
        AttachmentMetadata stored = upload(ALICE, bytes, "application/octet-stream");
        Path file = root.resolve("objects").resolve(AttachmentStore.fileName("ACME", stored.digest()));
        byte[] corrupted = bytes.clone();
        corrupted[99_999] ^= 1; // beyond the first chunk: only a full-file check notices
        Files.write(file, corrupted);
        refused(AttachmentErrors.STORED_DIGEST_MISMATCH, () -> store.read("ACME", stored.digest(), 0, false));
        Files.write(file, Arrays.copyOf(bytes, 99_999));
        refused(AttachmentErrors.STORED_LENGTH_MISMATCH, () -> store.read("ACME", stored.digest(), 0, false));
        Files.write(file, bytes);
        assertEquals(100_000 - 3 * CHUNK, store.read("ACME", stored.digest(), 3 * CHUNK, false).body().length);
        assertTrue(store.read("ACME", stored.digest(), 3 * CHUNK, false).eof());
        assertTrue(store.read("ACME", stored.digest(), 100_000, false).eof());
        refused(AttachmentErrors.INVALID_READ_OFFSET, () -> store.read("ACME", stored.digest(), 100_001, false));
        refused(AttachmentErrors.INVALID_READ_OFFSET, () -> store.read("ACME", stored.digest(), -1, false));
        now = stored.expiresAt();
        refused(AttachmentErrors.EXPIRED, () -> store.read("ACME", stored.digest(), 0, false));
    }

    @Test
    void emptyObjectRoundTrip() throws Exception {
        AttachmentMetadata stored = upload(ALICE, new byte[0], "text/plain");
        AttachmentStore.Chunk chunk = store.read("ACME", stored.digest(), 0, true);
        assertEquals(0, chunk.body().length);
        assertTrue(chunk.eof());
        assertEquals("", chunk.previewHtml());
    }

    @Test
    void quotas() throws Exception {
        AttachmentStore small = AttachmentStore.open(temp.resolve("small"), new MemoryLedger(), () -> now,
                new AttachmentStore.Limits(4, 12, 8));
        byte[][] objects = new byte[6][];
        for (int i = 0; i < objects.length; i++) {
            objects[i] = ("obj" + i).getBytes(StandardCharsets.UTF_8);
        }
        refused(AttachmentErrors.INVALID_LENGTH, () -> small.begin(ALICE, new AttachmentMetadata("ACME", "a".repeat(64), 9,
                "text/plain", "p", now + 1)));
        String first = small.begin(ALICE, meta(objects[0], "text/plain"));
        small.begin(ALICE, meta(objects[1], "text/plain"));
        small.begin(ALICE, meta(objects[2], "text/plain"));
        // 16 bytes reserved in ACME would pass 12: the scope quota counts reservations
        refused(AttachmentErrors.SCOPE_QUOTA, () -> small.begin(ALICE, meta(objects[3], "text/plain")));
        small.begin(ALICE, new AttachmentMetadata("OTHER", meta(objects[3], "text/plain").digest(), 4, "text/plain", "p", now + 1));
        refused(AttachmentErrors.TOO_MANY_UPLOADS, () -> small.begin(BOB, new AttachmentMetadata("THIRD",
                meta(objects[4], "text/plain").digest(), 4, "text/plain", "p", now + 1)));
        small.chunk(ALICE, first, 0, objects[0]);
        small.commit(ALICE, first);
        refused(AttachmentErrors.ALREADY_EXISTS, () -> small.begin(BOB, meta(objects[0], "text/plain")));
        // the committed object still counts (ready bytes) after its upload is gone
        assertEquals(3, small.sessionClosed(ALICE));
        small.begin(BOB, meta(objects[4], "text/plain"));
        small.begin(BOB, meta(objects[5], "text/plain"));
        refused(AttachmentErrors.SCOPE_QUOTA, () -> small.begin(BOB, meta(new byte[] {1}, "text/plain")));
    }

    @Test
    void gcKeepsReferencedAndUnexpiredObjects() throws Exception {
        AttachmentMetadata referenced = upload(ALICE, "one".getBytes(StandardCharsets.UTF_8), "text/plain");
        AttachmentMetadata loose = upload(ALICE, "two".getBytes(StandardCharsets.UTF_8), "text/plain");
        AttachmentMetadata fresh = store.commit(ALICE, beginAndFill(new AttachmentMetadata("ACME",
                sha256("three".getBytes(StandardCharsets.UTF_8)), 5, "text/plain", "p", now + 7200), "three"));
        store.ref("ACME", referenced.digest(), "ticket:1", false);
        store.ref("ACME", referenced.digest(), "ticket:1", false); // idempotent
        refused(AttachmentErrors.UNAVAILABLE, () -> store.ref("ACME", "f".repeat(64), "ticket:1", false));
        assertEquals(List.of(), store.gc("ACME", true));

        now += 3601; // the first two expire, the third does not
        refused(AttachmentErrors.EXPIRED, () -> store.ref("ACME", loose.digest(), "ticket:2", false));
        assertEquals(List.of(loose.digest()), store.gc("ACME", true));
        assertEquals(List.of(loose.digest()), store.gc("ACME", true)); // a dry run deletes nothing
        assertEquals(List.of(), store.gc("OTHER", false));
        assertEquals(List.of(loose.digest()), store.gc("ACME", false));
        refused(AttachmentErrors.UNAVAILABLE, () -> store.info("ACME", loose.digest()));
        assertFalse(Files.exists(root.resolve("objects").resolve(AttachmentStore.fileName("ACME", loose.digest()))));

        store.ref("ACME", referenced.digest(), "ticket:1", true); // removal allowed after expiry
        assertEquals(List.of(referenced.digest()), store.gc("ACME", false));
        assertEquals(fresh, store.info("ACME", fresh.digest()));
    }

    private String beginAndFill(AttachmentMetadata metadata, String text) {
        String id = store.begin(ALICE, metadata);
        store.chunk(ALICE, id, 0, text.getBytes(StandardCharsets.UTF_8));
        return id;
    }

    @Test
    void previewIsEscapedAndOnlyForPlainTextAtOffsetZero() throws Exception {
        String text = "<script>alert(\"x\" & 'y')</script>";
        AttachmentMetadata plain = upload(ALICE, text.getBytes(StandardCharsets.UTF_8), "text/plain");
        assertEquals("&lt;script&gt;alert(&quot;x&quot; &amp; &#x27;y&#x27;)&lt;/script&gt;",
                store.read("ACME", plain.digest(), 0, true).previewHtml());
        assertNull(store.read("ACME", plain.digest(), 0, false).previewHtml());
        assertNull(store.read("ACME", plain.digest(), 1, true).previewHtml());
        AttachmentMetadata html = upload(ALICE, "<b>x</b>".getBytes(StandardCharsets.UTF_8), "text/html");
        assertNull(store.read("ACME", html.digest(), 0, true).previewHtml());
        byte[] long1 = new byte[600];
        Arrays.fill(long1, (byte) '<');
        long1[511] = (byte) 0xC3; // a split multi-byte sequence is replaced, never passed through
        AttachmentMetadata big = upload(ALICE, long1, "text/plain");
        String preview = store.read("ACME", big.digest(), 0, true).previewHtml();
        assertEquals("&lt;".repeat(511) + "\uFFFD", preview);
    }

    @Test
    void aFailedLedgerCommitLeavesNothingReadable() throws Exception {
        byte[] bytes = "data".getBytes(StandardCharsets.UTF_8);
        AttachmentMetadata m = meta(bytes, "text/plain");
        String id = store.begin(ALICE, m);
        store.chunk(ALICE, id, 0, bytes);
        ledger.failCommits = true;
        refused(AttachmentErrors.UNAVAILABLE, () -> store.commit(ALICE, id));
        ledger.failCommits = false;
        assertFalse(Files.exists(root.resolve("objects").resolve(AttachmentStore.fileName("ACME", m.digest()))));
        assertEquals(0, store.activeUploads());
        refused(AttachmentErrors.UNAVAILABLE, () -> store.info("ACME", m.digest()));
    }
}
