package org.switchboard.synapse.federation.policy;

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

class MultihubPolicyTest {

    @TempDir
    Path dir;

    private Path file(String json) throws Exception {
        Path p = dir.resolve("multihub-" + System.nanoTime() + ".json");
        Files.writeString(p, json);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
        return p;
    }

    private static final String GOOD = """
            {"version":1,"grants":[
              {"sender":"hub-a","namespace":"ACME","verbs":["message","read"]},
              {"sender":"hub-a","namespace":"OLD","verbs":["message"],"expires_at":100},
              {"sender":"hub-a","namespace":"GONE","verbs":["message"],"revoked":true},
              {"sender":"hub-p","namespace":"ACME","verbs":["message"],"cert_pin":"sha256:%s"}]}
            """.formatted("ab".repeat(32));

    @Test
    void liveGrantsAnswerByNamespaceAndVerb() throws Exception {
        MultihubPolicy p = MultihubPolicy.load(file(GOOD));
        assertTrue(p.grants("hub-a", "ACME", "message", 50));
        assertTrue(p.grants("hub-a", "ACME", "read", 50));
        assertFalse(p.grants("hub-a", "ACME", "spend", 50));
        assertTrue(p.grants("hub-a", "OLD", "message", 50));
        assertFalse(p.grants("hub-a", "OLD", "message", 100), "expired at expires_at");
        assertFalse(p.grants("hub-a", "GONE", "message", 50), "revoked");
        assertEquals(Set.of("ACME"), p.namespaces("hub-a", 200));
        assertFalse(p.authorises("hub-b", 50));
        assertEquals(Set.of("sha256:" + "ab".repeat(32)), p.certPins("hub-p", 0));
    }

    @Test
    void noFileGrantsNothing() {
        assertFalse(MultihubPolicy.none().authorises("hub-a", 0));
    }

    private void refused(String json, String fault) throws Exception {
        Path p = file(json);
        PolicyFileException e = assertThrows(PolicyFileException.class, () -> MultihubPolicy.load(p));
        assertEquals(MultihubPolicy.KEY, e.key());
        assertTrue(e.getMessage().contains(fault), e.getMessage());
    }

    @Test
    void badDocumentsAreRefusedNamingTheKey() throws Exception {
        refused("{\"version\":2,\"grants\":[]}", "version");
        refused("{\"version\":1,\"grants\":[],\"extra\":1}", "unknown member 'extra'");
        refused("{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"message\"],\"x\":1}]}",
                "unknown member 'x'");
        refused("{\"version\":1,\"grants\":[{\"sender\":\"hub/a\",\"namespace\":\"ACME\",\"verbs\":[\"message\"]}]}", "hub id");
        refused("{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"AC*\",\"verbs\":[\"message\"]}]}", "wildcard");
        refused("{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"write\"]}]}", "verbs");
        refused("{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"message\"],"
                + "\"cert_pin\":\"sha256:XY\"}]}", "cert_pin");
        refused("{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"message\"],"
                + "\"revoked\":\"yes\"}]}", "revoked");
        refused("{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"message\"]},"
                + "{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"read\"]}]}", "second grant");
    }

    @Test
    void everyGrantOfOneSenderNamesTheSameCertificatePin() throws Exception {
        String a = "sha256:" + "ab".repeat(32);
        String b = "sha256:" + "cd".repeat(32);
        refused(("{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"message\"],"
                + "\"cert_pin\":\"%s\"},{\"sender\":\"hub-a\",\"namespace\":\"OPS\",\"verbs\":[\"read\"]}]}").formatted(a),
                "same cert_pin");
        refused(("{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"message\"]},"
                + "{\"sender\":\"hub-a\",\"namespace\":\"OPS\",\"verbs\":[\"read\"],\"cert_pin\":\"%s\"}]}").formatted(a),
                "same cert_pin");
        refused(("{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"message\"],"
                + "\"cert_pin\":\"%s\"},{\"sender\":\"hub-a\",\"namespace\":\"OPS\",\"verbs\":[\"read\"],\"cert_pin\":\"%s\"}]}")
                .formatted(a, b), "same cert_pin");
        MultihubPolicy same = MultihubPolicy.load(file(("{\"version\":1,\"grants\":["
                + "{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"message\"],\"cert_pin\":\"%s\"},"
                + "{\"sender\":\"hub-a\",\"namespace\":\"OPS\",\"verbs\":[\"read\"],\"cert_pin\":\"%s\"},"
                + "{\"sender\":\"hub-b\",\"namespace\":\"ACME\",\"verbs\":[\"message\"],\"cert_pin\":\"%s\"}]}").formatted(a, a, b)));
        assertEquals(Set.of(a), same.certPins("hub-a", 0));
        assertEquals(Set.of(b), same.certPins("hub-b", 0), "senders may differ");
    }

    @Test
    void aDuplicateMemberIsRefusedEvenWhereTheReaderWouldKeepTheLastCopy() throws Exception {
        refused("{\"version\":1,\"grants\":[{\"sender\":\"hub-a\",\"namespace\":\"ACME\",\"verbs\":[\"message\"],"
                + "\"revoked\":true,\"revoked\":false}]}", "duplicate member 'revoked'");
    }

    @Test
    void filePostureAndSizeAreEnforced() throws Exception {
        Path open = file(GOOD);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertThrows(PolicyFileException.class, () -> MultihubPolicy.load(open));
        Path big = file("{\"version\":1,\"grants\":[]" + " ".repeat(70_000) + "}");
        PolicyFileException e = assertThrows(PolicyFileException.class, () -> MultihubPolicy.load(big));
        assertTrue(e.getMessage().contains("65536"), e.getMessage());
    }

    @Test
    void aPolicySourceSeesARewriteAndFailsClosedOnABadOne() throws Exception {
        Path p = file(GOOD);
        PolicySource<MultihubPolicy> source = PolicySource.open(p, MultihubPolicy::load, MultihubPolicy.none());
        assertTrue(source.get().authorises("hub-a", 0));
        Files.writeString(p, "{\"version\":1,\"grants\":[]}");
        Files.setLastModifiedTime(p, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5000));
        assertFalse(source.get().authorises("hub-a", 0), "a revocation is seen without a restart");
        Files.writeString(p, GOOD.replace("\"version\":1", "\"version\":1,\"version\":1"));
        Files.setLastModifiedTime(p, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 9000));
        assertFalse(source.get().authorises("hub-a", 0), "a file that stops loading denies everything");
    }
}
