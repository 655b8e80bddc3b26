package org.switchboard.redsyn.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

class EnvelopeRendererTest {

    private static MessageEntity request() {
        return new MessageEntity("m1", Kind.REQUEST, 1_790_000_000_000L)
                .from(1, "acme/dev/joel/cli", null, 7L, "acme")
                .to(3, "acme/dev/ana/close#s9", 9L, 8, "acme")
                .content("m1", null, 1_790_000_000L, 3600, "{\"type\":\"text/plain\",\"text\":\"hi\"}",
                        "[{\"url\":\"https://x\",\"note\":\"n\"}]", false, false);
    }

    @Test
    void deliveredEnvelopeCarriesTheExtras() {
        JsonObject e = EnvelopeRenderer.delivered(request());
        assertEquals(1, e.getInt("v"));
        assertEquals("m1", e.getString("id"));
        assertEquals("request", e.getString("kind"));
        assertEquals("acme/dev/ana/close#s9", e.getString("to"));
        assertEquals(JsonValue.NULL, e.get("reply_to"));
        assertEquals(1_790_000_000L + 3600, e.getJsonNumber("expires").longValue());
        assertEquals(0, e.getInt("attempts"));
        assertFalse(e.getBoolean("signed"));
        assertFalse(e.containsKey("files"));
        assertFalse(e.containsKey("sig"));
        assertEquals("hi", e.getJsonObject("body").getString("text"));
        assertEquals("https://x", e.getJsonArray("refs").getJsonObject(0).getString("url"));
    }

    @Test
    void filesAreDeliveredAsSizeAndDigestOnly() {
        JsonObject e = EnvelopeRenderer.delivered(request().files(1234, "ab".repeat(32)));
        assertEquals(1234, e.getJsonObject("files").getInt("bytes"));
        assertEquals("ab".repeat(32), e.getJsonObject("files").getString("sha256"));
        assertFalse(e.getJsonObject("files").containsKey("zip"));
    }

    @Test
    void aVerifiedSignatureIsDeliveredAsStored() {
        JsonObject e = EnvelopeRenderer.delivered(request().signature(true,
                "{\"alg\":\"ed25519\",\"key\":\"k\",\"value\":\"v\",\"payload\":\"{}\",\"node\":\"laptop\",\"fingerprint\":\"f\"}"));
        assertTrue(e.getBoolean("signed"));
        assertEquals("laptop", e.getJsonObject("sig").getString("node"));
        assertEquals("{}", e.getJsonObject("sig").getString("payload"));
    }

    /** A row of {@link StoredEnvelope#COLUMNS}, written out by hand in that order (what the take's projection returns). */
    @Test
    void aProjectedRowRendersLikeTheEntity() {
        String sig = "{\"alg\":\"ed25519\",\"key\":\"k\",\"value\":\"v\",\"payload\":\"{}\",\"node\":\"laptop\",\"fingerprint\":\"f\"}";
        MessageEntity m = new MessageEntity("m1", Kind.REQUEST, 1_790_000_000_000L)
                .from(1, "acme/dev/joel/cli", null, 7L, "acme")
                .to(3, "acme/dev/ana/close#s9", 9L, 8, "acme")
                .content("t1", "m0", 1_790_000_000L, 3600, "{\"type\":\"text/plain\",\"text\":\"hi\"}",
                        "[{\"url\":\"https://x\",\"note\":\"n\"}]", true, false)
                .files(1234, "ab".repeat(32)).signature(true, sig).event("e1", "topic:acme/dev/news");
        Object[] row = {"m1", "e1", "request", "acme/dev/joel/cli", "acme/dev/ana/close#s9", "t1", "m0", 1_790_000_000L, 3600L,
                "{\"type\":\"text/plain\",\"text\":\"hi\"}", "[{\"url\":\"https://x\",\"note\":\"n\"}]", 1234L, "ab".repeat(32),
                true, 1_790_000_000_000L + 3_600_000L, 0, true, "topic:acme/dev/news", sig};
        assertEquals(EnvelopeRenderer.delivered(m), EnvelopeRenderer.delivered(StoredEnvelope.fromRow(row)));
        assertEquals(19, StoredEnvelope.COLUMNS.split(",").length, "one select item per record component");
    }
}
