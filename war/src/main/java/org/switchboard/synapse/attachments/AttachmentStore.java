package org.switchboard.synapse.attachments;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The scoped attachment store of synapse-advanced §3 in plain Java: owner-only directories, staged
 * uploads owned by one socket session, atomic commit, full-digest verification on every read, quotas
 * and garbage collection. File names are always computed by the store; nothing from the wire is ever
 * used as a path.
 */
public final class AttachmentStore {

    private static final Logger LOG = Logger.getLogger(AttachmentStore.class.getName());
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    private static final int PREVIEW_BYTES = 512;

    /** The store's quotas (§3.4): active uploads hub-wide, ready+reserved bytes per scope, bytes per object. */
    public record Limits(int maxActiveUploads, long maxScopeBytes, long maxObjectBytes) {
        /** The §3.4 values: 4 uploads, 256 MiB per scope, 8 MiB per object. */
        public static final Limits SPEC = new Limits(4, 256L * 1024 * 1024, AttachmentGrammar.MAX_LENGTH);
    }

    /** One read result: the chunk, whether it reaches the end, and the escaped preview if asked for. */
    public record Chunk(byte[] body, boolean eof, long offset, String previewHtml) {
    }

    /** An open upload; lives only in memory and in the ledger's upload table until commit or abort. */
    private static final class Upload {
        final String id;
        final String owner;
        final AttachmentMetadata metadata;
        long received;

        Upload(String id, String owner, AttachmentMetadata metadata) {
            this.id = id;
            this.owner = owner;
            this.metadata = metadata;
        }
    }

    private final Path staging;
    private final Path objects;
    private final AttachmentLedger ledger;
    private final DoubleSupplier clock;
    private final Limits limits;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Upload> uploads = new LinkedHashMap<>();

    private AttachmentStore(Path root, AttachmentLedger ledger, DoubleSupplier clock, Limits limits) {
        this.staging = root.resolve("staging");
        this.objects = root.resolve("objects");
        this.ledger = ledger;
        this.clock = clock;
        this.limits = limits;
    }

