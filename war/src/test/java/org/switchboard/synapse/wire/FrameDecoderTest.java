package org.switchboard.synapse.wire;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

class FrameDecoderTest {

    private final FrameDecoder decoder = new FrameDecoder();

    @Test
    void decodesAnObjectFrame() {
        JsonValue value = decoder.decode("{\"type\":\"chat\",\"payload\":\"hi\",\"n\":[1,{\"a\":null}]}");
        assertEquals("chat", ((JsonObject) value).getString("type"));
    }

    @Test
    void nestingOf64IsAcceptedAnd65Rejected() {
        assertDoesNotThrow(() -> decoder.decode("[".repeat(64) + "]".repeat(64)));
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> decoder.decode("[".repeat(65) + "]".repeat(65)));
        assertThrows(FrameDecoder.MalformedJsonException.class,
                () -> decoder.decode("{\"a\":" + "{\"b\":".repeat(64) + "1" + "}".repeat(65)));
    }

    @Test
    void bracketsInsideStringsAndEscapedQuotesDoNotCount() {
        String deepText = "\\\"" + "[".repeat(200);
        assertDoesNotThrow(() -> decoder.decode("{\"payload\":\"" + deepText + "\"}"));
    }

    @Test
    void preScanStopsAtTheFirstExcessWithoutParsing() {
        // unbalanced garbage after the excess never reaches the parser
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> decoder.preScan("[".repeat(65) + "garbage"));
    }

    @Test
    void nonFiniteNumbersAreRejected() {
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> decoder.decode("{\"x\":NaN}"));
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> decoder.decode("{\"x\":Infinity}"));
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> decoder.decode("{\"x\":-Infinity}"));
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> decoder.decode("{\"x\":1e400}"));
        assertDoesNotThrow(() -> decoder.decode("{\"x\":1.5e300}"));
    }

    @Test
    void overLongIntegerLiteralsAreRejected() {
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> decoder.decode("{\"n\":" + "1".repeat(4301) + "}"));
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> decoder.decode("[-" + "7".repeat(4301) + "]"));
        FrameDecoder small = new FrameDecoder(64, 10);
        assertDoesNotThrow(() -> small.decode("{\"n\":1234567890}"));
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> small.decode("{\"n\":12345678901}"));
        // fraction digits are not an integer literal; digits inside strings are text
        assertDoesNotThrow(() -> small.decode("{\"n\":0.123456789012,\"s\":\"123456789012345\"}"));
    }

    @Test
    void malformedTextIsRejected() {
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> decoder.decode("{not json"));
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> decoder.decode(""));
    }
}
