package org.switchboard.synapse.governance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.synapse.security.PolicyFileException;

/** The enrolment overlay: strict reading, atomic owner-only writing, revocation by rotation. */
class EnrollmentOverlayTest {

    static final byte[] RAW = new byte[32];

    static Path ownerOnly(Path file, String text) throws Exception {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    @Test
    void anEmptyOverlayLoadsAndARoundTripKeepsEveryField(@TempDir Path dir) throws Exception {
        Path file = ownerOnly(dir.resolve("enrol.json"), "{\"keys\":[]}");
        EnrollmentOverlay empty = EnrollmentOverlay.load(file);
        assertTrue(empty.entries().isEmpty());
        EnrollmentOverlay one = empty.with(new EnrollmentOverlay.Entry("bob-1", RAW, "ACME/bob", 2e9, false), null);
        one.writeAtomically(file);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        EnrollmentOverlay read = EnrollmentOverlay.load(file);
        assertEquals(1, read.entries().size());
        assertEquals("ACME/bob", read.get("bob-1").name());
        assertEquals(2e9, read.get("bob-1").expiresAt());
        assertEquals(List.of(file), Files.list(dir).toList(), "the temp file was left behind");
    }

    @Test
    void aRotationRevokesTheOldKeyAndKeepsItsIdUsed() {
        EnrollmentOverlay one = new EnrollmentOverlay(List.of(new EnrollmentOverlay.Entry("bob-1", RAW, "ACME/bob", null, false)));
        EnrollmentOverlay two = one.with(new EnrollmentOverlay.Entry("bob-2", RAW, "ACME/bob", null, false), "bob-1");
        assertTrue(two.get("bob-1").revoked());
        assertEquals("bob-2", two.liveKeyOf("ACME/bob", 0).keyId());
        assertFalse(one.get("bob-1").revoked(), "overlays are immutable");
        assertNull(two.with(null, "bob-2").liveKeyOf("ACME/bob", 0));
    }

    @Test
    void aMalformedOrOpenFileIsRefusedNamingTheKey(@TempDir Path dir) throws Exception {
        for (String bad : new String[] {"{}", "{\"keys\":[{\"key_id\":\"a b\"}]}",
                "{\"keys\":[{\"key_id\":\"k\",\"public_key\":\"AAAA\",\"senders\":[\"ACME/bob\"]}]}",
                "{\"keys\":[{\"key_id\":\"k\",\"public_key\":\"" + java.util.Base64.getEncoder().encodeToString(RAW)
                        + "\",\"senders\":[\"ACME/bob\",\"ACME/eve\"]}]}"}) {
            Path file = ownerOnly(dir.resolve("bad.json"), bad);
            PolicyFileException e = assertThrows(PolicyFileException.class, () -> EnrollmentOverlay.load(file), bad);
            assertEquals(EnrollmentOverlay.KEY, e.key());
        }
        Path open = dir.resolve("open.json");
        Files.writeString(open, "{\"keys\":[]}");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertThrows(PolicyFileException.class, () -> EnrollmentOverlay.load(open));
        assertThrows(PolicyFileException.class, () -> EnrollmentOverlay.load(dir.resolve("missing.json")));
    }
}
