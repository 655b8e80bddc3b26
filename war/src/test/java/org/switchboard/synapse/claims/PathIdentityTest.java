package org.switchboard.synapse.claims;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.List;
import org.junit.jupiter.api.Test;

class PathIdentityTest {

    static JsonObject identity(boolean caseSensitive, String ns, String wt, String rows) {
        return Frames.json("{'version':1,'worktree_path':'/home/dev/engine','worktree_object_id':'" + wt + "',"
                + "'filesystem_namespace':'" + ns + "','case_sensitive':" + caseSensitive + ",'paths':" + rows + "}");
    }

    static String row(String path, String objectId, String scope) {
        return "{'git_path':'" + path + "','filesystem_path':'" + path + "','object_id':'" + objectId
                + "','object_scope':'" + scope + "'}";
    }

    static PathIdentity valid(JsonObject raw, List<String> display) {
        PathIdentity.Validation v = PathIdentity.validate(raw, display);
        assertTrue(v.valid(), () -> "expected valid: " + v.problem());
        return v.identity();
    }

    @Test
    void absentOrNullIsValidWithoutIdentity() {
        assertTrue(PathIdentity.validate(null, List.of("a")).valid());
        assertNull(PathIdentity.validate(JsonValue.NULL, List.of("a")).identity());
    }

    @Test
    void acceptsAWellFormedIdentity() {
        PathIdentity id = valid(identity(true, "sha256:abc", "2049:1179001", "[" + row("lib/session.rs", "2049:1183442", "") + "]"),
                List.of("lib/session.rs"));
        assertEquals("2049:1183442", id.rows().get(0).objectId());
        assertEquals("sha256:abc", id.filesystemNamespace());
    }

    @Test
    void rejectsEveryMalformedShape() {
        List<String> display = List.of("lib/a.rs");
        String good = "[" + row("lib/a.rs", "1:2", "") + "]";
        assertFalse(PathIdentity.validate(Frames.json("{'x':1}").get("x"), display).valid(), "not an object");
        assertFalse(PathIdentity.validate(Frames.json(identity(true, "sha256:a", "1:2", good).toString()
                .replace("\"version\":1", "\"version\":2")), display).valid(), "version 2");
        assertFalse(PathIdentity.validate(Frames.json(identity(true, "sha256:a", "1:2", good).toString()
                .replace("\"version\":1", "\"version\":true")), display).valid(), "boolean version");
        assertFalse(PathIdentity.validate(Frames.json(identity(true, "sha256:a", "1:2", good).toString()
                .replace("/home/dev/engine", "relative/dir")), display).valid(), "relative worktree_path");
        assertFalse(PathIdentity.validate(identity(true, "md5:a", "1:2", good), display).valid(), "namespace prefix");
        assertFalse(PathIdentity.validate(identity(true, "sha256:a", "1-2", good), display).valid(), "worktree object id grammar");
        assertFalse(PathIdentity.validate(identity(true, "sha256:a", "1:2", "[]"), display).valid(), "row count");
        assertFalse(PathIdentity.validate(identity(true, "sha256:a", "1:2", "[" + row("lib/b.rs", "", "") + "]"), display).valid(),
                "row does not match its display path");
        assertFalse(PathIdentity.validate(identity(true, "sha256:a", "1:2", "[" + row("lib/a.rs", "x", "") + "]"), display).valid(),
                "object id grammar");
        assertFalse(PathIdentity.validate(identity(true, "sha256:a", "1:2", "[" + row("LIB/A.rs", "", "") + "]"), display).valid(),
                "case matters when case-sensitive");
        assertTrue(PathIdentity.validate(identity(false, "sha256:a", "1:2", "[" + row("LIB/A.rs", "", "") + "]"), display).valid(),
                "case folded when case-insensitive");
        JsonObject extra = Frames.json(identity(true, "sha256:a", "1:2", good).toString().replace("{\"version\"", "{\"extra\":1,\"version\""));
        assertFalse(PathIdentity.validate(extra, display).valid(), "extra keys refused");
        assertFalse(PathIdentity.validate(Frames.json(identity(true, "sha256:a", "1:2", good).toString()
                .replace("\"case_sensitive\":true", "\"case_sensitive\":\"yes\"")), display).valid(), "case_sensitive must be boolean");
    }

