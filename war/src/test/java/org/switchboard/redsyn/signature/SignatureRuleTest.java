package org.switchboard.redsyn.signature;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.security.KeyPair;
import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.crypto.EnvelopeSignature;
import org.switchboard.crypto.NodeKeys;
import org.switchboard.redsyn.message.SignatureVerdict;

/** The relay's verdict: registered key only, exactly what arrived, ten minutes; everything else 401. */
class SignatureRuleTest {

    private static final long NOW = 1_790_000_000L;
    private final KeyPair pair = NodeKeys.newEd25519KeyPair();
    private final String key = NodeKeys.ed25519Text(pair.getPublic());

    private JsonObject envelope(long ts) {
        return Json.createObjectBuilder().add("v", 1).add("id", "m1").add("kind", "request")
                .add("from", "acme/general/ana/cli").add("to", "acme/general/joel/build").add("ts", ts)
                .add("body", Json.createObjectBuilder().add("type", "text/plain").add("text", "hi")).build();
    }

    private JsonObject signed(long ts) {
        return EnvelopeSignature.withSignature(envelope(ts), pair.getPrivate(), pair.getPublic());
    }

    @Test
    void unsignedPassesAsUnsigned() {
        assertEquals(SignatureVerdict.UNSIGNED, SignatureRule.verdict(envelope(NOW), null, "laptop", "", NOW));
    }

    @Test
    void aValidSignatureIsDeliveredWithPayloadNodeAndFingerprint() {
        SignatureVerdict v = SignatureRule.verdict(signed(NOW), key, "laptop", "", NOW + 600);
        assertTrue(v.signed());
        JsonObject sig = v.deliveredSig();
        assertEquals("laptop", sig.getString("node"));
        assertEquals(NodeKeys.fingerprint(key), sig.getString("fingerprint"));
        assertEquals(EnvelopeSignature.signedPayload(envelope(NOW)), sig.getString("payload"));
        assertEquals(key, sig.getString("key"));
    }

    @Test
    void everyFailureIs401() {
        String other = NodeKeys.ed25519Text(NodeKeys.newEd25519KeyPair().getPublic());
        assertRefused(signed(NOW), null, NOW, "PUT /nodes/key");
        assertRefused(signed(NOW), other, NOW, "not the key this node registered");
        assertRefused(signed(NOW), key, NOW + 601, "ten minutes");
        JsonObject tampered = Json.createObjectBuilder(signed(NOW)).add("to", "acme/general/joel/other").build();
        assertRefused(tampered, key, NOW, "does not cover exactly what arrived");
        // the relay's own files hash is what the signature must cover
        assertRefused(signed(NOW), key, "ab".repeat(32), NOW);
    }

    private static void assertRefused(JsonObject e, String key, long now, String mentions) {
        RedsynException x = assertThrows(RedsynException.class, () -> SignatureRule.verdict(e, key, "laptop", "", now));
        assertEquals(401, x.status());
        assertTrue(x.getMessage().contains(mentions), x.getMessage());
    }

    private static void assertRefused(JsonObject e, String key, String filesSha, long now) {
        RedsynException x = assertThrows(RedsynException.class, () -> SignatureRule.verdict(e, key, "laptop", filesSha, now));
        assertEquals(401, x.status());
        assertFalse(x.getMessage().isEmpty());
    }
}
