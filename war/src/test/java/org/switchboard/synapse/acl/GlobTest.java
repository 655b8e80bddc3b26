package org.switchboard.synapse.acl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GlobTest {

    private static boolean m(String pattern, String value) {
        return Glob.compile(pattern).matches(value);
    }

    @Test
    void literalsMatchExactlyAndCaseSensitively() {
        assertTrue(m("ACME/alice", "ACME/alice"));
        assertFalse(m("ACME/alice", "acme/alice"));
        assertFalse(m("ACME/alice", "ACME/alice2"));
        assertFalse(m("ACME/alice", "ACME/alic"));
    }

    @Test
    void starMatchesAnyRunIncludingEmptyAndSlashes() {
        assertTrue(m("ACME/*", "ACME/"));
        assertTrue(m("ACME/*", "ACME/alice"));
        assertTrue(m("ACME/*", "ACME/team/alice"));
        assertFalse(m("ACME/*", "ACMEX/alice"));
        assertTrue(m("*", ""));
        assertTrue(m("a*b*c", "aXXbYYc"));
        assertFalse(m("a*b*c", "aXXbYY"));
        assertTrue(m("**x", "abx"));
        assertTrue(m("*-rx", "ACME/alice-rx"));
    }

    @Test
    void questionMarkMatchesExactlyOneCharacter() {
        assertTrue(m("task-?", "task-1"));
        assertFalse(m("task-?", "task-"));
        assertFalse(m("task-?", "task-12"));
        assertTrue(m("?", "é"));
        assertTrue(m("?", "😀"), "one code point, even outside the BMP");
    }

    @Test
    void setsRangesAndNegation() {
        assertTrue(m("task-[0-9]", "task-7"));
        assertFalse(m("task-[0-9]", "task-x"));
        assertTrue(m("[abc]x", "bx"));
        assertFalse(m("[abc]x", "dx"));
        assertTrue(m("[!abc]x", "dx"));
        assertFalse(m("[!abc]x", "ax"));
        assertTrue(m("[a-cx-z]", "y"));
        assertFalse(m("[a-cx-z]", "m"));
        assertTrue(m("[]]", "]"), "a ] first in a set is a member");
        assertTrue(m("[a-]", "-"), "a trailing - is a literal member");
    }

    @Test
    void anUnclosedBracketIsALiteral() {
        assertTrue(m("a[b", "a[b"));
        assertFalse(m("a[b", "ab"));
    }

    @Test
    void backtrackingStaysLinearOnHostilePatterns() {
        String value = "a".repeat(5000);
        assertFalse(m("*a*a*a*a*a*a*a*b", value));
    }

    @Test
    void thePreSplitFormAgreesWithThePlainOne() {
        String[] patterns = {"ACME/*", "ACME/a?ice", "[A-C]*/x", "*", "lit", "ACME/[!b]*", "é*"};
        String[] values = {"ACME/alice", "ACMEX/alice", "B/x", "", "lit", "ACME/bob", "ACME/carol", "éa"};
        for (String pattern : patterns) {
            Glob glob = Glob.compile(pattern);
            for (String value : values) {
                assertTrue(glob.matches(value) == glob.matches(value, value.codePoints().toArray()), pattern + " " + value);
            }
        }
        assertTrue(m("ACME/[!b]*", "ACME/carol"));
        assertFalse(m("ACME/[!b]*", "ACME/bob"));
    }
}
