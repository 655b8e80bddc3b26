package org.switchboard.redsyn.crypto;

import org.switchboard.json.Jsons;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.switchboard.crypto.NodeKeys;
import org.switchboard.crypto.Base64Url;
import org.switchboard.crypto.CryptoFormatException;

/**
 * Client-side end-to-end sealing of REDSYN messages (protocol document, "Sellar un mensaje"). The relay
 * never calls this; the Java test client and receivers do.
 *
 * <ol>
 * <li>a fresh P-256 key pair for this message;</li>
 * <li>shared = ECDH(ephemeral private, recipient enc_key) — the 32-byte X coordinate;</li>
 * <li>key = HKDF-SHA256(shared, salt = ephemeral public key (65 bytes), info = "redsyn-e2e-v1", 32);</li>
 * <li>AES-256-GCM over the JSON {@code {"body", "refs", "reply_key"}}, random 12-byte nonce, associated
 * data {@code redsyn-e2e-v1|<id>|<kind>}; ct is ciphertext followed by the 16-byte tag;</li>
 * <li>files: the zip sealed with the same key, another nonce, associated data
 * {@code redsyn-e2e-v1|<id>|<kind>|files}, sent as {@code files.zip};</li>
 * <li>the envelope carries {@code refs: []} and the encrypted body.</li>
 * </ol>
 */
public final class SealedBox {

    /** HKDF info and prefix of the associated data. */
    public static final String CONTEXT = "redsyn-e2e-v1";

    private static final int GCM_TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private SealedBox() {
    }

    /**
     * A sealed message: the encrypted {@code body} to send, and the sealed zip bytes (null without files)
     * to send as {@code files.zip}.
     */
    public record Sealed(JsonObject body, byte[] sealedZip) {

        /** The sealed zip as the standard base64 text of {@code files.zip}, or null without files. */
        public String sealedZipBase64() {
            return sealedZip == null ? null : Base64.getEncoder().encodeToString(sealedZip);
        }
    }

    /**
     * An opened message.
     *
     * @param body     the plain body
     * @param refs     the plain refs
     * @param replyKey where progress and the reply go back sealed (base64url P-256), or null if none was sent
     * @param zip      the plain zip, or null when no sealed zip was given
     */
    public record Opened(JsonValue body, JsonArray refs, String replyKey, byte[] zip) {
    }

    /** The associated data of the sealed body: UTF-8 of {@code redsyn-e2e-v1|<id>|<kind>}. */
    public static byte[] bodyAad(String id, String kind) {
        return (CONTEXT + "|" + id + "|" + kind).getBytes(StandardCharsets.UTF_8);
    }

    /** The associated data of the sealed zip: UTF-8 of {@code redsyn-e2e-v1|<id>|<kind>|files}. */
    public static byte[] filesAad(String id, String kind) {
        return (CONTEXT + "|" + id + "|" + kind + "|files").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Seals body, refs and reply_key (and the zip, if any) for the recipient's enc_key.
     *
     * @param recipientEncKey the recipient node's enc_key, base64url (from {@code GET /agents/…/key}, or the
     *                        reply_key of the request being answered)
     * @param id              the envelope id (bound into the associated data, so it must be set before sealing)
     * @param kind            the envelope kind (bound likewise)
     * @param replyKey        this node's own enc_key for progress and the reply, or null to send none
     * @param zip             the plain zip, or null
     */
    public static Sealed seal(String recipientEncKey, String id, String kind, JsonValue body, JsonArray refs,
            String replyKey, byte[] zip) {
        requireIdAndKind(id, kind);
        ECPublicKey recipient = NodeKeys.p256PublicKey(recipientEncKey);
        KeyPair ephemeral = NodeKeys.newP256KeyPair();
        byte[] epk = NodeKeys.p256Raw((ECPublicKey) ephemeral.getPublic());
        byte[] key = messageKey(ephemeral.getPrivate(), recipient, epk);

        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("body", body == null ? JsonValue.NULL : body);
        inner.put("refs", refs == null ? JsonValue.EMPTY_JSON_ARRAY : refs);
        if (replyKey != null) {
            inner.put("reply_key", replyKey);
        }
        byte[] plaintext = Rfc8785Json.canonicalizeTree(inner).getBytes(StandardCharsets.UTF_8);
        byte[] nonce = randomNonce();
        byte[] ct = gcm(Cipher.ENCRYPT_MODE, key, nonce, bodyAad(id, kind), plaintext);

        byte[] sealedZip = null;
        String filesNonce = "";
        if (zip != null) {
            byte[] zipNonce = randomNonce();
            sealedZip = gcm(Cipher.ENCRYPT_MODE, key, zipNonce, filesAad(id, kind), zip);
            filesNonce = Base64Url.encode(zipNonce);
        }
        JsonObject enc = Jsons.PROVIDER.createObjectBuilder()
                .add("v", 1)
                .add("alg", SealedBody.ALG)
                .add("epk", Base64Url.encode(epk))
                .add("nonce", Base64Url.encode(nonce))
                .add("ct", Base64Url.encode(ct))
                .add("files_nonce", filesNonce)
                .build();
        JsonObject sealedBody = Jsons.PROVIDER.createObjectBuilder().add("type", SealedBody.TYPE).add("enc", enc).build();
        return new Sealed(sealedBody, sealedZip);
    }

