package org.switchboard.synapse.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.synapse.security.PolicyFileException;

class AclPolicyTest {

    @TempDir
    Path dir;

    static JsonObject json(String text) {
        return Json.createReader(new StringReader(text.replace('\'', '"'))).readObject();
    }

    static AclPolicy policy(String rules) {
        return AclPolicy.parse(json("{'rules':[" + rules + "]}"));
    }

    private static String refused(String text) {
        PolicyFileException e = assertThrows(PolicyFileException.class, () -> AclPolicy.parse(json(text)));
        assertEquals(AclPolicy.KEY, e.key());
        return e.getMessage();
    }

    @Test
    void theSpecExampleLoadsFromAnOwnerOnlyFile() throws IOException {
        Path file = dir.resolve("acl.json");
        Files.writeString(file, "{\"rules\":[{\"permission\":\"message\",\"target_kind\":\"agent\",\"target_pattern\":\"ACME/*\","
                + "\"namespace\":\"ACME\",\"reason\":\"team chat\"},{\"permission\":\"identity-pin-reclaim\","
                + "\"target_kind\":\"agent\",\"target_pattern\":\"ACME/*\",\"namespace\":\"ACME\"}]}");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        AclPolicy loaded = AclPolicy.load(file);
        assertEquals(2, loaded.rules().size());
        AclDecision d = loaded.decide("ACME/alice", new Access("message", "agent", "ACME/bob"));
        assertTrue(d.allowed());
        assertEquals("team chat", d.reason());
    }

    @Test
    void fileFaultsAreRefusedNamingTheKey() throws IOException {
        Path file = dir.resolve("open.json");
        Files.writeString(file, "{\"rules\":[]}");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals(AclPolicy.KEY, assertThrows(PolicyFileException.class, () -> AclPolicy.load(file)).key());
        assertEquals(AclPolicy.KEY, assertThrows(PolicyFileException.class,
                () -> AclPolicy.load(dir.resolve("missing.json"))).key());
    }

    @Test
    void badRulesAreRefusedAtLoad() {
        assertTrue(refused("{'rules':[{'permission':'mesage','target_kind':'agent','target_pattern':'*'}]}")
                .contains("unknown permission 'mesage'"));
        assertTrue(refused("{'rules':[{'permission':'message','target_kind':'','target_pattern':'*'}]}")
                .contains("target_kind"));
        assertTrue(refused("{'rules':[{'permission':'message','target_kind':'agent','target_pattern':' '}]}")
                .contains("target_pattern"));
        assertTrue(refused("{'rules':[{'permission':'message','target_kind':'agent'}]}").contains("target_pattern"));
        assertTrue(refused("{'rules':[{'permission':'message','target_kind':'agent','target_pattern':'*','effect':'deny'}]}")
                .contains("unknown field 'effect'"));
        assertTrue(refused("{'rules':[],'default':'allow'}").contains("unknown field 'default'"));
        assertTrue(refused("{'rules':{}}").contains("array"));
        assertTrue(refused("{}").contains("array"));
        assertTrue(refused("{'rules':['message']}").contains("not an object"));
        assertTrue(refused("{'rules':[{'permission':7,'target_kind':'agent','target_pattern':'*'}]}").contains("string"));
    }

    @Test
    void firstMatchingRuleDecidesAndNothingMatchingDenies() {
        AclPolicy p = policy("{'permission':'message','target_kind':'agent','target_pattern':'ACME/boss','namespace':'OTHER','reason':'r1'},"
                + "{'permission':'message','target_kind':'agent','target_pattern':'ACME/*','namespace':'ACME','reason':'team'},"
                + "{'permission':'message','target_kind':'agent','target_pattern':'ACME/boss','reason':'anyone to boss'},"
                + "{'permission':'claim','target_kind':'claim','target_pattern':'T-[0-9]*'}");
        assertEquals("team", p.decide("ACME/alice", new Access("message", "agent", "ACME/boss")).reason());
        assertEquals("anyone to boss", p.decide("EVIL/x", new Access("message", "agent", "ACME/boss")).reason());
        assertEquals("r1", p.decide("OTHER/x", new Access("message", "agent", "ACME/boss")).reason());
        AclDecision none = p.decide("EVIL/x", new Access("message", "agent", "ACME/alice"));
        assertFalse(none.allowed());
        assertEquals(AclDecision.NO_MATCHING_RULE, none.reason());
        assertEquals("agent:ACME/alice", none.target());
        assertTrue(p.decide("ACME/a", new Access("claim", "claim", "T-12")).allowed());
        assertFalse(p.decide("ACME/a", new Access("claim", "path", "T-12")).allowed(), "target kind must match");
        assertFalse(p.decide("ACME/a", new Access("release", "claim", "T-12")).allowed(), "permission must match");
        assertEquals(AclDecision.ALLOWED_BY_RULE, p.decide("ACME/a", new Access("claim", "claim", "T-1")).reason());
    }

    @Test
    void theProjectIsThePartBeforeTheFirstSlash() {
        assertEquals("ACME", AclPolicy.project("ACME/team/alice"));
        assertEquals("", AclPolicy.project("alice"));
        AclPolicy p = policy("{'permission':'recall','target_kind':'history','target_pattern':'global','namespace':'ACME'}");
        assertTrue(p.decide("ACME/team/alice", new Access("recall", "history", "global")).allowed());
        assertFalse(p.decide("alice", new Access("recall", "history", "global")).allowed());
        assertFalse(p.decide("ACMEX/alice", new Access("recall", "history", "global")).allowed());
    }

    @Test
    void anUnknownPermissionDenies() {
        AclPolicy p = policy("{'permission':'message','target_kind':'agent','target_pattern':'*'}");
        AclDecision d = p.decide("ACME/a", new Access("superuser", "agent", "x"));
        assertFalse(d.allowed());
        assertEquals(AclDecision.UNKNOWN_PERMISSION, d.reason());
    }

    /** The index (literal map + wildcard list per permission and kind) decides exactly as a plain first-match scan. */
    @Test
    void theIndexAgreesWithAPlainFirstMatchScan() {
        Random random = new Random(17);
        String[] perms = {"message", "claim", "board"};
        String[] kinds = {"agent", "claim", "path"};
        String[] patterns = {"A/x", "A/*", "B/?", "A/[xy]", "*", "B/y", "A/y", "C/*"};
        String[] namespaces = {"", "A", "B"};
        StringBuilder rules = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            rules.append(i == 0 ? "" : ",").append("{'permission':'").append(perms[random.nextInt(3)])
                    .append("','target_kind':'").append(kinds[random.nextInt(3)])
                    .append("','target_pattern':'").append(patterns[random.nextInt(patterns.length)])
                    .append("','namespace':'").append(namespaces[random.nextInt(3)])
                    .append("','reason':'rule ").append(i).append("'}");
        }
        AclPolicy p = policy(rules.toString());
        String[] values = {"A/x", "A/y", "B/y", "B/z", "C/q", "D"};
        String[] senders = {"A/me", "B/me", "me"};
        for (String perm : perms) {
            for (String kind : kinds) {
                for (String value : values) {
                    for (String sender : senders) {
                        String expected = AclDecision.NO_MATCHING_RULE;
                        for (AclRule rule : p.rules()) {
                            if (rule.permission().equals(perm) && rule.kind().equals(kind)
                                    && rule.allows(AclPolicy.project(sender), value)) {
                                expected = rule.reason();
                                break;
                            }
                        }
                        assertEquals(expected, p.decide(sender, new Access(perm, kind, value)).reason(),
                                perm + " " + kind + " " + value + " " + sender);
                    }
                }
            }
        }
    }
}
