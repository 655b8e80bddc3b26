package org.switchboard.synapse.messageauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.security.PolicyFileException;

/** The key file's strict loading and the start-up refusal built on it (never naming a secret). */
class MessageAuthKeysTest {

    private static final String SECRET = "very-secret-value-42";

    @TempDir
    Path dir;

    private Path file(String text, String mode) throws IOException {
        Path path = dir.resolve("keys-" + System.nanoTime() + ".json");
        Files.writeString(path, text);
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(mode));
        return path;
    }

    private PolicyFileException refused(String text) throws IOException {
        Path path = file(text, "rw-------");
        PolicyFileException e = assertThrows(PolicyFileException.class, () -> MessageAuthKeys.load(path));
        assertEquals("hub.message-auth.key-file", e.key());
        assertFalse(e.getMessage().contains(SECRET), e.getMessage());
        return e;
    }

    @Test
    void aValidFileLoadsEveryKey() throws IOException {
        MessageAuthKeys keys = MessageAuthKeys.load(file("{\"keys\":[{\"kid\":\"k1\",\"secret\":\"" + SECRET
                + "\",\"senders\":[\"a\",\"b\"]},{\"kid\":\"k2\",\"secret\":\"x\",\"senders\":[\"c\"],\"revoked\":true}]}",
                "rw-------"));
        assertEquals(2, keys.size());
        assertTrue(keys.key("k2").revoked());
        assertTrue(keys.key("k1").senders().contains("b"));
        assertFalse(keys.key("k1").toString().contains(SECRET));
    }

    @Test
    void anEmptySenderListFailsClosed() throws IOException {
        assertTrue(refused("{\"keys\":[{\"kid\":\"k1\",\"secret\":\"" + SECRET + "\",\"senders\":[]}]}")
                .getMessage().contains("senders"));
    }

    @Test
    void unknownFieldsAreRefused() throws IOException {
        assertTrue(refused("{\"keys\":[{\"kid\":\"k1\",\"secret\":\"" + SECRET + "\",\"senders\":[\"a\"],\"sendrs\":[]}]}")
                .getMessage().contains("unknown field"));
        assertTrue(refused("{\"keys\":[],\"extra\":1}").getMessage().contains("unknown field"));
    }

    @Test
    void aDuplicateKidIsRefused() throws IOException {
        assertTrue(refused("{\"keys\":[{\"kid\":\"k1\",\"secret\":\"" + SECRET + "\",\"senders\":[\"a\"]},"
                + "{\"kid\":\"k1\",\"secret\":\"other\",\"senders\":[\"b\"]}]}").getMessage().contains("duplicate kid"));
    }

    @Test
    void malformedFilesAreRefusedWithoutQuotingThem() throws IOException {
        refused("{\"keys\":[{\"kid\":\"k1\",\"secret\":\"" + SECRET + "\"");
        refused("{\"keys\":[{\"kid\":\"k1\",\"secret\":\"\",\"senders\":[\"a\"]}]}");
        refused("{\"keys\":[{\"kid\":\"k1\",\"secret\":\"" + SECRET + "\",\"senders\":[\"a\"],\"revoked\":\"yes\"}]}");
    }

    @Test
    void aGroupOrOtherReadableFileIsRefused() throws IOException {
        Path open = file("{\"keys\":[{\"kid\":\"k1\",\"secret\":\"" + SECRET + "\",\"senders\":[\"a\"]}]}", "rw-r--r--");
        PolicyFileException e = assertThrows(PolicyFileException.class, () -> MessageAuthKeys.load(open));
        assertTrue(e.getMessage().contains("group or others"), e.getMessage());
    }

    @Test
    void theStartupCheckNamesTheKeyAndNeverTheSecret() throws IOException {
        Path open = file("{\"keys\":[{\"kid\":\"k1\",\"secret\":\"" + SECRET + "\",\"senders\":[\"a\"]}]}", "rw-r-----");
        String fault = MessageAuthStartup.fault(SynapseSettings.builder().messageAuthKeyFile(open.toString()).build());
        assertNotNull(fault);
        assertTrue(fault.contains("hub.message-auth.key-file"), fault);
        assertFalse(fault.contains(SECRET), fault);
        assertNotNull(MessageAuthStartup.fault(SynapseSettings.builder()
                .messageAuthKeyFile(dir.resolve("absent.json").toString()).build()));
        assertNotNull(MessageAuthStartup.fault(SynapseSettings.builder().requireMessageAuth(true).build()),
                "requiring message auth without any key material refuses start-up");
        assertNull(MessageAuthStartup.fault(SynapseSettings.defaults()));
        Path fine = file("{\"keys\":[{\"kid\":\"k1\",\"secret\":\"" + SECRET + "\",\"senders\":[\"a\"]}]}", "rw-------");
        assertNull(MessageAuthStartup.fault(SynapseSettings.builder().messageAuthKeyFile(fine.toString())
                .requireMessageAuth(true).build()));
    }
}