    /**
     * A plain envelope turned into the sealed one to sign and send: body, refs and {@code files.zip} are
     * sealed for the recipient; {@code refs} becomes {@code []}. The envelope must already carry id and kind.
     */
    public static JsonObject sealEnvelope(JsonObject envelope, String recipientEncKey, String replyKey) {
        String id = stringOrNull(envelope, "id");
        String kind = stringOrNull(envelope, "kind");
        JsonValue refsValue = envelope.get("refs");
        JsonArray refs = refsValue instanceof JsonArray ? (JsonArray) refsValue : JsonValue.EMPTY_JSON_ARRAY;
        byte[] zip = null;
        JsonValue files = envelope.get("files");
        if (files != null && files.getValueType() == JsonValue.ValueType.OBJECT) {
            String zipText = stringOrNull(files.asJsonObject(), "zip");
            if (zipText != null) {
                zip = EnvelopeSignature.decodeZip(zipText);
            }
        }
        Sealed sealed = seal(recipientEncKey, id, kind, envelope.get("body"), refs, replyKey, zip);
        JsonObjectBuilder out = Jsons.PROVIDER.createObjectBuilder(envelope)
                .add("body", sealed.body())
                .add("refs", JsonValue.EMPTY_JSON_ARRAY);
        if (sealed.sealedZip() != null) {
            out.add("files", Jsons.PROVIDER.createObjectBuilder().add("zip", sealed.sealedZipBase64()));
        }
        return out.build();
    }

    /**
     * Opens a sealed body with this node's P-256 private key.
     *
     * @param sealedZip the sealed zip bytes (from {@code files.zip} or {@code GET /messages/{id}/files}), or
     *                  null to open only the body
     * @throws SealOpenException when the key is not the one it was sealed for, anything was altered, or
     *                           the id/kind are not the ones it was sealed with
     */
    public static Opened open(String id, String kind, JsonValue sealedBody, PrivateKey recipientPrivate, byte[] sealedZip) {
        requireIdAndKind(id, kind);
        SealedBody.problem(sealedBody).ifPresent(problem -> {
            throw new SealOpenException("not a well-formed sealed body: " + problem);
        });
        JsonObject enc = sealedBody.asJsonObject().getJsonObject("enc");
        if (sealedZip != null && enc.getString("files_nonce", "").isEmpty()) {
            throw new SealOpenException("files were given but the body has no files_nonce");
        }
        byte[] epk = Base64Url.decode(enc.getString("epk"));
        byte[] key = messageKey(recipientPrivate, NodeKeys.p256PublicKey(epk), epk);
        byte[] plaintext = gcm(Cipher.DECRYPT_MODE, key, Base64Url.decode(enc.getString("nonce")), bodyAad(id, kind),
                Base64Url.decode(enc.getString("ct")));
        JsonObject inner;
        try (JsonReader reader = Jsons.PROVIDER.createReader(new StringReader(new String(plaintext, StandardCharsets.UTF_8)))) {
            inner = reader.readObject();
        } catch (RuntimeException e) {
            throw new SealOpenException("the sealed content is not a JSON object", e);
        }
        byte[] zip = null;
        if (sealedZip != null) {
            zip = gcm(Cipher.DECRYPT_MODE, key, Base64Url.decode(enc.getString("files_nonce")), filesAad(id, kind), sealedZip);
        }
        JsonValue refs = inner.get("refs");
        return new Opened(inner.containsKey("body") ? inner.get("body") : JsonValue.NULL,
                refs instanceof JsonArray ? (JsonArray) refs : JsonValue.EMPTY_JSON_ARRAY,
                stringOrNull(inner, "reply_key"), zip);
    }

    /** Opens a (delivered) envelope: its id, kind and body; sealedZip as in {@link #open}. */
    public static Opened openEnvelope(JsonObject envelope, PrivateKey recipientPrivate, byte[] sealedZip) {
        return open(stringOrNull(envelope, "id"), stringOrNull(envelope, "kind"), envelope.get("body"),
                recipientPrivate, sealedZip);
    }

    /** ECDH then HKDF-SHA256(shared, salt = the ephemeral public key's 65 bytes, info = "redsyn-e2e-v1", 32). */
    private static byte[] messageKey(PrivateKey privateKey, ECPublicKey publicKey, byte[] epk) {
        try {
            KeyAgreement agreement = KeyAgreement.getInstance("ECDH");
            agreement.init(privateKey);
            agreement.doPhase(publicKey, true);
            byte[] shared = agreement.generateSecret();
            return Hkdf.derive(shared, epk, CONTEXT.getBytes(StandardCharsets.US_ASCII), 32);
        } catch (GeneralSecurityException e) {
            throw new SealOpenException("ECDH failed: the key is not a P-256 key", e);
        }
    }

    private static byte[] gcm(int mode, byte[] key, byte[] nonce, byte[] aad, byte[] input) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(mode, new SecretKeySpec(key, "AES"), new GCMParameterSpec(GCM_TAG_BITS, nonce));
            cipher.updateAAD(aad);
            return cipher.doFinal(input);
        } catch (AEADBadTagException e) {
            throw new SealOpenException("cannot open: wrong key, altered content, or not sealed for this id and kind", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-256-GCM is unavailable", e);
        }
    }

    private static byte[] randomNonce() {
        byte[] nonce = new byte[SealedBody.NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    private static void requireIdAndKind(String id, String kind) {
        if (id == null || id.isEmpty() || kind == null || kind.isEmpty()) {
            throw new CryptoFormatException("sealing binds id and kind: both must be set");
        }
    }

    private static String stringOrNull(JsonObject object, String name) {
        JsonValue value = object.get(name);
        return value instanceof JsonString ? ((JsonString) value).getString() : null;
    }
}
