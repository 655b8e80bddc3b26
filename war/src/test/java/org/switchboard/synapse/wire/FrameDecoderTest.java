package org.switchboard.synapse.wire;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.math.BigInteger;
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
        // digits inside strings are text
        assertDoesNotThrow(() -> small.decode("{\"n\":0.12345678,\"s\":\"123456789012345\"}"));
    }

    @Test
    void integerLiteralsUpToTheSpecBoundAreParsedExactly() {
        // Parsson refuses number literals over 1100 characters unless told otherwise: §6.2 allows 4300 digits
        String digits = "9".repeat(4300);
        JsonObject frame = (JsonObject) decoder.decode("{\"n\":" + digits + ",\"m\":-" + digits + "}");
        assertEquals(new BigInteger(digits), frame.getJsonNumber("n").bigIntegerValueExact());
        assertEquals(new BigInteger("-" + digits), frame.getJsonNumber("m").bigIntegerValue());
        assertEquals(digits, SynapseCanonicalJson.ascii(frame.get("n")));
        assertDoesNotThrow(() -> decoder.decode("{\"n\":" + "1".repeat(1101) + "}"));
    }

    @Test
    void fractionAndExponentDigitsCountTowardsTheSameBound() {
        // the whole literal's digits count: no number carries more than 4300 digits into the parser
        String mantissa = "1." + "2".repeat(4298); // 4299 digits
        assertDoesNotThrow(() -> decoder.decode("[" + mantissa + "]"));
        assertDoesNotThrow(() -> decoder.decode("[" + mantissa + "e5]")); // 4300 digits
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> decoder.decode("[" + mantissa + "e50]"));
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> decoder.decode("[0." + "0".repeat(4300) + "1]"));
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> decoder.decode("[1E-" + "0".repeat(4300) + "]"));
        FrameDecoder small = new FrameDecoder(64, 10);
        assertDoesNotThrow(() -> small.decode("[-1.2345e+67]"));
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> small.decode("[0.1234567890]"));
        // numbers separated by structure are counted separately
        assertDoesNotThrow(() -> small.decode("[1234567890,1234567890,{\"a\":1234567890}]"));
    }

    @Test
    void anyParserFailureOnClientTextIsMalformedJson() {
        // a literal the bound admits but Parsson's own limits would refuse must never escape as another exception
        FrameDecoder generous = new FrameDecoder(64, 100_000);
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> generous.decode("[" + "1".repeat(20_000) + "]"));
    }

    @Test
    void malformedTextIsRejected() {
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> decoder.decode("{not json"));
        assertThrows(FrameDecoder.MalformedJsonException.class, () -> decoder.decode(""));
    }
}
