package org.switchboard.synapse.attachments;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.Base64;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class AttachmentGrammarTest {

    private static final String DIGEST = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    private static void refused(String error, Supplier<?> call) {
        AttachmentRefusal refusal = assertThrows(AttachmentRefusal.class, call::get);
        assertEquals(error, refusal.error());
    }

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    @Test
    void scopeGrammar() {
        assertEquals("ACME", AttachmentGrammar.scope("ACME"));
        assertEquals("a", AttachmentGrammar.scope("a"));
        assertEquals("a" + "b".repeat(63), AttachmentGrammar.scope("a" + "b".repeat(63)));
        assertEquals("A_b.c-9", AttachmentGrammar.scope("A_b.c-9"));
        for (String bad : new String[] {"", "-a", "_a", ".a", "a/b", "a b", "a" + "b".repeat(64), "é", "../x", "a\0"}) {
            refused(AttachmentErrors.INVALID_SCOPE, () -> AttachmentGrammar.scope(bad));
        }
        refused(AttachmentErrors.INVALID_SCOPE, () -> AttachmentGrammar.scope(null));
    }

    @Test
    void digestGrammar() {
        assertEquals(DIGEST, AttachmentGrammar.digest(DIGEST));
        refused(AttachmentErrors.INVALID_DIGEST, () -> AttachmentGrammar.digest(DIGEST.toUpperCase()));
        refused(AttachmentErrors.INVALID_DIGEST, () -> AttachmentGrammar.digest(DIGEST.substring(1)));
        refused(AttachmentErrors.INVALID_DIGEST, () -> AttachmentGrammar.digest(DIGEST + "0"));
        refused(AttachmentErrors.INVALID_DIGEST, () -> AttachmentGrammar.digest(DIGEST.substring(1) + "g"));
    }

    @Test
    void mediaTypeGrammar() {
        assertEquals("text/plain", AttachmentGrammar.mediaType("text/plain"));
        assertEquals("application/vnd.a+json", AttachmentGrammar.mediaType("application/vnd.a+json"));
        assertEquals("a/b" + "c".repeat(80), AttachmentGrammar.mediaType("a/b" + "c".repeat(80)));
        String longest = "a".repeat(127) + "/" + "b".repeat(81);
        assertEquals(AttachmentGrammar.MAX_MEDIA_TYPE_CHARS, AttachmentGrammar.mediaType(longest).length());
        refused(AttachmentErrors.INVALID_MEDIA_TYPE, () -> AttachmentGrammar.mediaType("a" + longest));
        for (String bad : new String[] {"Text/plain", "text", "text/", "/plain", "text/plain; charset=utf-8",
                "a/b" + "c".repeat(81), "text/pl ain", "-a/b"}) {
            refused(AttachmentErrors.INVALID_MEDIA_TYPE, () -> AttachmentGrammar.mediaType(bad));
        }
    }

    @Test
    void provenanceGrammar() {
        assertEquals("ci:run/551", AttachmentGrammar.provenance("ci:run/551"));
        assertEquals("a#b@c-d_e.f", AttachmentGrammar.provenance("a#b@c-d_e.f"));
        assertEquals("a".repeat(256), AttachmentGrammar.provenance("a".repeat(256)));
        for (String bad : new String[] {"", "/abs", "a".repeat(257), "a b", "a?b", "a\nb"}) {
            refused(AttachmentErrors.INVALID_PROVENANCE, () -> AttachmentGrammar.provenance(bad));
        }
    }

    @Test
    void refGrammar() {
        assertEquals("ticket:42", AttachmentGrammar.ref("ticket:42"));
        assertEquals("a".repeat(128), AttachmentGrammar.ref("a".repeat(128)));
        for (String bad : new String[] {"", ":a", "a".repeat(129), "a/b", "a#b", "a b"}) {
            refused(AttachmentErrors.INVALID_REFERENCE, () -> AttachmentGrammar.ref(bad));
        }
    }

    @Test
    void lengthBounds() {
        assertEquals(0, AttachmentGrammar.length(0));
        assertEquals(8_388_608, AttachmentGrammar.length(8_388_608));
        refused(AttachmentErrors.INVALID_LENGTH, () -> AttachmentGrammar.length(8_388_609));
        refused(AttachmentErrors.INVALID_LENGTH, () -> AttachmentGrammar.length(-1));
    }

    @Test
    void expiryWindow() {
        double now = 1_790_000_000;
        assertEquals(now + 1, AttachmentGrammar.expiresAt(now + 1, now));
        assertEquals(now + 365 * 86_400, AttachmentGrammar.expiresAt(now + 365 * 86_400, now));
        refused(AttachmentErrors.INVALID_EXPIRY, () -> AttachmentGrammar.expiresAt(now, now));
        refused(AttachmentErrors.INVALID_EXPIRY, () -> AttachmentGrammar.expiresAt(now + 365 * 86_400 + 1, now));
        refused(AttachmentErrors.INVALID_EXPIRY, () -> AttachmentGrammar.expiresAt(Double.NaN, now));
        refused(AttachmentErrors.INVALID_EXPIRY, () -> AttachmentGrammar.expiresAt(Double.POSITIVE_INFINITY, now));
    }

    @Test
    void uploadIds() {
        assertTrue(AttachmentGrammar.isUploadId("0".repeat(48)));
        assertFalse(AttachmentGrammar.isUploadId("0".repeat(47)));
        assertFalse(AttachmentGrammar.isUploadId("A".repeat(48)));
        assertFalse(AttachmentGrammar.isUploadId("../" + "0".repeat(45)));
        assertFalse(AttachmentGrammar.isUploadId(null));
    }

    @Test
    void strictBase64Body() {
        byte[] full = new byte[32_768];
        full[7] = 9;
        String encoded = Base64.getEncoder().encodeToString(full);
        assertEquals(43_692, encoded.length());
        assertArrayEquals(full, AttachmentGrammar.chunkBody(encoded));
        assertArrayEquals(new byte[] {'A'}, AttachmentGrammar.chunkBody("QQ=="));
        // one byte over 32 KiB encodes to 43 692 characters too: the decoded bound catches it
        refused(AttachmentErrors.INVALID_CHUNK_LENGTH,
                () -> AttachmentGrammar.chunkBody(Base64.getEncoder().encodeToString(new byte[32_769])));
        refused(AttachmentErrors.INVALID_CHUNK_LENGTH,
                () -> AttachmentGrammar.chunkBody(Base64.getEncoder().encodeToString(new byte[32_770])));
        refused(AttachmentErrors.INVALID_CHUNK_LENGTH, () -> AttachmentGrammar.chunkBody(""));
        for (String bad : new String[] {"QQ", "QQ=", "QR==", "Q Q==", "QQ==\n", "-_8=", "QQ==QQ==", "====", "QUJD\r\n"}) {
            refused(AttachmentErrors.INVALID_CHUNK, () -> AttachmentGrammar.chunkBody(bad));
        }
    }

    @Test
    void fieldTypes() {
        JsonObject frame = json("{\"s\":\"x\",\"n\":5,\"f\":5.5,\"i\":4.0,\"b\":true,\"z\":\"5\",\"big\":99999999999999999999999}");
        assertEquals("x", AttachmentGrammar.string(frame, "s"));
        assertEquals(5, AttachmentGrammar.integer(frame, "n"));
        assertEquals(Long.MAX_VALUE, AttachmentGrammar.integer(frame, "big"));
        assertEquals(5.5, AttachmentGrammar.number(frame, "f"));
        assertTrue(AttachmentGrammar.flag(frame, "b"));
        assertFalse(AttachmentGrammar.flag(frame, "missing"));
        refused(AttachmentErrors.UNAVAILABLE, () -> AttachmentGrammar.string(frame, "n"));
        refused(AttachmentErrors.UNAVAILABLE, () -> AttachmentGrammar.string(frame, "missing"));
        refused(AttachmentErrors.UNAVAILABLE, () -> AttachmentGrammar.integer(frame, "f"));
        refused(AttachmentErrors.UNAVAILABLE, () -> AttachmentGrammar.integer(frame, "i"));
        refused(AttachmentErrors.UNAVAILABLE, () -> AttachmentGrammar.integer(frame, "z"));
        refused(AttachmentErrors.UNAVAILABLE, () -> AttachmentGrammar.integer(frame, "b"));
        refused(AttachmentErrors.UNAVAILABLE, () -> AttachmentGrammar.number(frame, "b"));
        refused(AttachmentErrors.UNAVAILABLE, () -> AttachmentGrammar.flag(frame, "z"));
    }

    @Test
    void everyStableStringIsListedOnce() {
        assertEquals(25, AttachmentErrors.ALL.size());
        assertEquals(25, AttachmentErrors.ALL.stream().distinct().count());
    }
}
