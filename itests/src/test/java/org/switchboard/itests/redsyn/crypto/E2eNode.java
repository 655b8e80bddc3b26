package org.switchboard.itests.redsyn.crypto;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The test client's side of a REDSYN node, written from the protocol document with the JDK only (no
 * relay classes): an Ed25519 signing key, a P-256 encryption key, signing envelopes, sealing bodies
 * and files for a recipient's enc_key, and opening what was sealed for this node.
 */
final class E2eNode {

    static final String INFO = "redsyn-e2e-v1";
    static final String ENCRYPTED = "application/redsyn+encrypted";
    private static final SecureRandom RANDOM = new SecureRandom();
    /** DER prefix of an X.509 Ed25519 public key: what precedes the 32 raw bytes. */
    private static final byte[] ED25519_X509_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");

    final KeyPair signing;
    final KeyPair encryption;

    E2eNode() {
        try {
            signing = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            encryption = newP256();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- keys -----------------------------------------------------------------------------------

    static String b64u(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static byte[] unb64u(String text) {
        return Base64.getUrlDecoder().decode(text);
    }

    static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] ed25519Raw(PublicKey key) {
        byte[] der = key.getEncoded();
        return Arrays.copyOfRange(der, der.length - 32, der.length);
    }

    static PublicKey ed25519(byte[] raw) throws GeneralSecurityException {
        byte[] der = Arrays.copyOf(ED25519_X509_PREFIX, ED25519_X509_PREFIX.length + 32);
        System.arraycopy(raw, 0, der, ED25519_X509_PREFIX.length, 32);
        return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
    }

    /** public_key: the 32 raw bytes, base64url. */
    String signingKey() {
        return b64u(ed25519Raw(signing.getPublic()));
    }

    /** enc_key: 0x04 || X || Y, base64url. */
    String encKey() {
        return b64u(uncompressed((ECPublicKey) encryption.getPublic()));
    }

    /** enc_sig: Ed25519 over the ASCII text "redsyn-enc-v1:" + enc_key (the base64url text). */
    String encSig() {
        return b64u(sign(("redsyn-enc-v1:" + encKey()).getBytes(StandardCharsets.UTF_8)));
    }

    /** Fingerprint of the signing key as the relay documents it: hex SHA-256 of the 32 raw bytes. */
    String fingerprint() {
        return sha256Hex(ed25519Raw(signing.getPublic()));
    }

    byte[] sign(byte[] message) {
        try {
            Signature s = Signature.getInstance("Ed25519");
            s.initSign(signing.getPrivate());
            s.update(message);
            return s.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static boolean verify(String keyB64u, byte[] message, String sigB64u) {
        try {
            Signature s = Signature.getInstance("Ed25519");
            s.initVerify(ed25519(unb64u(keyB64u)));
            s.update(message);
            return s.verify(unb64u(sigB64u));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    // ---- signatures -----------------------------------------------------------------------------

    /** The document's signed object: twelve members, missing text as "", files_sha256 for the zip. */
    static String payload(JsonObject e) {
        JsonObjectBuilder p = Json.createObjectBuilder().add("v", e.getInt("v", 1));
        for (String f : new String[] {"id", "kind", "from", "to", "thread", "reply_to"}) {
            p.add(f, e.containsKey(f) && !e.isNull(f) ? e.getString(f) : "");
        }
        p.add("ts", e.getJsonNumber("ts").longValueExact());
        p.add("body", e.get("body"));
        p.add("refs", e.containsKey("refs") ? e.get("refs") : JsonValue.EMPTY_JSON_ARRAY);
        String filesSha = "";
        if (e.containsKey("files")) {
            filesSha = sha256Hex(Base64.getDecoder().decode(e.getJsonObject("files").getString("zip")));
        }
        p.add("files_sha256", filesSha);
        p.add("error", e.getBoolean("error", false));
        return Jcs.of(p.build());
    }

    /** The envelope with {@code sig: {alg, key, value}} added, signed by this node's key. */
    JsonObject signed(JsonObject e) {
        return signedBy(e, this);
    }

    /** The envelope with the sig of {@code signer} (which may differ from the node that sends it). */
    static JsonObject signedBy(JsonObject e, E2eNode signer) {
        String value = b64u(signer.sign(payload(e).getBytes(StandardCharsets.UTF_8)));
        return Json.createObjectBuilder(e).add("sig", Json.createObjectBuilder().add("alg", "ed25519")
                .add("key", signer.signingKey()).add("value", value)).build();
    }

    // ---- sealing --------------------------------------------------------------------------------

    /**
     * Seals {@code plain} (which has id, kind, body, refs and maybe files.zip) for {@code recipientEncKey}:
     * body and refs go into the ciphertext with {@code replyKey}, the zip is sealed with a second nonce.
     */
    static JsonObject seal(JsonObject plain, String recipientEncKey, String replyKey) {
        try {
            KeyPair eph = newP256();
            byte[] epk = uncompressed((ECPublicKey) eph.getPublic());
            byte[] key = hkdf(ecdh(eph.getPrivate(), recipientEncKey), epk, INFO.getBytes(StandardCharsets.UTF_8), 32);
            String aad = INFO + "|" + plain.getString("id") + "|" + plain.getString("kind");
            JsonObjectBuilder inner = Json.createObjectBuilder().add("body", plain.get("body"))
                    .add("refs", plain.containsKey("refs") ? plain.get("refs") : JsonValue.EMPTY_JSON_ARRAY);
            if (replyKey != null) {
                inner.add("reply_key", replyKey);
            }
            byte[] nonce = random(12);
            byte[] ct = gcm(Cipher.ENCRYPT_MODE, key, nonce, aad, inner.build().toString().getBytes(StandardCharsets.UTF_8));
            JsonObjectBuilder enc = Json.createObjectBuilder().add("v", 1).add("alg", "P256-HKDF-SHA256-A256GCM")
                    .add("epk", b64u(epk)).add("nonce", b64u(nonce)).add("ct", b64u(ct));
            JsonObjectBuilder out = Json.createObjectBuilder(plain).add("refs", JsonValue.EMPTY_JSON_ARRAY);
            if (plain.containsKey("files")) {
                byte[] zip = Base64.getDecoder().decode(plain.getJsonObject("files").getString("zip"));
                byte[] filesNonce = random(12);
                byte[] sealedZip = gcm(Cipher.ENCRYPT_MODE, key, filesNonce, aad + "|files", zip);
                enc.add("files_nonce", b64u(filesNonce));
                out.add("files", Json.createObjectBuilder().add("zip", Base64.getEncoder().encodeToString(sealedZip)));
            } else {
                enc.add("files_nonce", "");
            }
            return out.add("body", Json.createObjectBuilder().add("type", ENCRYPTED).add("enc", enc)).build();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What this node finds inside a sealed envelope: {body, refs, reply_key?}, and the files if given. */
    record Opened(JsonObject inner, byte[] zip) {
    }

    /** Opens a delivered envelope sealed for this node; {@code sealedZip} is the downloaded files.zip or null. */
    Opened open(JsonObject e, byte[] sealedZip) throws GeneralSecurityException {
        JsonObject enc = e.getJsonObject("body").getJsonObject("enc");
        byte[] epk = unb64u(enc.getString("epk"));
        byte[] key = hkdf(ecdh(encryption.getPrivate(), enc.getString("epk")), epk, INFO.getBytes(StandardCharsets.UTF_8), 32);
        String aad = INFO + "|" + e.getString("id") + "|" + e.getString("kind");
        byte[] pt = gcm(Cipher.DECRYPT_MODE, key, unb64u(enc.getString("nonce")), aad, unb64u(enc.getString("ct")));
        JsonObject inner;
        try (JsonReader r = Json.createReader(new StringReader(new String(pt, StandardCharsets.UTF_8)))) {
            inner = r.readObject();
        }
        byte[] zip = null;
        if (sealedZip != null) {
            zip = gcm(Cipher.DECRYPT_MODE, key, unb64u(enc.getString("files_nonce")), aad + "|files", sealedZip);
        }
        return new Opened(inner, zip);
    }

    // ---- primitives -----------------------------------------------------------------------------

    private static KeyPair newP256() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    static byte[] uncompressed(ECPublicKey key) {
        byte[] out = new byte[65];
        out[0] = 4;
        fixed(key.getW().getAffineX(), out, 1);
        fixed(key.getW().getAffineY(), out, 33);
        return out;
    }

    private static void fixed(BigInteger v, byte[] out, int offset) {
        byte[] b = v.toByteArray();
        int len = Math.min(b.length, 32);
        System.arraycopy(b, b.length - len, out, offset + 32 - len, len);
    }

    private static byte[] ecdh(PrivateKey mine, String theirsB64u) throws GeneralSecurityException {
        byte[] raw = unb64u(theirsB64u);
        if (raw.length != 65 || raw[0] != 4) {
            throw new GeneralSecurityException("not an uncompressed P-256 key");
        }
        ECParameterSpec params = ((java.security.interfaces.ECPrivateKey) mine).getParams();
        ECPoint w = new ECPoint(new BigInteger(1, Arrays.copyOfRange(raw, 1, 33)), new BigInteger(1, Arrays.copyOfRange(raw, 33, 65)));
        PublicKey theirs = KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(w, params));
        KeyAgreement ka = KeyAgreement.getInstance("ECDH");
        ka.init(mine);
        ka.doPhase(theirs, true);
        return ka.generateSecret();
    }

    /** HKDF-SHA256 from RFC 5869: extract with the salt, then expand with info to {@code length} bytes. */
    static byte[] hkdf(byte[] ikm, byte[] salt, byte[] info, int length) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(salt.length == 0 ? new byte[32] : salt, "HmacSHA256"));
        byte[] prk = mac.doFinal(ikm);
        mac.init(new SecretKeySpec(prk, "HmacSHA256"));
        byte[] out = new byte[length];
        byte[] t = new byte[0];
        int done = 0;
        for (int i = 1; done < length; i++) {
            mac.update(t);
            mac.update(info);
            mac.update((byte) i);
            t = mac.doFinal();
            int n = Math.min(t.length, length - done);
            System.arraycopy(t, 0, out, done, n);
            done += n;
        }
        return out;
    }

    private static byte[] gcm(int mode, byte[] key, byte[] nonce, String aad, byte[] input) throws GeneralSecurityException {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(mode, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
        c.updateAAD(aad.getBytes(StandardCharsets.UTF_8));
        return c.doFinal(input);
    }

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }
}
