package org.switchboard.redsyn.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.interfaces.ECPublicKey;
import org.junit.jupiter.api.Test;
import org.switchboard.crypto.NodeKeys;
import org.switchboard.crypto.Base64Url;

/** enc_sig over 'redsyn-enc-v1:' + enc_key, the PUT /nodes/key check and the agent key answer. */
class EncryptionKeysTest {

    private final KeyPair signing = NodeKeys.newEd25519KeyPair();
    private final String publicKey = NodeKeys.ed25519Text(signing.getPublic());
    private final String encKey = NodeKeys.p256Text((ECPublicKey) NodeKeys.newP256KeyPair().getPublic());

    @Test
    void encSigSignsThePrefixAndTheBase64urlText() {
        assertEquals("redsyn-enc-v1:" + encKey, new String(EncryptionKeys.encSigMessage(encKey), StandardCharsets.UTF_8));
        String encSig = EncryptionKeys.signEncKey(signing.getPrivate(), encKey);
        assertTrue(EncryptionKeys.verifyEncSig(publicKey, encKey, encSig));
        // Checked against the raw Ed25519 primitive over the documented text, not through our own helper.
        assertTrue(NodeKeys.verify(signing.getPublic(), ("redsyn-enc-v1:" + encKey).getBytes(StandardCharsets.US_ASCII),
                Base64Url.decode(encSig)));
    }

    @Test
    void aSignatureOverTheRawKeyBytesIsNotAccepted() {
        byte[] prefix = "redsyn-enc-v1:".getBytes(StandardCharsets.US_ASCII);
        byte[] key = Base64Url.decode(encKey);
        byte[] rawMessage = java.util.Arrays.copyOf(prefix, prefix.length + key.length);
        System.arraycopy(key, 0, rawMessage, prefix.length, key.length);
        String overBytes = Base64Url.encode(NodeKeys.sign(signing.getPrivate(), rawMessage));
        assertFalse(EncryptionKeys.verifyEncSig(publicKey, encKey, overBytes));
    }

    @Test
    void encSigIsRefusedForAnotherKeyOrSigner() {
        String encSig = EncryptionKeys.signEncKey(signing.getPrivate(), encKey);
        String otherEncKey = NodeKeys.p256Text((ECPublicKey) NodeKeys.newP256KeyPair().getPublic());
        assertFalse(EncryptionKeys.verifyEncSig(publicKey, otherEncKey, encSig));
        String otherSigner = NodeKeys.ed25519Text(NodeKeys.newEd25519KeyPair().getPublic());
        assertFalse(EncryptionKeys.verifyEncSig(otherSigner, encKey, encSig));
        String withoutPrefix = Base64Url.encode(NodeKeys.sign(signing.getPrivate(), encKey.getBytes(StandardCharsets.US_ASCII)));
        assertFalse(EncryptionKeys.verifyEncSig(publicKey, encKey, withoutPrefix));
        assertFalse(EncryptionKeys.verifyEncSig(publicKey, encKey, "garbage!"));
    }

    @Test
    void registrationCheck() {
        String encSig = EncryptionKeys.signEncKey(signing.getPrivate(), encKey);
        NodeKeyCheck ok = EncryptionKeys.checkRegistration(publicKey, encKey, encSig);
        assertTrue(ok.ok(), ok.error());
        assertEquals(NodeKeys.fingerprint(publicKey), ok.fingerprint());
        assertTrue(EncryptionKeys.checkRegistration(publicKey, null, null).ok());

        assertRefused(EncryptionKeys.checkRegistration(null, null, null), "public_key");
        assertRefused(EncryptionKeys.checkRegistration(Base64Url.encode(new byte[31]), null, null), "public_key");
        assertRefused(EncryptionKeys.checkRegistration(publicKey, encKey, null), "together");
        assertRefused(EncryptionKeys.checkRegistration(publicKey, null, encSig), "together");
        assertRefused(EncryptionKeys.checkRegistration(publicKey, Base64Url.encode(new byte[65]), encSig), "enc_key");
        String wrongSig = EncryptionKeys.signEncKey(NodeKeys.newEd25519KeyPair().getPrivate(), encKey);
        assertRefused(EncryptionKeys.checkRegistration(publicKey, encKey, wrongSig), "enc_sig");
    }

    @Test
    void agentKeyAnswerRoundTrips() {
        String encSig = EncryptionKeys.signEncKey(signing.getPrivate(), encKey);
        JsonObject answer = EncryptionKeys.agentKey("joel-laptop", publicKey, encKey, encSig);
        assertEquals("joel-laptop", answer.getString("node"));
        assertEquals(publicKey, answer.getString("signing_key"));
        assertEquals(encKey, answer.getString("enc_key"));
        assertEquals(encSig, answer.getString("enc_sig"));
        assertEquals(NodeKeys.fingerprint(publicKey), answer.getString("fingerprint"));
        assertTrue(EncryptionKeys.verifyAgentKey(answer));

        // A relay slipping in its own enc_key (keeping the node's signing key) is caught.
        String relayEncKey = NodeKeys.p256Text((ECPublicKey) NodeKeys.newP256KeyPair().getPublic());
        assertFalse(EncryptionKeys.verifyAgentKey(Json.createObjectBuilder(answer).add("enc_key", relayEncKey).build()));
        assertFalse(EncryptionKeys.verifyAgentKey(Json.createObjectBuilder(answer).add("fingerprint", "00").build()));
    }

    private static void assertRefused(NodeKeyCheck check, String mentions) {
        assertFalse(check.ok());
        assertTrue(check.error().contains(mentions), check.error());
    }
}
