package org.switchboard.redsyn.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.switchboard.crypto.NodeKeys;
import org.switchboard.crypto.NodeKeysTest;
import org.switchboard.crypto.Base64Url;
import org.switchboard.crypto.Hex;
import org.switchboard.crypto.CryptoFormatException;

/** The signed payload, the relay's check with every refusal, the delivered sig and the receiver's check. */
class EnvelopeSignatureTest {

    static final long NOW = 1_790_000_000L;
    /** base64 of the bytes "PK-zip-bytes"; their SHA-256 below was computed with coreutils sha256sum. */
    static final String ZIP_B64 = "UEstemlwLWJ5dGVz";
    static final String ZIP_SHA256 = "1fb9bd7c8f214b764b0da4e9afbe1b57d3268f84c01c4a0d951de7f859ce7bfd";

    static final PrivateKey RFC_PRIVATE = NodeKeys.ed25519PrivateKey(Hex.decode(NodeKeysTest.RFC8032_SECRET));
    static final PublicKey RFC_PUBLIC = NodeKeys.ed25519PublicKey(NodeKeysTest.RFC8032_PUBLIC_B64URL);
    static final String RFC_KEY = NodeKeysTest.RFC8032_PUBLIC_B64URL;

    static JsonObject envelope() {
        return json("{\"v\":1,\"id\":\"m1\",\"kind\":\"request\",\"from\":\"acme/dev/joel/reviewer#s4\","
                + "\"to\":\"globex/erp/bob/billing\",\"reply_to\":null,\"ts\":" + NOW + ",\"ttl\":86400,"
                + "\"body\":{\"type\":\"text/plain\",\"text\":\"Is invoice 123 paid?\"},"
                + "\"files\":{\"zip\":\"" + ZIP_B64 + "\"},\"error\":false}");
    }

    @Test
    void payloadIsTheCanonicalFormOfTheTwelveFields() {
        String expected = "{\"body\":{\"text\":\"Is invoice 123 paid?\",\"type\":\"text/plain\"},\"error\":false,"
                + "\"files_sha256\":\"" + ZIP_SHA256 + "\",\"from\":\"acme/dev/joel/reviewer#s4\",\"id\":\"m1\","
                + "\"kind\":\"request\",\"refs\":[],\"reply_to\":\"\",\"thread\":\"\",\"to\":\"globex/erp/bob/billing\","
                + "\"ts\":1790000000,\"v\":1}";
        assertEquals(expected, EnvelopeSignature.signedPayload(envelope()));
    }

    @Test
    void missingFieldsTakeTheirDocumentedDefaults() {
        JsonObject minimal = json("{\"ts\":5,\"body\":{\"type\":\"text/plain\",\"text\":\"x\"}}");
        assertEquals("{\"body\":{\"text\":\"x\",\"type\":\"text/plain\"},\"error\":false,\"files_sha256\":\"\","
                + "\"from\":\"\",\"id\":\"\",\"kind\":\"\",\"refs\":[],\"reply_to\":\"\",\"thread\":\"\",\"to\":\"\","
                + "\"ts\":5,\"v\":1}", EnvelopeSignature.signedPayload(minimal));
        // null and missing are the same thing for every covered field
        JsonObject nulls = json("{\"v\":null,\"id\":null,\"kind\":null,\"from\":null,\"to\":null,\"thread\":null,"
                + "\"reply_to\":null,\"ts\":5,\"body\":{\"type\":\"text/plain\",\"text\":\"x\"},\"refs\":null,"
                + "\"files\":null,\"error\":null}");
        assertEquals(EnvelopeSignature.signedPayload(minimal), EnvelopeSignature.signedPayload(nulls));
    }

    @Test
    void deliveredFilesShaStandsInForTheZip() {
        JsonObject delivered = Json.createObjectBuilder(envelope())
                .add("files", Json.createObjectBuilder().add("bytes", 12).add("sha256", ZIP_SHA256)).build();
        assertEquals(EnvelopeSignature.signedPayload(envelope()), EnvelopeSignature.signedPayload(delivered));
    }

