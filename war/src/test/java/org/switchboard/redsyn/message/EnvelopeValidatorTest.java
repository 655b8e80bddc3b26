package org.switchboard.redsyn.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.plan.Plan;

class EnvelopeValidatorTest {

    private final EnvelopeValidator validator = new EnvelopeValidator(Plan.BODY_BYTES, Plan.ZIP_BYTES);

    private static JsonObjectBuilder request() {
        return Json.createObjectBuilder().add("v", 1).add("kind", "request").add("from", "acme/dev/joel/cli")
                .add("to", "ana/close").add("body", Json.createObjectBuilder().add("type", "text/plain").add("text", "hi"));
    }

    private static JsonObjectBuilder reply() {
        return Json.createObjectBuilder().add("v", 1).add("kind", "reply").add("from", "acme/dev/ana/close")
                .add("reply_to", "m1").add("body", Json.createObjectBuilder().add("type", "text/plain").add("text", "ok"));
    }

    private int refusal(JsonObject e) {
        return assertThrows(RedsynException.class, () -> validator.validate(e)).status();
    }

    private String message(JsonObject e) {
        return assertThrows(RedsynException.class, () -> validator.validate(e)).getMessage();
    }

    @Test
    void aMinimalRequestPasses() {
        EnvelopeDraft d = validator.validate(request().build());
        assertEquals(Kind.REQUEST, d.kind());
        assertNull(d.id());
        assertEquals("ana/close", d.to());
        assertEquals("acme/dev/joel/cli", d.from().toString());
        assertFalse(d.error());
        assertFalse(d.encrypted());
        assertTrue(d.refs().isEmpty());
    }

    @Test
    void vMustBeOne() {
        assertEquals(422, refusal(request().add("v", 2).build()));
        assertEquals(422, refusal(request().add("v", "1").build()));
        assertEquals(422, refusal(request().remove("v").build()));
        assertEquals("v must be 1", message(request().add("v", 2).build()));
    }

    @Test
    void kindMustBeKnown() {
        assertEquals(422, refusal(request().add("kind", "ping").build()));
    }

    @Test
    void fromMustBeAFullAddressAndNotNew() {
        assertEquals(422, refusal(request().add("from", "joel/cli").build()));
        assertEquals(422, refusal(request().add("from", "acme/dev/joel/cli#new").build()));
        assertEquals("acme/dev/joel/cli#s3", validator.validate(request().add("from", "acme/dev/joel/cli#s3").build()).from().toString());
    }

    @Test
    void requestNeedsToAndRefusesReplyTo() {
        assertEquals(422, refusal(request().remove("to").build()));
        assertEquals(422, refusal(request().add("reply_to", "m1").build()));
        assertEquals(422, refusal(request().add("to", "topic:acme/x/y").build()));
    }

    @Test
    void progressAndReplyNeedReplyToAndIgnoreTo() {
        EnvelopeDraft d = validator.validate(reply().add("to", "whatever/not/even/valid!").build());
        assertNull(d.to());
        assertEquals("m1", d.replyTo());
        assertEquals(422, refusal(reply().remove("reply_to").build()));
        assertEquals(Kind.PROGRESS, validator.validate(reply().add("kind", "progress").build()).kind());
    }

    @Test
    void errorOnlyOnAReply() {
        assertTrue(validator.validate(reply().add("error", true).build()).error());
        assertEquals(422, refusal(request().add("error", true).build()));
        assertEquals(422, refusal(reply().add("error", "yes").build()));
    }

    @Test
    void eventsGoToTopics() {
        JsonObject event = request().add("kind", "event").add("to", "topic:acme/finance/invoices").build();
        assertEquals(Kind.EVENT, validator.validate(event).kind());
        assertEquals(422, refusal(request().add("kind", "event").build()));
    }

