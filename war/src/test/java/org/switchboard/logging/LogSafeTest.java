package org.switchboard.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LogSafeTest {

    @Test
    void lineBreaksAndNulCannotForgeOrCorruptALogLine() {
        String forged = "proj/evil\nSEVERE: forged line\r\u0000end";
        String safe = LogSafe.text(forged);
        assertEquals("proj/evil\\nSEVERE: forged line\\r\\u0000end", safe);
        assertFalse(safe.chars().anyMatch(c -> c < 0x20));
    }

    @Test
    void everyC0AndC1ControlAndTheUnicodeLineSeparatorsAreEscaped() {
        for (int c = 0; c < 0x20; c++) {
            String safe = LogSafe.text("a" + (char) c + "b");
            assertTrue(safe.startsWith("a\\") && safe.endsWith("b") && safe.length() > 3, "U+" + Integer.toHexString(c) + ": " + safe);
        }
        assertEquals("\\u007f\\u0085\\u009f\\u2028\\u2029", LogSafe.text("\u007f\u0085\u009f\u2028\u2029"));
        assertEquals("tab\\tx", LogSafe.text("tab\tx"));
    }

    @Test
    void aBackslashIsEscapedSoAnEscapeCannotBeFaked() {
        assertEquals("a\\\\nb", LogSafe.text("a\\nb"));
    }

    @Test
    void ordinaryTextIncludingNonAsciiLettersIsKept() {
        assertEquals("proj/bob", LogSafe.text("proj/bob"));
        assertEquals("Zoë 名前 🙂", LogSafe.text("Zoë 名前 🙂"));
        assertEquals("null", LogSafe.text(null));
        assertEquals("Connection[3 x\\ny]", LogSafe.text(new Object() {
            @Override
            public String toString() {
                return "Connection[3 x\ny]";
            }
        }));
    }

    @Test
    void longValuesAreCutAndSayHowMuchWasLeftOut() {
        String safe = LogSafe.text("x".repeat(LogSafe.MAX_CHARS + 50));
        assertEquals("x".repeat(LogSafe.MAX_CHARS) + "...(+50 chars)", safe);
        assertEquals("y".repeat(LogSafe.MAX_CHARS), LogSafe.text("y".repeat(LogSafe.MAX_CHARS)));
        // the bound applies to the input, so escapes cannot multiply a cut value beyond 6 x the bound
        assertTrue(LogSafe.text("\u0000".repeat(10_000)).length() <= LogSafe.MAX_CHARS * 6 + 20);
    }

    @Test
    void aLoggedFailureKeepsItsTypeStackAndCausesWithEscapedMessages() {
        IllegalStateException cause = new IllegalStateException("name proj/x\nFORGED");
        RuntimeException failure = new RuntimeException("frame from a\u0000b", cause);
        Throwable logged = LogSafe.failure(failure);
        assertEquals("java.lang.RuntimeException: frame from a\\u0000b", logged.toString());
        assertEquals("java.lang.IllegalStateException: name proj/x\\nFORGED", logged.getCause().toString());
        assertEquals(failure.getStackTrace().length, logged.getStackTrace().length);
        assertEquals(failure.getStackTrace()[0], logged.getStackTrace()[0]);
        java.io.StringWriter printed = new java.io.StringWriter();
        logged.printStackTrace(new java.io.PrintWriter(printed));
        assertFalse(printed.toString().contains("\nFORGED"), printed.toString());
        assertEquals(null, LogSafe.failure(null));
    }
}
