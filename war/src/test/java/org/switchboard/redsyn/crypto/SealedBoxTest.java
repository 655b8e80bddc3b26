package org.switchboard.redsyn.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.interfaces.ECPublicKey;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.switchboard.crypto.NodeKeys;
import org.switchboard.crypto.Base64Url;
import org.switchboard.crypto.Hex;
import org.switchboard.crypto.CryptoFormatException;

/** Sealing and opening per the document, tamper cases, the relay's shape check and a full signed round trip. */
class SealedBoxTest {

    private final KeyPair recipient = NodeKeys.newP256KeyPair();
    private final String recipientEncKey = NodeKeys.p256Text((ECPublicKey) recipient.getPublic());
    private final KeyPair sender = NodeKeys.newP256KeyPair();
    private final String senderEncKey = NodeKeys.p256Text((ECPublicKey) sender.getPublic());

    private final JsonObject body = Json.createObjectBuilder().add("type", "text/plain").add("text", "Is invoice 123 paid?").build();
    private final JsonArray refs = Json.createArrayBuilder()
            .add(Json.createObjectBuilder().add("url", "https://git.acme.com/app").add("note", "src/billing")).build();
    private final byte[] zip = "PK\u0003\u0004 pretend zip".getBytes(StandardCharsets.ISO_8859_1);

    @Test
    void sealThenOpen() {
        SealedBox.Sealed sealed = SealedBox.seal(recipientEncKey, "m1", "request", body, refs, senderEncKey, null);
        assertNull(sealed.sealedZip());
        JsonObject enc = sealed.body().getJsonObject("enc");
        assertEquals("application/redsyn+encrypted", sealed.body().getString("type"));
        assertEquals(1, enc.getInt("v"));
        assertEquals("P256-HKDF-SHA256-A256GCM", enc.getString("alg"));
        assertEquals(65, Base64Url.decode(enc.getString("epk")).length);
        assertEquals(12, Base64Url.decode(enc.getString("nonce")).length);
        assertEquals("", enc.getString("files_nonce"));
        assertFalse(sealed.body().toString().contains("invoice"), "the sealed body must not show the text");

        SealedBox.Opened opened = SealedBox.open("m1", "request", sealed.body(), recipient.getPrivate(), null);
        assertEquals(body, opened.body());
        assertEquals(refs, opened.refs());
        assertEquals(senderEncKey, opened.replyKey());
        assertNull(opened.zip());
    }

    @Test
    void eachSealUsesAFreshEphemeralKeyAndNonce() {
        JsonObject a = SealedBox.seal(recipientEncKey, "m1", "request", body, refs, null, null).body().getJsonObject("enc");
        JsonObject b = SealedBox.seal(recipientEncKey, "m1", "request", body, refs, null, null).body().getJsonObject("enc");
        assertFalse(a.getString("epk").equals(b.getString("epk")));
        assertFalse(a.getString("nonce").equals(b.getString("nonce")));
        assertFalse(a.getString("ct").equals(b.getString("ct")));
    }

    /** Opens with raw JDK primitives, following the document's own open() step by step. */
    @Test
    void theDocumentsOpenStepsReadWhatWeSeal() throws Exception {
        SealedBox.Sealed sealed = SealedBox.seal(recipientEncKey, "m1", "request", body, refs, senderEncKey, zip);
        JsonObject enc = sealed.body().getJsonObject("enc");
        byte[] epk = Base64.getUrlDecoder().decode(enc.getString("epk"));
        KeyAgreement ecdh = KeyAgreement.getInstance("ECDH");
        ecdh.init(recipient.getPrivate());
        ecdh.doPhase(NodeKeys.p256PublicKey(epk), true);
        byte[] key = Hkdf.derive(ecdh.generateSecret(), epk, "redsyn-e2e-v1".getBytes(StandardCharsets.UTF_8), 32);

        Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
        aes.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"),
                new GCMParameterSpec(128, Base64.getUrlDecoder().decode(enc.getString("nonce"))));
        aes.updateAAD("redsyn-e2e-v1|m1|request".getBytes(StandardCharsets.UTF_8));
        byte[] pt = aes.doFinal(Base64.getUrlDecoder().decode(enc.getString("ct")));
        JsonObject inner = Json.createReader(new StringReader(new String(pt, StandardCharsets.UTF_8))).readObject();
        assertEquals(body, inner.getJsonObject("body"));
        assertEquals(refs, inner.getJsonArray("refs"));
        assertEquals(senderEncKey, inner.getString("reply_key"));