    @Test
    void nfcDecomposedRowMatchesComposedDisplayPath() {
        String composed = "docs/caf\u00e9.md";
        String decomposed = "docs/cafe\u0301.md";
        assertNotNull(valid(identity(true, "sha256:a", "1:2", "[" + row(decomposed, "", "") + "]"), List.of(composed)));
    }

    @Test
    void caseInsensitiveIdentityAddsConflictsAgainstLegacyClaim() {
        PathIdentity ci = valid(identity(false, "sha256:a", "1:2", "[" + row("Src/Main.java", "", "") + "]"), List.of("Src/Main.java"));
        ClaimScope withIdentity = new ClaimScope("", List.of("Src/Main.java"), ci);
        ClaimScope legacy = new ClaimScope("", List.of("src/main.java"), null);
        assertTrue(withIdentity.conflictsWith(legacy));
        assertTrue(legacy.conflictsWith(withIdentity));
        assertFalse(new ClaimScope("", List.of("Src/Main.java"), null).conflictsWith(legacy), "without identity: literal");
    }

    @Test
    void objectIdsConflictOnlyOnTheSameFilesystemWorktree() {
        PathIdentity a = valid(identity(true, "sha256:h1", "9:1", "[" + row("lib/a.go", "9:77", "") + "]"), List.of("lib/a.go"));
        PathIdentity hardLink = valid(identity(true, "sha256:h1", "9:1", "[" + row("lib/alias.go", "9:77", "") + "]"), List.of("lib/alias.go"));
        PathIdentity otherHost = valid(identity(true, "sha256:h2", "9:1", "[" + row("lib/alias.go", "9:77", "") + "]"), List.of("lib/alias.go"));
        ClaimScope sa = new ClaimScope("", List.of("lib/a.go"), a);
        assertTrue(sa.conflictsWith(new ClaimScope("", List.of("lib/alias.go"), hardLink)), "hard link alias");
        assertTrue(sa.conflictsWith(new ClaimScope("other-label", List.of("lib/alias.go"), hardLink)),
                "same filesystem worktree under another label is comparable");
        assertFalse(sa.conflictsWith(new ClaimScope("", List.of("lib/alias.go"), otherHost)), "inode from another namespace");
    }

    @Test
    void objectScopes() {
        assertTrue(PathIdentity.scopesConflict("", "fn:parse"), "whole object vs descendant");
        assertTrue(PathIdentity.scopesConflict("class:A", "class:A/method:b"), "ancestor");
        assertFalse(PathIdentity.scopesConflict("class:A/method:b", "class:A/method:c"), "siblings");
        PathIdentity m1 = valid(identity(true, "sha256:h", "9:1", "[" + row("a.py", "9:5", "cls:A/m:b") + "]"), List.of("a.py"));
        PathIdentity m2 = valid(identity(true, "sha256:h", "9:1", "[" + row("b.py", "9:5", "cls:A/m:c") + "]"), List.of("b.py"));
        PathIdentity whole = valid(identity(true, "sha256:h", "9:1", "[" + row("c.py", "9:5", "") + "]"), List.of("c.py"));
        ClaimScope s1 = new ClaimScope("", List.of("a.py"), m1);
        assertFalse(s1.conflictsWith(new ClaimScope("", List.of("b.py"), m2)), "sibling scopes across hard links");
        assertTrue(s1.conflictsWith(new ClaimScope("", List.of("c.py"), whole)));
        PathIdentity samePathSibling = valid(identity(true, "sha256:h", "9:1", "[" + row("a.py", "9:5", "cls:A/m:c") + "]"), List.of("a.py"));
        assertTrue(s1.conflictsWith(new ClaimScope("", List.of("a.py"), samePathSibling)),
                "object scopes never remove a literal path conflict");
    }
}
