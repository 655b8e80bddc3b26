package org.switchboard.synapse.claims;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScopePathsTest {

    private static List<String> norm(String pathsJson) {
        return ScopePaths.normalise(Frames.json("{'p':" + pathsJson + "}").get("p"), 512);
    }

    @Test
    void normalisesSeparatorsDotsAndDuplicates() {
        assertEquals(List.of("src/parser", "docs/a.md"), norm("[' src\\\\parser/ ', './docs//a.md', 'src/./parser']"));
    }

    @Test
    void nonListIsEmptyAndEmptyListStaysEmpty() {
        assertEquals(List.of(), norm("'src'"));
        assertEquals(List.of(), norm("null"));
        assertEquals(List.of(), norm("[]"));
    }

    @Test
    void absoluteDotDotEmptyAndDotWidenToWholeTree() {
        assertEquals(List.of(""), norm("['src', '/etc/passwd']"));
        assertEquals(List.of(""), norm("['src/../lib']"));
        assertEquals(List.of(""), norm("['src', '']"));
        assertEquals(List.of(""), norm("['.']"));
        assertEquals(List.of(""), norm("['src', 3]"));
    }

    @Test
    void overlongNonPrintableAndTooManyPathsWiden() {
        assertEquals(List.of(""), ScopePaths.normalise(List.of("a".repeat(4097)), 512));
        assertEquals(List.of("a".repeat(4096)), ScopePaths.normalise(List.of("a".repeat(4096)), 512));
        assertEquals(List.of(""), ScopePaths.normalise(List.of("src/a\tb"), 512));
        assertEquals(List.of(""), ScopePaths.normalise(List.of("src/\u200bx"), 512));
        JsonArrayBuilder many = Json.createArrayBuilder();
        for (int i = 0; i < 513; i++) {
            many.add("f" + i);
        }
        assertEquals(List.of(""), ScopePaths.normalise(many.build(), 512));
        assertEquals(3, ScopePaths.normalise(List.of("a", "b", "c", "a"), 3).size());
    }

    @Test
    void globsAreLiteral() {
        assertEquals(List.of("src/*.py"), norm("['src/*.py']"));
        assertFalse(ScopePaths.overlaps("src/*.py", "src/a.py"));
    }

    @Test
    void overlapIsSegmentPrefix() {
        assertTrue(ScopePaths.overlaps("src", "src/a.py"));
        assertTrue(ScopePaths.overlaps("src/a.py", "src"));
        assertTrue(ScopePaths.overlaps("src/a.py", "src/a.py"));
        assertTrue(ScopePaths.overlaps("", "anything"));
        assertFalse(ScopePaths.overlaps("src", "srcx"));
        assertFalse(ScopePaths.overlaps("src/a", "src/b"));
        assertFalse(ScopePaths.overlaps("src/a.py", "src/a.pyc"));
    }

    @Test
    void scopeConflictRules() {
        ClaimScope srcMain = new ClaimScope("", List.of("src"), null);
        assertTrue(srcMain.conflictsWith(new ClaimScope("", List.of("src/a.py", "docs"), null)));
        assertFalse(srcMain.conflictsWith(new ClaimScope("", List.of("srcx", "docs"), null)));
        assertTrue(srcMain.conflictsWith(new ClaimScope("", List.of(), null)), "empty list = whole tree");
        assertTrue(srcMain.conflictsWith(new ClaimScope("", List.of(""), null)), "widened = whole tree");
        assertFalse(srcMain.conflictsWith(new ClaimScope("wt2", List.of("src"), null)), "different worktree labels never conflict");
        assertFalse(new ClaimScope("wt2", List.of(), null).conflictsWith(srcMain));
        assertFalse(srcMain.conflictsWith(new ClaimScope("", List.of("SRC"), null)), "literal rules are case-sensitive");
    }
}