    @Test
    void badlyTypedCoveredFieldsAreRefused() {
        assertThrows(CryptoFormatException.class, () -> EnvelopeSignature.signedPayload(with("id", Json.createValue(7))));
        assertThrows(CryptoFormatException.class, () -> EnvelopeSignature.signedPayload(with("refs", Json.createValue("x"))));
        assertThrows(CryptoFormatException.class, () -> EnvelopeSignature.signedPayload(with("error", Json.createValue("no"))));
        assertThrows(CryptoFormatException.class, () -> EnvelopeSignature.signedPayload(with("ts", Json.createValue(1.5))));
        assertThrows(CryptoFormatException.class, () -> EnvelopeSignature.signedPayload(with("files",
                Json.createObjectBuilder().add("zip", "***").build())));
        assertThrows(CryptoFormatException.class, () -> EnvelopeSignature.signedPayload(
                Json.createObjectBuilder(envelope()).remove("ts").build()));
    }

    @Test
    void validSignatureWithTheRfc8032Key() {
        JsonObject signed = EnvelopeSignature.withSignature(envelope(), RFC_PRIVATE, RFC_PUBLIC);
        SignatureCheck check = EnvelopeSignature.verify(signed, RFC_KEY, NOW);
        assertEquals(SignatureCheck.Outcome.VALID, check.outcome(), check.message());
        assertTrue(check.signed());
        assertFalse(check.refused());
        assertEquals(EnvelopeSignature.signedPayload(envelope()), check.payload());
        assertEquals("21fe31dfa154a261626bf854046fd2271b7bed4b6abe45aa58877ef47f9721b9", check.fingerprint());
        // The signature is an ordinary Ed25519 signature of the payload's UTF-8 bytes.
        byte[] value = Base64Url.decode(signed.getJsonObject("sig").getString("value"));
        assertTrue(NodeKeys.verify(RFC_PUBLIC, check.payload().getBytes(StandardCharsets.UTF_8), value));
    }

    @Test
    void validSignatureWithGeneratedKey() {
        KeyPair pair = NodeKeys.newEd25519KeyPair();
        JsonObject signed = EnvelopeSignature.withSignature(envelope(), pair.getPrivate(), pair.getPublic());
        assertEquals(SignatureCheck.Outcome.VALID,
                EnvelopeSignature.verify(signed, NodeKeys.ed25519Text(pair.getPublic()), NOW).outcome());
    }

    @Test
    void unsignedEnvelopeIsNotARefusal() {
        SignatureCheck check = EnvelopeSignature.verify(envelope(), RFC_KEY, NOW);
        assertEquals(SignatureCheck.Outcome.UNSIGNED, check.outcome());
        assertFalse(check.refused());
        assertFalse(check.signed());
    }

