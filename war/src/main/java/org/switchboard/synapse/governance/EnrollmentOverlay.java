package org.switchboard.synapse.governance;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.identity.TrustBundle;
import org.switchboard.synapse.security.PolicyFileException;
import org.switchboard.synapse.security.PolicyFiles;

/**
 * The hub-owned enrolment overlay of the operator trust bundle (synapse-advanced §7.2,
 * {@code hub.identity-enrollments}): {@code {"keys":[{key_id, public_key, senders:[name], expires_at?,
 * revoked?}]}}, the trust-bundle entry format with exactly one sender. Read strictly through
 * {@link PolicyFiles} (an empty list is allowed); written atomically (temp file 0600, fsync, rename,
 * directory fsync). Immutable: changes return a new overlay.
 */
public final class EnrollmentOverlay {

    /** The configuration key of the overlay file. */
    public static final String KEY = "hub.identity-enrollments";
    /** Key ids an enrolment may use. */
    public static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private static final Set<String> MEMBERS = Set.of("key_id", "public_key", "senders", "expires_at", "revoked");

    /** One enrolled key of one name. */
    public record Entry(String keyId, byte[] publicKey, String name, Double expiresAt, boolean revoked) {

        /** True when the key is not revoked and not expired at {@code now}. */
        public boolean live(double now) {
            return !revoked && (expiresAt == null || expiresAt > now);
        }

        TrustBundle.Entry toBundleEntry() {
            return new TrustBundle.Entry(keyId, publicKey.clone(), Set.of(name), Set.of(), expiresAt, revoked);
        }
    }

    private final List<Entry> entries;

    /** An overlay of {@code entries}, in order. */
    public EnrollmentOverlay(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** Reads the overlay at {@code path}; refuses with {@link PolicyFileException} naming {@link #KEY}. */
    public static EnrollmentOverlay load(Path path) {
        return parse(PolicyFiles.readObject(KEY, path));
    }

    /** Checks an already read overlay object. */
    public static EnrollmentOverlay parse(JsonObject root) {
        if (!root.keySet().equals(Set.of("keys")) || !(root.get("keys") instanceof JsonArray keys)) {
            throw new PolicyFileException(KEY, "the file must be {\"keys\":[...]}");
        }
        List<Entry> out = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < keys.size(); i++) {
            Entry entry = entry("keys[" + i + "]", keys.get(i));
            if (!seen.add(entry.keyId())) {
                throw new PolicyFileException(KEY, "keys[" + i + "]: key_id appears twice");
            }
            out.add(entry);
        }
        return new EnrollmentOverlay(out);
    }

    private static Entry entry(String where, JsonValue value) {
        if (!(value instanceof JsonObject key) || !MEMBERS.containsAll(key.keySet())) {
            throw new PolicyFileException(KEY, where + " must be an object with key_id, public_key, senders, expires_at?, revoked?");
        }
        String keyId = key.get("key_id") instanceof JsonString s ? s.getString() : "";
        if (!KEY_ID.matcher(keyId).matches()) {
            throw new PolicyFileException(KEY, where + ": key_id must match " + KEY_ID.pattern());
        }
        byte[] raw = key.get("public_key") instanceof JsonString s ? EnrollmentGates.publicKey(s.getString()) : null;
        if (raw == null) {
            throw new PolicyFileException(KEY, where + ": public_key must be base64 of 32 raw Ed25519 bytes");
        }
        if (!(key.get("senders") instanceof JsonArray senders) || senders.size() != 1
                || !(senders.get(0) instanceof JsonString name) || !EnrollmentGates.nameShape(name.getString())) {
            throw new PolicyFileException(KEY, where + ": senders must hold exactly one <project>/<id> name");
        }
        Double expires = null;
        if (key.containsKey("expires_at")) {
            if (!(key.get("expires_at") instanceof JsonNumber n)) {
                throw new PolicyFileException(KEY, where + ": expires_at must be a number");
            }
            expires = n.doubleValue();
        }
        JsonValue revoked = key.getOrDefault("revoked", JsonValue.FALSE);
        if (revoked != JsonValue.TRUE && revoked != JsonValue.FALSE) {
            throw new PolicyFileException(KEY, where + ": revoked must be true or false");
        }
        return new Entry(keyId, raw, name.getString(), expires, revoked == JsonValue.TRUE);
    }

    /** The entries, in order. */
    public List<Entry> entries() {
        return entries;
    }

    /** The entry with {@code keyId}, or null. */
    public Entry get(String keyId) {
        return entries.stream().filter(e -> e.keyId().equals(keyId)).findFirst().orElse(null);
    }

    /** The live (not revoked, not expired) enrolled key of {@code name}, or null. */
    public Entry liveKeyOf(String name, double now) {
        return entries.stream().filter(e -> e.name().equals(name) && e.live(now)).findFirst().orElse(null);
    }

    /** This overlay with {@code added} appended and, when {@code revokeKeyId} is not null, that key marked revoked. */
    public EnrollmentOverlay with(Entry added, String revokeKeyId) {
        List<Entry> out = new ArrayList<>();
        for (Entry e : entries) {
            out.add(e.keyId().equals(revokeKeyId) ? new Entry(e.keyId(), e.publicKey(), e.name(), e.expiresAt(), true) : e);
        }
        if (added != null) {
            out.add(added);
        }
        return new EnrollmentOverlay(out);
    }

    /** The effective bundle: the operator's entries first (authoritative), then the enrolled keys. */
    public TrustBundle mergedWith(TrustBundle operator) {
        List<TrustBundle.Entry> all = new ArrayList<>(operator.entries());
        for (Entry e : entries) {
            all.add(e.toBundleEntry());
        }
        return TrustBundle.of(all);
    }

    /** The file's JSON text. */
    public String toJson() {
        JsonArrayBuilder keys = Jsons.PROVIDER.createArrayBuilder();
        for (Entry e : entries) {
            JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder().add("key_id", e.keyId())
                    .add("public_key", Base64.getEncoder().encodeToString(e.publicKey()))
                    .add("senders", Jsons.PROVIDER.createArrayBuilder().add(e.name()));
            if (e.expiresAt() != null) {
                b.add("expires_at", e.expiresAt());
            }
            if (e.revoked()) {
                b.add("revoked", true);
            }
            keys.add(b);
        }
        return Jsons.PROVIDER.createObjectBuilder().add("keys", keys).build().toString();
    }

    /**
     * Replaces the file at {@code path} atomically: a 0600 temp file beside it, written and forced,
     * renamed over the old one, then the directory forced, so a crash leaves the old or the new file.
     */
    public void writeAtomically(Path path) throws IOException {
        Path dir = path.toAbsolutePath().getParent();
        Path temp = Files.createTempFile(dir, ".enrollments-", ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer bytes = ByteBuffer.wrap(toJson().getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                channel.force(true);
            }
            Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
        try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
            directory.force(true);
        } catch (IOException e) {
            // some file systems cannot force a directory; the rename itself is atomic
        }
    }
}
