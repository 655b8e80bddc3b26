package org.switchboard.synapse.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FrameSizeLimitTest {

    private static final FrameSizeLimit FOUR_KIB = FrameSizeLimit.ofKib(4);

    @Test
    void asciiFramesAreMeasuredByLength() {
        assertFalse(FOUR_KIB.tooBig("x".repeat(4096)));
        assertTrue(FOUR_KIB.tooBig("x".repeat(4097)));
        assertFalse(FOUR_KIB.tooBig(""));
    }

    @Test
    void multiByteTextIsMeasuredInUtf8Bytes() {
        String twoByte = "é".repeat(2048); // 4096 bytes in 2048 chars
        assertFalse(FOUR_KIB.tooBig(twoByte));
        assertTrue(FOUR_KIB.tooBig(twoByte + "x"));
        String threeByte = "€".repeat(1366); // 4098 bytes in 1366 chars
        assertTrue(FOUR_KIB.tooBig(threeByte));
        assertFalse(FOUR_KIB.tooBig("€".repeat(1365)));
        String emoji = "😀".repeat(1024); // surrogate pairs: 4 bytes each, 4096 bytes in 2048 chars
        assertFalse(FOUR_KIB.tooBig(emoji));
        assertTrue(FOUR_KIB.tooBig(emoji + "x"));
    }

    @Test
    void countedLengthMatchesTheEncoder() {
        String mixed = "a\u00e9\u20ac\ud83d\ude00z" + "\u0800" + "\u07ff";
        assertEquals(mixed.getBytes(StandardCharsets.UTF_8).length, FrameSizeLimit.utf8Length(mixed));
    }

    @Test
    void binaryFramesAreMeasuredByRemainingBytes() {
        assertFalse(FOUR_KIB.tooBig(ByteBuffer.allocate(4096)));
        assertTrue(FOUR_KIB.tooBig(ByteBuffer.allocate(4097)));
    }

    @Test
    void theConfiguredKibAreClampedToWhatTheContainerCanBuffer() {
        assertEquals(1024 * 1024, FrameSizeLimit.ofKib(1024).maxBytes());
        assertEquals(1024, FrameSizeLimit.ofKib(0).maxBytes());
        assertEquals(FrameSizeLimit.MAX_KIB * 1024, FrameSizeLimit.ofKib(1_000_000).maxBytes());
    }

    @Test
    void theContainersFrameBufferFitsTheLargestLegalFramePlusOneGatedRead() throws Exception {
        String webXml = java.nio.file.Files.readString(java.nio.file.Path.of("src/main/webapp/WEB-INF/web.xml"));
        java.util.regex.Matcher size = java.util.regex.Pattern.compile(
                "org\\.glassfish\\.tyrus\\.servlet\\.incoming-buffer-size</param-name>\\s*<param-value>(\\d+)</param-value>")
                .matcher(webXml);
        assertTrue(size.find(), "web.xml sets Tyrus's incoming buffer");
        // a frame of MAX_KIB with a 14-byte header, plus one 64 KiB read of the next frame behind it
        assertTrue(Long.parseLong(size.group(1)) >= FrameSizeLimit.MAX_KIB * 1024L + 14 + 64 * 1024);
    }
}