        Cipher files = Cipher.getInstance("AES/GCM/NoPadding");
        files.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"),
                new GCMParameterSpec(128, Base64.getUrlDecoder().decode(enc.getString("files_nonce"))));
        files.updateAAD("redsyn-e2e-v1|m1|request|files".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(zip, files.doFinal(sealed.sealedZip()));
    }

    @Test
    void sealedFilesOpenWithTheBody() {
        SealedBox.Sealed sealed = SealedBox.seal(recipientEncKey, "m1", "request", body, refs, senderEncKey, zip);
        assertEquals(zip.length + 16, sealed.sealedZip().length);
        SealedBox.Opened opened = SealedBox.open("m1", "request", sealed.body(), recipient.getPrivate(), sealed.sealedZip());
        assertArrayEquals(zip, opened.zip());
        // The body opens on its own too, before the files are downloaded.
        assertEquals(body, SealedBox.open("m1", "request", sealed.body(), recipient.getPrivate(), null).body());
    }

    @Test
    void associatedDataBindsIdKindAndPart() {
        SealedBox.Sealed sealed = SealedBox.seal(recipientEncKey, "m1", "request", body, refs, senderEncKey, zip);
        assertThrows(SealOpenException.class, () -> SealedBox.open("m2", "request", sealed.body(), recipient.getPrivate(), null));
        assertThrows(SealOpenException.class, () -> SealedBox.open("m1", "reply", sealed.body(), recipient.getPrivate(), null));
        // The zip cannot pass for the body: swap ct/nonce with the files part.
        JsonObject enc = sealed.body().getJsonObject("enc");
        JsonObject swapped = Json.createObjectBuilder(sealed.body()).add("enc", Json.createObjectBuilder(enc)
                .add("ct", Base64Url.encode(sealed.sealedZip())).add("nonce", enc.getString("files_nonce"))).build();
        assertThrows(SealOpenException.class, () -> SealedBox.open("m1", "request", swapped, recipient.getPrivate(), null));
        // Nor a zip sealed for another message.
        SealedBox.Sealed other = SealedBox.seal(recipientEncKey, "m9", "request", body, refs, senderEncKey, zip);
        assertThrows(SealOpenException.class,
                () -> SealedBox.open("m1", "request", sealed.body(), recipient.getPrivate(), other.sealedZip()));
    }

    @Test
    void wrongRecipientOrAlteredContentCannotOpen() {
        SealedBox.Sealed sealed = SealedBox.seal(recipientEncKey, "m1", "request", body, refs, senderEncKey, zip);
        assertThrows(SealOpenException.class, () -> SealedBox.open("m1", "request", sealed.body(), sender.getPrivate(), null));
        JsonObject enc = sealed.body().getJsonObject("enc");
        byte[] ct = Base64Url.decode(enc.getString("ct"));
        ct[0] ^= 1;
        JsonObject altered = Json.createObjectBuilder(sealed.body())
                .add("enc", Json.createObjectBuilder(enc).add("ct", Base64Url.encode(ct))).build();
        assertThrows(SealOpenException.class, () -> SealedBox.open("m1", "request", altered, recipient.getPrivate(), null));
        String otherEpk = NodeKeys.p256Text((ECPublicKey) NodeKeys.newP256KeyPair().getPublic());
        JsonObject newEpk = Json.createObjectBuilder(sealed.body())
                .add("enc", Json.createObjectBuilder(enc).add("epk", otherEpk)).build();
        assertThrows(SealOpenException.class, () -> SealedBox.open("m1", "request", newEpk, recipient.getPrivate(), null));
        byte[] zipAltered = sealed.sealedZip().clone();
        zipAltered[zipAltered.length - 1] ^= 1;
        assertThrows(SealOpenException.class, () -> SealedBox.open("m1", "request", sealed.body(), recipient.getPrivate(), zipAltered));
    }

    @Test
    void sealingNeedsIdAndKind() {
        assertThrows(CryptoFormatException.class, () -> SealedBox.seal(recipientEncKey, null, "request", body, refs, null, null));
        assertThrows(CryptoFormatException.class, () -> SealedBox.seal(recipientEncKey, "m1", "", body, refs, null, null));
        assertThrows(CryptoFormatException.class, () -> SealedBox.seal(Base64Url.encode(new byte[65]), "m1", "request", body, refs, null, null));
    }

    @Test
    void relayShapeCheck() {
        SealedBox.Sealed plain = SealedBox.seal(recipientEncKey, "m1", "request", body, refs, null, null);
        SealedBox.Sealed withFiles = SealedBox.seal(recipientEncKey, "m1", "request", body, refs, null, zip);
        assertTrue(SealedBody.isEncrypted(plain.body()));
        assertFalse(SealedBody.isEncrypted(body));
        assertFalse(SealedBody.isEncrypted(JsonValue.NULL));
        assertEquals(Optional.empty(), SealedBody.problem(plain.body(), false));
        assertEquals(Optional.empty(), SealedBody.problem(withFiles.body(), true));
        assertTrue(SealedBody.problem(plain.body(), true).orElseThrow().contains("files_nonce"));
        assertTrue(SealedBody.problem(withFiles.body(), false).orElseThrow().contains("files_nonce"));
        assertTrue(SealedBody.problem(body, false).isPresent());

        JsonObject enc = plain.body().getJsonObject("enc");
        assertShapeRefused(plain.body(), enc, "v", Json.createValue(2), "enc.v");
        assertShapeRefused(plain.body(), enc, "alg", Json.createValue("X25519"), "enc.alg");
        assertShapeRefused(plain.body(), enc, "epk", Json.createValue(Base64Url.encode(new byte[65])), "enc.epk");
        assertShapeRefused(plain.body(), enc, "nonce", Json.createValue(Base64Url.encode(new byte[8])), "enc.nonce");
        assertShapeRefused(plain.body(), enc, "ct", Json.createValue(Base64Url.encode(new byte[15])), "enc.ct");
        assertShapeRefused(plain.body(), enc, "ct", Json.createValue("no+base64/url"), "base64url");
        assertTrue(SealedBody.problem(Json.createObjectBuilder(plain.body()).remove("enc").build(), false).isPresent());
        assertTrue(SealedBody.problem(Json.createObjectBuilder(plain.body())
                .add("enc", Json.createObjectBuilder(enc).remove("epk")).build(), false).orElseThrow().contains("epk"));
    }

    /**
     * The whole flow: the sender seals and signs a request with files; the relay's checks accept it
     * without opening it; the receiver opens it and answers with a sealed reply to reply_key, which the
     * sender opens.
     */
    @Test
    void signedSealedRequestAndSealedReply() {
        KeyPair senderSigning = NodeKeys.newEd25519KeyPair();
        KeyPair receiverSigning = NodeKeys.newEd25519KeyPair();
        long now = 1_790_000_000L;
        JsonObject plain = Json.createObjectBuilder()
                .add("v", 1).add("id", "m8f2c").add("kind", "request")
                .add("from", "acme/dev/joel/reviewer#s4").add("to", "globex/erp/bob/billing")
                .add("ts", now).add("body", body).add("refs", refs)
                .add("files", Json.createObjectBuilder().add("zip", Base64.getEncoder().encodeToString(zip)))
                .build();
        JsonObject sealed = SealedBox.sealEnvelope(plain, recipientEncKey, senderEncKey);
        assertEquals(JsonValue.EMPTY_JSON_ARRAY, sealed.getJsonArray("refs"));
        JsonObject sent = EnvelopeSignature.withSignature(sealed, senderSigning.getPrivate(), senderSigning.getPublic());

        // Relay side: signature over the encrypted body holds; shape is fine; it reads nothing.
        SignatureCheck check = EnvelopeSignature.verify(sent, NodeKeys.ed25519Text(senderSigning.getPublic()), now + 5);
        assertEquals(SignatureCheck.Outcome.VALID, check.outcome(), check.message());
        assertEquals(Optional.empty(), SealedBody.problem(sent.get("body"), true));
        assertFalse(check.payload().contains("invoice"));
        byte[] sealedZip = EnvelopeSignature.decodeZip(sent.getJsonObject("files").getString("zip"));

        // Delivered: the receiver checks the signature itself, then opens body and files.
        JsonObject delivered = Json.createObjectBuilder(sent)
                .add("files", Json.createObjectBuilder().add("bytes", sealedZip.length).add("sha256", Hex.sha256Hex(sealedZip)))
                .add("signed", true).add("sig", check.deliveredSig("joel-laptop")).build();
        assertEquals(Optional.of(NodeKeys.ed25519Text(senderSigning.getPublic())), EnvelopeSignature.signedBy(delivered));
        SealedBox.Opened request = SealedBox.openEnvelope(delivered, recipient.getPrivate(), sealedZip);
        assertEquals(body, request.body());
        assertEquals(refs, request.refs());
        assertArrayEquals(zip, request.zip());
        assertEquals(senderEncKey, request.replyKey());

        // The reply goes back sealed to reply_key, with a file of its own.
        byte[] replyZip = "reply files".getBytes(StandardCharsets.UTF_8);
        JsonObject replyPlain = Json.createObjectBuilder()
                .add("v", 1).add("id", "r1").add("kind", "reply").add("from", "globex/erp/bob/billing#s1")
                .add("reply_to", "m8f2c").add("ts", now + 60)
                .add("body", Json.createObjectBuilder().add("type", "text/plain").add("text", "Paid on the 3rd"))
                .add("files", Json.createObjectBuilder().add("zip", Base64.getEncoder().encodeToString(replyZip)))
                .build();
        JsonObject reply = EnvelopeSignature.withSignature(
                SealedBox.sealEnvelope(replyPlain, request.replyKey(), null),
                receiverSigning.getPrivate(), receiverSigning.getPublic());
        assertEquals(SignatureCheck.Outcome.VALID, EnvelopeSignature.verify(reply,
                NodeKeys.ed25519Text(receiverSigning.getPublic()), now + 60).outcome());
        byte[] replySealedZip = EnvelopeSignature.decodeZip(reply.getJsonObject("files").getString("zip"));
        SealedBox.Opened answer = SealedBox.openEnvelope(reply, sender.getPrivate(), replySealedZip);
        assertEquals("Paid on the 3rd", answer.body().asJsonObject().getString("text"));
        assertArrayEquals(replyZip, answer.zip());
        assertNull(answer.replyKey());
        // Only the requesting node can open it.
        assertThrows(SealOpenException.class, () -> SealedBox.openEnvelope(reply, recipient.getPrivate(), null));
    }

    private static void assertShapeRefused(JsonObject sealedBody, JsonObject enc, String field, JsonValue value, String mentions) {
        JsonObject changed = Json.createObjectBuilder(sealedBody)
                .add("enc", Json.createObjectBuilder(enc).add(field, value)).build();
        Optional<String> problem = SealedBody.problem(changed, false);
        assertTrue(problem.isPresent(), field);
        assertTrue(problem.get().contains(mentions), problem.get());
    }
}
