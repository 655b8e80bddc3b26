package org.switchboard.redsyn.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.RedsynException;

class JsonBodyGuardTest {

    private static final JsonBodyGuard.Limits LIMITS = new JsonBodyGuard.Limits(1_000, 0, 8, 20);

    private static byte[] readAll(String text, JsonBodyGuard.Limits limits) throws IOException {
        try (InputStream in = new JsonBodyGuard(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), limits)) {
            return in.readAllBytes();
        }
    }

    private static RedsynException refusal(String text, JsonBodyGuard.Limits limits) {
        return assertThrows(RedsynException.class, () -> readAll(text, limits));
    }

    @Test
    void aBodyWithinEveryBoundPassesThroughUnchanged() throws IOException {
        String body = "{\"v\": 1, \"text\": \"[[[[[[[[[[ 123456789012345678901234567890 \\\" ]]\", \"n\": [1.5e10, -2, true, null],"
                + " \"d\": {\"a\": {\"b\": [[[[{}]]]]}}, \"s\": \"ñandú \uD83D\uDE00\"}";
        assertArrayEquals(body.getBytes(StandardCharsets.UTF_8), readAll(body, LIMITS));
    }

    @Test
    void moreBytesThanAllowedAre413AtTheByteThatCrossesTheBound() {
        RedsynException e = refusal("{\"a\": \"" + "x".repeat(2_000) + "\"}", LIMITS);
        assertEquals(413, e.status());
        // a stream that never ends is refused all the same, after the bound
        InputStream endless = new InputStream() {
            private long served;

            @Override
            public int read() {
                return served++ == 0 ? '{' : ' ';
            }
        };
        JsonBodyGuard guard = new JsonBodyGuard(endless, LIMITS);
        RedsynException endlessRefusal = assertThrows(RedsynException.class, () -> guard.readNBytes(10_000));
        assertEquals(413, endlessRefusal.status());
    }

    @Test
    void nestingDeeperThanAllowedIs400() throws IOException {
        readAll("{\"a\": " + "[".repeat(7) + "]".repeat(7) + "}", LIMITS);
        RedsynException e = refusal("{\"a\": " + "[".repeat(8) + "]".repeat(8) + "}", LIMITS);
        assertEquals(400, e.status());
        assertTrue(e.getMessage().contains("nested deeper than 8"), e.getMessage());
        assertEquals(400, refusal("{\"a\": " + "{\"b\": ".repeat(10), LIMITS).status());
    }

    @Test
    void bracketsInsideStringsDoNotCountAsNesting() throws IOException {
        readAll("{\"a\": \"" + "[{".repeat(100) + "\\\"[[[[[[[[[[\"}", LIMITS);
    }

    @Test
    void aNumberLongerThanAllowedIs400() throws IOException {
        readAll("{\"a\": " + "1".repeat(20) + ", \"b\": -1." + "2".repeat(17) + "}", LIMITS);
        assertEquals(400, refusal("{\"a\": " + "1".repeat(21) + "}", LIMITS).status());
        assertEquals(400, refusal("{\"a\": [0." + "1".repeat(25) + "]}", LIMITS).status());
        assertEquals(400, refusal("{\"a\": 1e" + "9".repeat(25) + "}", LIMITS).status());
        // digits in strings are text, not numbers
        readAll("{\"a\": \"" + "1".repeat(500) + "\"}", LIMITS);
    }

    @Test
    void aTopLevelValueOtherThanAnObjectIs422() throws IOException {
        for (String body : new String[] {"null", "[]", "\"x\"", "42", "-1", "true", "false", " \n [{\"v\": 1}]"}) {
            RedsynException e = refusal(body, LIMITS);
            assertEquals(422, e.status(), body);
            assertEquals("the body must be a JSON object", e.getMessage());
        }
        // an empty body, text that is no JSON at all and an unfinished literal are left to the parser's 400
        assertEquals(0, readAll("", LIMITS).length);
        assertEquals(3, readAll("xyz", LIMITS).length);
        assertEquals(3, readAll("nul", LIMITS).length);
    }

    @Test
    void aBodyThatEndsInsideAnObjectArrayOrStringIs400() {
        for (String body : new String[] {"[1, 2", "\"abc", "{\"x\":{\"b\"", "{\"v\": 1, \"kind\": \"ev", "{\"a\": [1, {"}) {
            RedsynException e = refusal(body, LIMITS);
            assertEquals(400, e.status(), body);
            assertTrue(e.getMessage().startsWith("invalid JSON: the body ends inside"), e.getMessage());
        }
    }

    @Test
    void textAfterTheObjectIs400() throws IOException {
        readAll("{\"v\": 1} \r\n\t ", LIMITS);
        assertEquals(400, refusal("{\"v\": 1} trailing", LIMITS).status());
        assertEquals(400, refusal("{\"v\": 1}{\"v\": 2}", LIMITS).status());
    }

    @Test
    void theTopLevelFilesMemberHasItsOwnBudget() throws IOException {
        JsonBodyGuard.Limits send = new JsonBodyGuard.Limits(100, 5_000, 8, 20);
        String zip = "A".repeat(4_000);
        readAll("{\"v\": 1, \"files\": {\"zip\": \"" + zip + "\"}, \"body\": {\"type\": \"text/plain\"}}", send);
        // the budget of files is not for other members, nor for a nested member called files
        assertEquals(413, refusal("{\"v\": 1, \"text\": \"" + zip + "\"}", send).status());
        assertEquals(413, refusal("{\"body\": {\"files\": {\"zip\": \"" + zip + "\"}}}", send).status());
        assertEquals(413, refusal("{\"filesx\": \"" + zip + "\"}", send).status());
        assertEquals(413, refusal("{\"files\": {\"zip\": \"" + "A".repeat(6_000) + "\"}}", send).status());
        // after the files member, the other members are counted again
        assertEquals(413, refusal("{\"files\": {\"zip\": \"AAAA\"}, \"text\": \"" + "x".repeat(200) + "\"}", send).status());
        // without a files budget (every call but a send), files is a member like any other
        assertEquals(14, readAll("{\"files\": 123}", LIMITS).length);
        // a string value "files" is not a member name
        assertEquals(413, refusal("{\"a\": \"files\", \"b\": \"" + zip + "\"}", send).status());
    }

    @Test
    void theSendBudgetHoldsAFiveMegabyteZipInMimeBase64() {
        long zip = 5L * 1024 * 1024;
        long mime = (zip + 2) / 3 * 4 / 76 * 80;
        assertTrue(BodyLimits.filesBytes(zip) > mime, "room for base64 with escaped line breaks");
        assertTrue(BodyLimits.filesBytes(zip) < 8L * 1024 * 1024);
    }

    @Test
    void singleByteReadsAreScannedToo() throws IOException {
        JsonBodyGuard guard = new JsonBodyGuard(new ByteArrayInputStream("[1]".getBytes(StandardCharsets.UTF_8)), LIMITS);
        assertEquals('[', guard.read());
        assertEquals('1', guard.read());
        assertEquals(422, assertThrows(RedsynException.class, guard::read).status(), "refused at the closing bracket");
        JsonBodyGuard number = new JsonBodyGuard(new ByteArrayInputStream("42".getBytes(StandardCharsets.UTF_8)), LIMITS);
        assertEquals('4', number.read());
        assertEquals('2', number.read());
        assertEquals(422, assertThrows(RedsynException.class, number::read).status(), "refused at the end of the number");
        JsonBodyGuard skipping = new JsonBodyGuard(new ByteArrayInputStream(("{\"a\": \"" + "x".repeat(2_000) + "\"}")
                .getBytes(StandardCharsets.UTF_8)), LIMITS);
        assertEquals(413, assertThrows(RedsynException.class, () -> skipping.skip(5_000)).status());
    }
}
