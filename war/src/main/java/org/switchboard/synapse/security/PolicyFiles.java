package org.switchboard.synapse.security;

import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import org.switchboard.json.Jsons;

/**
 * Reads the JSON files the security layers are configured with (key files, trust bundles, ACL
 * policies, role grants). A file that is missing, not a regular file, readable or writable by group
 * or others, larger than {@link #MAX_BYTES}, not UTF-8, or not one JSON object is refused with a
 * {@link PolicyFileException} naming the key: a hub never starts half-locked.
 */
public final class PolicyFiles {

    /** Largest file accepted (a 1,000-rule policy is about 150 KiB). */
    public static final long MAX_BYTES = 4L << 20;

    private static final Set<PosixFilePermission> TOO_OPEN = Set.of(
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

    private PolicyFiles() {
    }

    /** The JSON object in the file configured under {@code key}; refuses as the class comment says. */
    public static JsonObject readObject(String key, Path path) {
        if (path == null) {
            throw new PolicyFileException(key, "no file configured");
        }
        byte[] bytes = readBytes(key, path);
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new PolicyFileException(key, "the file is not UTF-8");
        }
        JsonValue value;
        try (JsonReader reader = Jsons.PROVIDER.createReader(new StringReader(text))) {
            value = reader.readValue();
        } catch (JsonParsingException e) {
            // the parser's message may quote the file's text; say only where
            throw new PolicyFileException(key, "malformed JSON near line " + e.getLocation().getLineNumber());
        } catch (JsonException e) {
            throw new PolicyFileException(key, "malformed JSON");
        }
        if (!(value instanceof JsonObject object)) {
            throw new PolicyFileException(key, "the file must hold one JSON object");
        }
        return object;
    }

    private static byte[] readBytes(String key, Path path) {
        try {
            if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                throw new PolicyFileException(key, Files.exists(path, LinkOption.NOFOLLOW_LINKS)
                        ? "not a regular file (symbolic links are refused)" : "the file does not exist");
            }
            PosixFileAttributeView posix = Files.getFileAttributeView(path, PosixFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (posix != null) {
                Set<PosixFilePermission> permissions = posix.readAttributes().permissions();
                for (PosixFilePermission open : TOO_OPEN) {
                    if (permissions.contains(open)) {
                        throw new PolicyFileException(key, "the file is readable or writable by group or others"
                                + " (chmod 600 it)");
                    }
                }
            }
            if (Files.size(path) > MAX_BYTES) {
                throw new PolicyFileException(key, "the file is larger than " + MAX_BYTES + " bytes");
            }
            return Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new PolicyFileException(key, "the file does not exist");
        } catch (IOException e) {
            throw new PolicyFileException(key, "the file cannot be read (" + e.getClass().getSimpleName() + ")");
        }
    }
}
