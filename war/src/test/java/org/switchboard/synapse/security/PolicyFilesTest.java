package org.switchboard.synapse.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyFilesTest {

    private static final String KEY = "hub.acl-policy";
    private static final String SECRET = "s3cret-value-never-in-messages";

    @TempDir
    Path dir;

    private Path file(String content, String mode) throws IOException {
        Path path = dir.resolve("policy.json");
        Files.writeString(path, content, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(mode));
        return path;
    }

    private PolicyFileException refused(Path path) {
        PolicyFileException e = assertThrows(PolicyFileException.class, () -> PolicyFiles.readObject(KEY, path));
        assertEquals(KEY, e.key());
        assertTrue(e.getMessage().startsWith(KEY + ": "), e.getMessage());
        assertFalse(e.getMessage().contains(SECRET), "the message quotes the file: " + e.getMessage());
        return e;
    }

    @Test
    void anOwnerOnlyObjectIsRead() throws IOException {
        JsonObject read = PolicyFiles.readObject(KEY, file("{\"keys\":[{\"secret\":\"" + SECRET + "\"}]}", "rw-------"));
        assertEquals(SECRET, read.getJsonArray("keys").getJsonObject(0).getString("secret"));
    }

    @Test
    void aMissingFileIsRefused() {
        assertTrue(refused(dir.resolve("absent.json")).getMessage().contains("does not exist"));
        assertTrue(refused(null).getMessage().contains("no file configured"));
    }

    @Test
    void aFileOthersOrTheGroupMayReadIsRefused() throws IOException {
        assertTrue(refused(file("{}", "rw-r-----")).getMessage().contains("group or others"));
        assertTrue(refused(file("{}", "rw----r--")).getMessage().contains("group or others"));
    }

    @Test
    void malformedJsonAndNonObjectsAreRefusedWithoutQuotingTheFile() throws IOException {
        assertTrue(refused(file("{\"secret\":\"" + SECRET + "\" oops", "rw-------")).getMessage().contains("malformed"));
        assertTrue(refused(file("[\"" + SECRET + "\"]", "rw-------")).getMessage().contains("one JSON object"));
    }

    @Test
    void directoriesAndSymbolicLinksAreRefused() throws IOException {
        assertTrue(refused(dir).getMessage().contains("not a regular file"));
        Path target = file("{}", "rw-------");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), target);
        assertTrue(refused(link).getMessage().contains("symbolic links"));
    }

    @Test
    void nonUtf8IsRefused() throws IOException {
        Path path = file("", "rw-------");
        Files.write(path, new byte[] {'{', '"', (byte) 0xC3, (byte) 0x28, '"', ':', '1', '}'});
        assertTrue(refused(path).getMessage().contains("UTF-8"));
    }
}
