package org.switchboard.redsyn.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LogTextTest {

    @Test
    void controlCharactersAndLineSeparatorsAreEscaped() {
        assertEquals("/v1/x\\u000a[forged] SEVERE\\u0000 \\u2028 \\\\u000a", LogText.escape("/v1/x\n[forged] SEVERE\u0000 \u2028 \\u000a"));
        assertEquals("plain ñandú", LogText.escape("plain ñandú"));
        assertEquals("null", LogText.escape(null));
        assertTrue(LogText.escape("y".repeat(10_000)).length() < 600);
    }

    @Test
    void aTraceHasEveryCauseOnItsOwnLineWithEscapedMessages() {
        Exception e = new IllegalStateException("outer\nSEVERE forged", new IllegalArgumentException("inner\r\n"));
        String trace = LogText.trace(e);
        assertTrue(trace.startsWith("java.lang.IllegalStateException: outer\\u000aSEVERE forged\n\tat "), trace);
        assertTrue(trace.contains("\ncaused by: java.lang.IllegalArgumentException: inner\\u000d\\u000a"), trace);
        for (String line : trace.split("\n")) {
            assertFalse(line.startsWith("SEVERE"), line);
        }
    }
}