    @Test
    void bodyTypes() {
        assertEquals(422, refusal(request().add("body", Json.createObjectBuilder().add("type", "text/html").add("text", "x")).build()));
        assertEquals(422, refusal(request().add("body", Json.createObjectBuilder().add("type", "text/plain")).build()));
        assertEquals(422, refusal(request().add("body", Json.createObjectBuilder().add("type", "application/json")).build()));
        assertEquals(422, refusal(request().add("body", "hi").build()));
        assertEquals(422, refusal(request().remove("body").build()));
        JsonObject json = request().add("body", Json.createObjectBuilder().add("type", "application/json").add("data", Json.createObjectBuilder().add("n", 1))).build();
        assertEquals(1, validator.validate(json).body().getJsonObject("data").getInt("n"));
        JsonObject enc = request().add("body", Json.createObjectBuilder().add("type", EnvelopeDraft.ENCRYPTED_TYPE)
                .add("enc", Json.createObjectBuilder().add("v", 1))).build();
        assertTrue(validator.validate(enc).encrypted());
    }

    @Test
    void bodyUpTo64KB() {
        String big = "x".repeat(64 * 1024);
        JsonObject tooBig = request().add("body", Json.createObjectBuilder().add("type", "text/plain").add("text", big)).build();
        RedsynException e = assertThrows(RedsynException.class, () -> validator.validate(tooBig));
        assertEquals(413, e.status());
        assertEquals("body is larger than 64 KB", e.getMessage());
        String fits = "x".repeat(64 * 1024 - 40);
        validator.validate(request().add("body", Json.createObjectBuilder().add("type", "text/plain").add("text", fits)).build());
    }

    @Test
    void filesAreBase64UpTo5MB() {
        byte[] zip = {'P', 'K', 3, 4, 1, 2, 3};
        EnvelopeDraft d = validator.validate(request().add("files", Json.createObjectBuilder()
                .add("zip", Base64.getEncoder().encodeToString(zip))).build());
        assertArrayEquals(zip, d.zip());
        assertEquals(422, refusal(request().add("files", Json.createObjectBuilder().add("zip", "***")).build()));
        assertEquals(422, refusal(request().add("files", "zip").build()));
        String huge = Base64.getEncoder().encodeToString(new byte[Plan.ZIP_BYTES + 1]);
        assertEquals(413, refusal(request().add("files", Json.createObjectBuilder().add("zip", huge)).build()));
    }

    @Test
    void refsMustBeAListOfObjects() {
        JsonObject ok = request().add("refs", Json.createArrayBuilder().add(Json.createObjectBuilder().add("url", "https://x").add("note", "n"))).build();
        assertEquals(1, validator.validate(ok).refs().size());
        assertEquals(422, refusal(request().add("refs", Json.createArrayBuilder().add("https://x")).build()));
        assertEquals(422, refusal(request().add("refs", "https://x").build()));
    }

    @Test
    void idsTtlAndTs() {
        assertEquals("m-1.a:b_c", validator.validate(request().add("id", "m-1.a:b_c").build()).id());
        assertEquals(422, refusal(request().add("id", "has space").build()));
        assertEquals(422, refusal(request().add("id", "").build()));
        assertEquals(422, refusal(request().add("ttl", 0).build()));
        assertEquals(422, refusal(request().add("ttl", -5).build()));
        assertEquals(422, refusal(request().add("ttl", 1.5).build()));
        assertEquals(3600L, validator.validate(request().add("ttl", 3600).build()).ttl());
        assertEquals(422, refusal(request().add("thread", "a b").build()));
    }

    @Test
    void aSignatureNeedsTsAndItsFields() {
        JsonObject sig = Json.createObjectBuilder().add("alg", "ed25519").add("key", "k").add("value", "v").build();
        assertEquals("ts is required on a signed envelope", message(request().add("sig", sig).build()));
        assertTrue(validator.validate(request().add("sig", sig).add("ts", 1790000000).build()).hasSignature());
        assertEquals(422, refusal(request().add("ts", 1).add("sig", Json.createObjectBuilder().add("alg", "ed25519")).build()));
    }
}