    /**
     * Opens the store at {@code root}: refuses a root whose parent is group/other-writable or a
     * symlinked/over-permissive root, creates {@code root}, {@code staging/}, {@code objects/} with mode
     * 0700, then discards every staged upload (uploads never survive a restart) and any object file the
     * ledger does not know (a crash between rename and ledger commit).
     */
    public static AttachmentStore open(Path root, AttachmentLedger ledger, DoubleSupplier clock, Limits limits)
            throws IOException {
        Path absolute = root.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new IOException("attachment root's parent " + parent + " is not a directory");
        }
        Set<PosixFilePermission> parentPerms = Files.getPosixFilePermissions(parent);
        if (parentPerms.contains(PosixFilePermission.GROUP_WRITE) || parentPerms.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new IOException("attachment root's parent " + parent + " is writable by group or others");
        }
        for (Path dir : List.of(absolute, absolute.resolve("staging"), absolute.resolve("objects"))) {
            ownerOnlyDirectory(dir);
        }
        AttachmentStore store = new AttachmentStore(absolute, ledger, clock, limits);
        store.recover();
        return store;
    }

    private static void ownerOnlyDirectory(Path dir) throws IOException {
        if (Files.isSymbolicLink(dir)) {
            throw new IOException(dir + " is a symbolic link");
        }
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(dir + " is not a directory");
        }
        // createDirectory is subject to the umask; set the mode explicitly and refuse a foreign owner's tree
        Files.setPosixFilePermissions(dir, OWNER_ONLY);
    }

    private void recover() throws IOException {
        ledger.deleteAllUploads();
        try (DirectoryStream<Path> staged = Files.newDirectoryStream(staging)) {
            for (Path file : staged) {
                Files.deleteIfExists(file);
            }
        }
        Set<String> known = new HashSet<>();
        for (AttachmentMetadata metadata : ledger.all()) {
            known.add(fileName(metadata.scope(), metadata.digest()));
        }
        try (DirectoryStream<Path> stored = Files.newDirectoryStream(objects)) {
            for (Path file : stored) {
                if (!known.contains(file.getFileName().toString())) {
                    LOG.warning("attachment store: removing an object file with no ledger row");
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    /** The server-generated object file name: {@code hex(SHA-256(UTF-8(scope + "\0" + digest)))}. */
    public static String fileName(String scope, String digest) {
        return HexFormat.of().formatHex(sha256().digest((scope + "\0" + digest).getBytes(StandardCharsets.UTF_8)));
    }

    // ---- uploads ----

    /** {@code attachment_begin}: reserves quota and opens an empty staging file owned by {@code owner}; returns the upload id. */
    public synchronized String begin(String owner, AttachmentMetadata metadata) {
        if (metadata.length() > limits.maxObjectBytes()) {
            throw new AttachmentRefusal(AttachmentErrors.INVALID_LENGTH);
        }
        if (ledger.find(metadata.scope(), metadata.digest()).isPresent()) {
            throw new AttachmentRefusal(AttachmentErrors.ALREADY_EXISTS);
        }
        if (uploads.size() >= limits.maxActiveUploads()) {
            throw new AttachmentRefusal(AttachmentErrors.TOO_MANY_UPLOADS);
        }
        if (scopeBytes(metadata.scope()) + metadata.length() > limits.maxScopeBytes()) {
            throw new AttachmentRefusal(AttachmentErrors.SCOPE_QUOTA);
        }
        byte[] id = new byte[24];
        random.nextBytes(id);
        String uploadId = HexFormat.of().formatHex(id);
        try {
            Files.createFile(staging.resolve(uploadId),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            ledger.insertUpload(uploadId, metadata.scope(), metadata.digest(), metadata.length(), owner);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(staging.resolve(uploadId));
            throw unavailable("begin", e);
        }
        uploads.put(uploadId, new Upload(uploadId, owner, metadata));
        return uploadId;
    }

    private long scopeBytes(String scope) {
        long total = 0;
        for (AttachmentMetadata ready : ledger.inScope(scope)) {
            total += ready.length();
        }
        for (Upload upload : uploads.values()) {
            if (upload.metadata.scope().equals(scope)) {
                total += upload.metadata.length();
            }
        }
        return total;
    }

    /** {@code attachment_chunk}: appends {@code body} at {@code offset} and fsyncs; returns the new total. */
    public synchronized long chunk(String owner, String uploadId, long offset, byte[] body) {
        Upload upload = owned(owner, uploadId);
        if (offset != upload.received) {
            throw new AttachmentRefusal(AttachmentErrors.INVALID_OFFSET);
        }
        if (body.length == 0 || body.length > AttachmentGrammar.MAX_CHUNK
                || upload.received + body.length > upload.metadata.length()) {
            throw new AttachmentRefusal(AttachmentErrors.INVALID_CHUNK_LENGTH);
        }
        Path file = staging.resolve(upload.id);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND,
                LinkOption.NOFOLLOW_LINKS)) {
            if (channel.size() != offset) {
                throw new AttachmentRefusal(AttachmentErrors.STAGING_MISMATCH);
            }
            ByteBuffer buffer = ByteBuffer.wrap(body);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        } catch (IOException e) {
            throw unavailable("chunk", e);
        }
        upload.received += body.length;
        return upload.received;
    }

    /**
     * {@code attachment_commit}: hashes the staged file; a mismatch aborts the upload. Otherwise renames
     * it atomically into {@code objects/}, fsyncs the directory, then commits metadata + upload-row delete.
     */
    public synchronized AttachmentMetadata commit(String owner, String uploadId) {
        Upload upload = owned(owner, uploadId);
        if (upload.received != upload.metadata.length()) {
            throw new AttachmentRefusal(AttachmentErrors.INCOMPLETE);
        }
        Path file = staging.resolve(upload.id);
        String actual;
        try {
            if (Files.size(file) != upload.metadata.length()) {
                discard(upload);
                throw new AttachmentRefusal(AttachmentErrors.STAGING_MISMATCH);
            }
            actual = hash(file);
        } catch (IOException e) {
            discard(upload);
            throw unavailable("commit", e);
        }
        if (!actual.equals(upload.metadata.digest())) {
            discard(upload);
            throw new AttachmentRefusal(AttachmentErrors.DIGEST_MISMATCH);
        }
        Path target = objects.resolve(fileName(upload.metadata.scope(), upload.metadata.digest()));
        try {
            Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
            fsyncDirectory(objects);
            fsyncDirectory(staging);
        } catch (IOException e) {
            discard(upload);
            throw unavailable("commit", e);
        }
        try {
            ledger.commit(upload.id, upload.metadata);
        } catch (RuntimeException e) {
            // the object is not in the ledger, so it must not stay readable or count as stored
            deleteQuietly(target);
            discard(upload);
            throw unavailable("commit", e);
        }
        uploads.remove(upload.id);
        return upload.metadata;
    }

    /** {@code attachment_abort}: discards the staging file and releases the quota. */
    public synchronized void abort(String owner, String uploadId) {
        discard(owned(owner, uploadId));
    }

    /** The socket session {@code owner} ended: its uploads are discarded (never resumable). */
    public synchronized int sessionClosed(String owner) {
        List<Upload> gone = new ArrayList<>();
        for (Upload upload : uploads.values()) {
            if (upload.owner.equals(owner)) {
                gone.add(upload);
            }
        }
        gone.forEach(this::discard);
        return gone.size();
    }

    /** Open uploads hub-wide. */
    public synchronized int activeUploads() {
        return uploads.size();
    }

    private Upload owned(String owner, String uploadId) {
        Upload upload = AttachmentGrammar.isUploadId(uploadId) ? uploads.get(uploadId) : null;
        if (upload == null || !upload.owner.equals(owner)) {
            throw new AttachmentRefusal(AttachmentErrors.UNKNOWN_UPLOAD);
        }
        return upload;
    }

    private void discard(Upload upload) {
        uploads.remove(upload.id);
        deleteQuietly(staging.resolve(upload.id));
        try {
            ledger.deleteUpload(upload.id);
        } catch (RuntimeException e) {
            // the row is swept on the next start; the upload is already gone from memory and disk
            LOG.log(Level.WARNING, "attachment store: could not delete an upload row", e);
        }
    }

    // ---- reads ----

    /** {@code attachment_info}: the metadata, or {@code attachment unavailable}. */
    public AttachmentMetadata info(String scope, String digest) {
        return ledger.find(scope, digest).orElseThrow(() -> new AttachmentRefusal(AttachmentErrors.UNAVAILABLE));
    }

    /**
     * {@code attachment_read}: checks expiry and offset, verifies the stored size and the complete
     * SHA-256, then returns at most 32 KiB from {@code offset}; {@code previewHtml} only for
     * {@code text/plain} at offset 0 when asked.
     */
    public Chunk read(String scope, String digest, long offset, boolean preview) {
        AttachmentMetadata metadata = info(scope, digest);
        if (metadata.expired(clock.getAsDouble())) {
            throw new AttachmentRefusal(AttachmentErrors.EXPIRED);
        }
        if (offset < 0 || offset > metadata.length()) {
            throw new AttachmentRefusal(AttachmentErrors.INVALID_READ_OFFSET);
        }
        Path file = objects.resolve(fileName(scope, digest));
        byte[] body;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            if (channel.size() != metadata.length()) {
                throw new AttachmentRefusal(AttachmentErrors.STORED_LENGTH_MISMATCH);
            }
            if (!hash(channel).equals(metadata.digest())) {
                throw new AttachmentRefusal(AttachmentErrors.STORED_DIGEST_MISMATCH);
            }
            int size = (int) Math.min(AttachmentGrammar.MAX_CHUNK, metadata.length() - offset);
            ByteBuffer buffer = ByteBuffer.allocate(size);
            long position = offset;
            while (buffer.hasRemaining()) {
                int n = channel.read(buffer, position);
                if (n < 0) {
                    throw new AttachmentRefusal(AttachmentErrors.STORED_LENGTH_MISMATCH);
                }
                position += n;
            }
            body = buffer.array();
        } catch (IOException e) {
            throw unavailable("read", e);
        }
        String html = preview && offset == 0 && "text/plain".equals(metadata.mediaType()) ? previewHtml(body) : null;
        return new Chunk(body, offset + body.length >= metadata.length(), offset, html);
    }

    /** The first ≤ 512 bytes decoded as UTF-8 with replacement, HTML-escaped ({@code & < > " '}). */
    static String previewHtml(byte[] chunk) {
        String text = new String(chunk, 0, Math.min(PREVIEW_BYTES, chunk.length), StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#x27;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    // ---- references and collection ----

    /** {@code attachment_ref}: adds (idempotent; not on an expired object) or removes a reference. */
    public synchronized void ref(String scope, String digest, String ref, boolean remove) {
        AttachmentMetadata metadata = info(scope, digest);
        if (remove) {
            ledger.removeRef(scope, digest, ref);
            return;
        }
        if (metadata.expired(clock.getAsDouble())) {
            throw new AttachmentRefusal(AttachmentErrors.EXPIRED);
        }
        ledger.addRef(scope, digest, ref);
    }

    /**
     * {@code attachment_gc}: the objects of {@code scope} that are expired and unreferenced; deleted
     * (ledger row first, then the file) only when {@code dryRun} is false.
     */
    public synchronized List<String> gc(String scope, boolean dryRun) {
        double now = clock.getAsDouble();
        List<String> eligible = new ArrayList<>();
        for (AttachmentMetadata metadata : ledger.inScope(scope)) {
            if (metadata.expired(now) && !ledger.referenced(scope, metadata.digest())) {
                eligible.add(metadata.digest());
            }
        }
        if (!dryRun) {
            for (String digest : eligible) {
                ledger.deleteObject(scope, digest);
                // a crash here leaves an orphan file, which the next start removes
                deleteQuietly(objects.resolve(fileName(scope, digest)));
            }
        }
        eligible.sort(null);
        return eligible;
    }

    // ---- helpers ----

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hash(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            return hash(channel);
        }
    }

    private static String hash(FileChannel channel) throws IOException {
        MessageDigest digest = sha256();
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        long position = 0;
        int n;
        while ((n = channel.read(buffer, position)) > 0) {
            position += n;
            buffer.flip();
            digest.update(buffer);
            buffer.clear();
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "attachment store: could not delete a file", e);
        }
    }

    private static AttachmentRefusal unavailable(String operation, Exception cause) {
        if (cause instanceof AttachmentRefusal refusal) {
            return refusal;
        }
        // the cause may name server paths; log it, answer only the stable string
        LOG.log(Level.WARNING, "attachment store: " + operation + " failed", cause);
        return new AttachmentRefusal(AttachmentErrors.UNAVAILABLE);
    }
}
