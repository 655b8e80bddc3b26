package org.switchboard.redsyn.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.security.KeyPair;
import java.security.interfaces.ECPublicKey;
import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.crypto.EncryptionKeys;
import org.switchboard.crypto.NodeKeys;

/** The PUT /nodes/key rules: well-formed keys, enc_sig by the signing key, rotate to replace. */
class KeyRegistrationTest {

    private final KeyPair signing = NodeKeys.newEd25519KeyPair();
    private final String key = NodeKeys.ed25519Text(signing.getPublic());
    private final String encKey = NodeKeys.p256Text((ECPublicKey) NodeKeys.newP256KeyPair().getPublic());
    private final String encSig = EncryptionKeys.signEncKey(signing.getPrivate(), encKey);

    @Test
    void aFirstKeyIsRegisteredWithItsFingerprint() {
        KeyRegistration.Keys k = KeyRegistration.decide(null, new KeyRegistration.Request(key, null, null, false));
        assertEquals(key, k.signingKey());
        assertNull(k.encKey());
        assertEquals(NodeKeys.fingerprint(key), k.fingerprint());
        assertEquals(64, k.fingerprint().length());
        assertFalse(k.rotated());
    }

    @Test
    void theSameKeyAgainNeedsNoRotateAndMayAddTheEncryptionKey() {
        KeyRegistration.Keys k = KeyRegistration.decide(key, new KeyRegistration.Request(key + "=", encKey, encSig, false));
        assertEquals(encKey, k.encKey());
        assertEquals(encSig, k.encSig());
        assertFalse(k.rotated());
    }

    @Test
    void anotherKeyNeedsRotate() {
        String other = NodeKeys.ed25519Text(NodeKeys.newEd25519KeyPair().getPublic());
        RedsynException e = assertThrows(RedsynException.class,
                () -> KeyRegistration.decide(other, new KeyRegistration.Request(key, null, null, false)));
        assertEquals(409, e.status());
        assertTrue(e.getMessage().contains("\"rotate\": true"), e.getMessage());
        assertTrue(KeyRegistration.decide(other, new KeyRegistration.Request(key, null, null, true)).rotated());
    }

    @Test
    void malformedKeysAndForeignEncSigsAreRefusedWith422() {
        assertEquals(422, refusal(new KeyRegistration.Request(null, null, null, false)).status());
        assertEquals(422, refusal(new KeyRegistration.Request("AAAA", null, null, false)).status());
        assertEquals(422, refusal(new KeyRegistration.Request(key, encKey, null, false)).status());
        assertEquals(422, refusal(new KeyRegistration.Request(key, encKey.substring(4), encSig, false)).status());
        String foreign = EncryptionKeys.signEncKey(NodeKeys.newEd25519KeyPair().getPrivate(), encKey);
        RedsynException e = refusal(new KeyRegistration.Request(key, encKey, foreign, false));
        assertTrue(e.getMessage().contains("enc_sig"), e.getMessage());
    }

    @Test
    void parseReadsTheBodyAndRefusesWrongTypes() {
        JsonObject body = Json.createObjectBuilder().add("public_key", key).add("enc_key", encKey)
                .add("enc_sig", encSig).add("rotate", true).build();
        KeyRegistration.Request r = KeyRegistration.parse(body);
        assertEquals(new KeyRegistration.Request(key, encKey, encSig, true), r);
        assertFalse(KeyRegistration.parse(Json.createObjectBuilder().add("public_key", key).build()).rotate());
        assertEquals(422, assertThrows(RedsynException.class,
                () -> KeyRegistration.parse(Json.createObjectBuilder().add("public_key", 5).build())).status());
        assertEquals(422, assertThrows(RedsynException.class,
                () -> KeyRegistration.parse(Json.createObjectBuilder().add("public_key", key).add("rotate", "yes").build())).status());
    }

    private static RedsynException refusal(KeyRegistration.Request r) {
        return assertThrows(RedsynException.class, () -> KeyRegistration.decide(null, r));
    }
}
