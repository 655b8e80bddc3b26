package org.switchboard.itests.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Setup shared by the ITs of a secured hub (ACLs, role grants, identity trust, message-auth keys, TLS): a
 * directory of the class's own under {@code hub.workDir}, and material files only their owner may read, as
 * the hub demands of files holding secrets or policy.
 */
public final class SecuredHub {

    private SecuredHub() {
    }

    /**
     * {@code hub.workDir/<name>-<pid>}, created: the pid keeps parallel failsafe forks (and a class started
     * twice) apart.
     */
    public static Path directory(String name) {
        Path dir = Path.of(System.getProperty("hub.workDir", "target/hubs")).resolve(name + "-" + ProcessHandle.current().pid());
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code content} to {@code file}, created afresh with mode 0600 (never readable by others). */
    public static Path ownerOnly(Path file, String content) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, content, StandardCharsets.UTF_8);
        return file;
    }

    /** {@link #ownerOnly} and the file's absolute path as a string, the form a hub environment value takes. */
    public static String ownerOnlyPath(Path file, String content) throws IOException {
        return ownerOnly(file, content).toAbsolutePath().toString();
    }
}