    static Stream<Arguments> coveredFieldChanges() {
        return Stream.of(
                Arguments.of("v", (UnaryOperator<JsonObjectBuilder>) b -> b.add("v", 2)),
                Arguments.of("id", (UnaryOperator<JsonObjectBuilder>) b -> b.add("id", "m2")),
                Arguments.of("kind", (UnaryOperator<JsonObjectBuilder>) b -> b.add("kind", "event")),
                Arguments.of("from", (UnaryOperator<JsonObjectBuilder>) b -> b.add("from", "acme/dev/joel/reviewer#s5")),
                Arguments.of("to", (UnaryOperator<JsonObjectBuilder>) b -> b.add("to", "globex/erp/bob/payroll")),
                Arguments.of("to removed", (UnaryOperator<JsonObjectBuilder>) b -> b.remove("to")),
                Arguments.of("thread", (UnaryOperator<JsonObjectBuilder>) b -> b.add("thread", "m0")),
                Arguments.of("reply_to", (UnaryOperator<JsonObjectBuilder>) b -> b.add("reply_to", "m0")),
                Arguments.of("ts", (UnaryOperator<JsonObjectBuilder>) b -> b.add("ts", NOW + 1)),
                Arguments.of("body text", (UnaryOperator<JsonObjectBuilder>) b -> b.add("body",
                        Json.createObjectBuilder().add("type", "text/plain").add("text", "Is invoice 124 paid?"))),
                Arguments.of("body extra member", (UnaryOperator<JsonObjectBuilder>) b -> b.add("body",
                        Json.createObjectBuilder().add("type", "text/plain").add("text", "Is invoice 123 paid?")
                                .add("urgent", true))),
                Arguments.of("refs", (UnaryOperator<JsonObjectBuilder>) b -> b.add("refs",
                        Json.createArrayBuilder().add(Json.createObjectBuilder().add("url", "https://x")))),
                Arguments.of("files zip", (UnaryOperator<JsonObjectBuilder>) b -> b.add("files",
                        Json.createObjectBuilder().add("zip", "UEstemlwLWJ5dGVa"))),
                Arguments.of("files removed", (UnaryOperator<JsonObjectBuilder>) b -> b.remove("files")),
                Arguments.of("error", (UnaryOperator<JsonObjectBuilder>) b -> b.add("error", true)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("coveredFieldChanges")
    void changingACoveredFieldBreaksTheSignature(String what, UnaryOperator<JsonObjectBuilder> change) {
        JsonObject signed = EnvelopeSignature.withSignature(envelope(), RFC_PRIVATE, RFC_PUBLIC);
        JsonObject tampered = change.apply(Json.createObjectBuilder(signed)).build();
        assertNotEquals(signed, tampered);
        SignatureCheck check = EnvelopeSignature.verify(tampered, RFC_KEY, NOW);
        assertEquals(SignatureCheck.Outcome.BAD_SIGNATURE, check.outcome(), what);
        assertEquals(401, check.httpStatus());
    }

    @Test
    void fieldsOutsideThePayloadAreNotCovered() {
        JsonObject signed = EnvelopeSignature.withSignature(envelope(), RFC_PRIVATE, RFC_PUBLIC);
        JsonObject extra = Json.createObjectBuilder(signed).add("ttl", 60).add("x-client", "syn 1.0")
                .add("reply_to", JsonValue.NULL).build();
        assertEquals(SignatureCheck.Outcome.VALID, EnvelopeSignature.verify(extra, RFC_KEY, NOW).outcome());
        // a text field sent as "" is the same as missing or null
        JsonObject empty = Json.createObjectBuilder(signed).add("thread", "").add("reply_to", "").build();
        assertEquals(SignatureCheck.Outcome.VALID, EnvelopeSignature.verify(empty, RFC_KEY, NOW).outcome());
    }

    @Test
    void keyOrderAndNumberSpellingDoNotMatter() {
        JsonObject signed = EnvelopeSignature.withSignature(envelope(), RFC_PRIVATE, RFC_PUBLIC);
        String sig = signed.getJsonObject("sig").toString();
        JsonObject respelled = json("{\"sig\":" + sig + ",\"error\":false,\"files\":{\"zip\":\"" + ZIP_B64 + "\"},"
                + "\"body\":{\"text\":\"Is invoice 123 paid?\",\"type\":\"text/plain\"},\"ttl\":86400,\"ts\":1.79e9,"
                + "\"to\":\"globex/erp/bob/billing\",\"from\":\"acme/dev/joel/reviewer#s4\",\"kind\":\"request\","
                + "\"id\":\"m1\",\"v\":1.0}");
        assertEquals(SignatureCheck.Outcome.VALID, EnvelopeSignature.verify(respelled, RFC_KEY, NOW).outcome());
    }

    @Test
    void timeWindowIsTenMinutesEitherWay() {
        JsonObject signed = EnvelopeSignature.withSignature(envelope(), RFC_PRIVATE, RFC_PUBLIC);
        assertEquals(SignatureCheck.Outcome.VALID, EnvelopeSignature.verify(signed, RFC_KEY, NOW + 600).outcome());
        assertEquals(SignatureCheck.Outcome.VALID, EnvelopeSignature.verify(signed, RFC_KEY, NOW - 600).outcome());
        SignatureCheck late = EnvelopeSignature.verify(signed, RFC_KEY, NOW + 601);
        assertEquals(SignatureCheck.Outcome.STALE, late.outcome());
        assertEquals(401, late.httpStatus());
        assertTrue(late.message().contains("ten minutes"), late.message());
        assertEquals(SignatureCheck.Outcome.STALE, EnvelopeSignature.verify(signed, RFC_KEY, NOW - 601).outcome());
    }

    @Test
    void onlyTheRegisteredKeyIsAccepted() {
        KeyPair other = NodeKeys.newEd25519KeyPair();
        // Signed correctly, but by a key this node did not register.
        JsonObject byOther = EnvelopeSignature.withSignature(envelope(), other.getPrivate(), other.getPublic());
        SignatureCheck wrong = EnvelopeSignature.verify(byOther, RFC_KEY, NOW);
        assertEquals(SignatureCheck.Outcome.WRONG_KEY, wrong.outcome());
        assertEquals(401, wrong.httpStatus());
        // Claims the registered key, but the signature was made by another.
        JsonObject forged = Json.createObjectBuilder(byOther).add("sig", Json.createObjectBuilder(
                byOther.getJsonObject("sig")).add("key", RFC_KEY)).build();
        assertEquals(SignatureCheck.Outcome.BAD_SIGNATURE, EnvelopeSignature.verify(forged, RFC_KEY, NOW).outcome());
        // No key registered at all.
        JsonObject signed = EnvelopeSignature.withSignature(envelope(), RFC_PRIVATE, RFC_PUBLIC);
        assertEquals(SignatureCheck.Outcome.NO_REGISTERED_KEY, EnvelopeSignature.verify(signed, null, NOW).outcome());
    }

    @Test
    void malformedSignaturesAreRefusedWithAReason() {
        JsonObject signed = EnvelopeSignature.withSignature(envelope(), RFC_PRIVATE, RFC_PUBLIC);
        JsonObject sig = signed.getJsonObject("sig");
        assertMalformed(Json.createObjectBuilder(signed).add("sig", "abc").build());
        assertMalformed(Json.createObjectBuilder(signed).add("sig", Json.createObjectBuilder(sig).add("alg", "rsa")).build());
        assertMalformed(Json.createObjectBuilder(signed).add("sig", Json.createObjectBuilder(sig).remove("value")).build());
        assertMalformed(Json.createObjectBuilder(signed).add("sig", Json.createObjectBuilder(sig).add("value", "not base64!")).build());
        assertMalformed(Json.createObjectBuilder(signed).add("sig", Json.createObjectBuilder(sig).add("value", "AAAA")).build());
        SignatureCheck noTs = EnvelopeSignature.verify(Json.createObjectBuilder(signed).remove("ts").build(), RFC_KEY, NOW);
        assertEquals(SignatureCheck.Outcome.MALFORMED, noTs.outcome());
        assertTrue(noTs.message().contains("ts"), noTs.message());
        assertEquals("{\"error\":\"" + noTs.message() + "\",\"status\":401}", noTs.errorBody().toString());
    }

    @Test
    void aClaimedPayloadMustBeWhatArrived() {
        JsonObject signed = EnvelopeSignature.withSignature(envelope(), RFC_PRIVATE, RFC_PUBLIC);
        String payload = EnvelopeSignature.signedPayload(envelope());
        JsonObject same = Json.createObjectBuilder(signed).add("sig",
                Json.createObjectBuilder(signed.getJsonObject("sig")).add("payload", payload)).build();
        assertEquals(SignatureCheck.Outcome.VALID, EnvelopeSignature.verify(same, RFC_KEY, NOW).outcome());
        JsonObject other = Json.createObjectBuilder(signed).add("sig",
                Json.createObjectBuilder(signed.getJsonObject("sig")).add("payload", payload.replace("m1", "m9"))).build();
        assertEquals(SignatureCheck.Outcome.BAD_SIGNATURE, EnvelopeSignature.verify(other, RFC_KEY, NOW).outcome());
    }

    @Test
    void deliveredSigLetsTheReceiverVerifyWithoutTheRelay() {
        JsonObject signed = EnvelopeSignature.withSignature(envelope(), RFC_PRIVATE, RFC_PUBLIC);
        SignatureCheck check = EnvelopeSignature.verify(signed, RFC_KEY, NOW);
        JsonObject sig = check.deliveredSig("joel-laptop");
        assertEquals("ed25519", sig.getString("alg"));
        assertEquals(RFC_KEY, sig.getString("key"));
        assertEquals(signed.getJsonObject("sig").getString("value"), sig.getString("value"));
        assertEquals(check.payload(), sig.getString("payload"));
        assertEquals("joel-laptop", sig.getString("node"));
        assertEquals(NodeKeys.fingerprint(RFC_KEY), sig.getString("fingerprint"));

        // As delivered: files replaced by {bytes, sha256}, relay-added fields, the session in `to`.
        JsonObject delivered = Json.createObjectBuilder(signed)
                .add("files", Json.createObjectBuilder().add("bytes", 12).add("sha256", ZIP_SHA256))
                .add("to", "globex/erp/bob/billing#s1").add("expires", NOW + 86400).add("attempts", 1)
                .add("signed", true).add("sig", sig).build();
        assertEquals(Optional.of(RFC_KEY), EnvelopeSignature.signedBy(delivered));

        // A relay that changes the body, swaps the payload, or lies about the files is caught.
        JsonObject newBody = Json.createObjectBuilder(delivered).add("body",
                Json.createObjectBuilder().add("type", "text/plain").add("text", "Pay invoice 123")).build();
        assertEquals(Optional.empty(), EnvelopeSignature.signedBy(newBody));
        JsonObject newId = Json.createObjectBuilder(delivered).add("id", "m2").build();
        assertEquals(Optional.empty(), EnvelopeSignature.signedBy(newId));
        JsonObject swappedPayload = Json.createObjectBuilder(delivered).add("sig", Json.createObjectBuilder(sig)
                .add("payload", check.payload().replace("123", "124"))).build();
        assertEquals(Optional.empty(), EnvelopeSignature.signedBy(swappedPayload));
        JsonObject otherFiles = Json.createObjectBuilder(delivered).add("files",
                Json.createObjectBuilder().add("bytes", 12).add("sha256", "00" + ZIP_SHA256.substring(2))).build();
        assertEquals(Optional.empty(), EnvelopeSignature.signedBy(otherFiles));
        assertEquals(Optional.empty(), EnvelopeSignature.signedBy(envelope()));

        // A relay that re-signs with its own key can make it verify, but only under its own key,
        // which the receiver's pin for this person then refuses.
        KeyPair relay = NodeKeys.newEd25519KeyPair();
        byte[] relayValue = NodeKeys.sign(relay.getPrivate(), newBody.getJsonObject("sig").getString("payload")
                .replace("Is invoice 123 paid?", "Pay invoice 123").getBytes(StandardCharsets.UTF_8));
        JsonObject resigned = Json.createObjectBuilder(newBody).add("sig", Json.createObjectBuilder(sig)
                .add("key", NodeKeys.ed25519Text(relay.getPublic())).add("value", Base64Url.encode(relayValue))
                .add("payload", check.payload().replace("Is invoice 123 paid?", "Pay invoice 123"))).build();
        Optional<String> signer = EnvelopeSignature.signedBy(resigned);
        assertTrue(signer.isPresent());
        assertNotEquals(RFC_KEY, signer.get());
    }

    @Test
    void deliveredSigOnlyForValidSignatures() {
        assertThrows(IllegalStateException.class, () -> EnvelopeSignature.verify(envelope(), RFC_KEY, NOW).deliveredSig("n"));
    }

    private static void assertMalformed(JsonObject envelope) {
        SignatureCheck check = EnvelopeSignature.verify(envelope, RFC_KEY, NOW);
        assertEquals(SignatureCheck.Outcome.MALFORMED, check.outcome(), check.message());
        assertFalse(check.message().isEmpty());
        assertEquals(401, check.httpStatus());
    }

    private static JsonObject with(String field, JsonValue value) {
        return Json.createObjectBuilder(envelope()).add(field, value).build();
    }

    static JsonObject json(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }
}
