package org.switchboard.synapse.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.synapse.security.PolicyFileException;

/** The trust bundle loader: a good bundle, and each refusal (naming the key and the entry, never key material). */
class TrustBundleTest {

    static final String KEY = new TestKeys(1).publicBase64();

    static String entry(String extra) {
        return "{\"key_id\":\"k1\",\"public_key\":\"" + KEY + "\",\"senders\":[\"ACME/a\"]" + extra + "}";
    }

    @Test
    void aGoodBundleKeepsEveryField() {
        TrustBundle bundle = TrustBundle.parse(TestKeys.json("{\"keys\":[" + entry(",\"projects\":[\"ACME\"],"
                + "\"expires_at\":1790000000.5,\"revoked\":true") + "]}"));
        TrustBundle.Entry e = bundle.get("k1");
        assertEquals(Set.of("ACME/a"), e.senders());
        assertEquals(Set.of("ACME"), e.projects());
        assertEquals(1790000000.5, e.expiresAt());
        assertTrue(e.revoked());
        assertEquals(32, e.publicKey().length);
        assertFalse(TrustBundle.parse(TestKeys.json("{\"keys\":[" + entry("") + "]}")).get("k1").revoked());
    }

    @Test
    void malformedBundlesAreRefusedNamingTheKeyAndEntry() {
        String[][] cases = {
                {"{}", "\"keys\" must be a non-empty array"},
                {"{\"keys\":[]}", "\"keys\" must be a non-empty array"},
                {"{\"keys\":[]," + "\"more\":1}", "unknown member 'more'"},
                {"{\"keys\":[5]}", "keys[0] is not an object"},
                {"{\"keys\":[" + entry(",\"secret\":\"x\"") + "]}", "keys[0]: unknown member 'secret'"},
                {"{\"keys\":[{\"public_key\":\"" + KEY + "\",\"senders\":[\"a\"]}]}", "keys[0]: key_id is required"},
                {"{\"keys\":[{\"key_id\":\"k\",\"public_key\":\"AAAA\",\"senders\":[\"a\"]}]}", "keys[0]: public_key must be base64"},
                {"{\"keys\":[{\"key_id\":\"k\",\"public_key\":\"" + KEY + "\",\"senders\":[]}]}", "keys[0]: senders must be a non-empty"},
                {"{\"keys\":[{\"key_id\":\"k\",\"public_key\":\"" + KEY + "\"}]}", "keys[0]: senders must be a non-empty"},
                {"{\"keys\":[" + entry(",\"projects\":\"ACME\"") + "]}", "keys[0]: projects must be an array"},
                {"{\"keys\":[" + entry(",\"expires_at\":\"soon\"") + "]}", "keys[0]: expires_at must be a number"},
                {"{\"keys\":[" + entry(",\"revoked\":\"yes\"") + "]}", "keys[0]: revoked must be true or false"},
                {"{\"keys\":[" + entry("") + "," + entry("") + "]}", "keys[1]: key_id appears twice"},
        };
        for (String[] c : cases) {
            PolicyFileException e = assertThrows(PolicyFileException.class, () -> TrustBundle.parse(TestKeys.json(c[0])), c[0]);
            assertEquals(TrustBundle.KEY, e.key());
            assertTrue(e.getMessage().contains(c[1]), c[0] + " -> " + e.getMessage());
            assertFalse(e.getMessage().contains(KEY), "key material in " + e.getMessage());
        }
    }

    @Test
    void theFileGoesThroughTheStrictLoader(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("trust.json");
        Files.writeString(file, "{\"keys\":[" + entry("") + "]}");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        PolicyFileException open = assertThrows(PolicyFileException.class, () -> TrustBundle.load(file));
        assertTrue(open.getMessage().contains("group or others"), open.getMessage());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertEquals(1, TrustBundle.load(file).size());
        assertThrows(PolicyFileException.class, () -> TrustBundle.load(dir.resolve("missing.json")));
    }
}
