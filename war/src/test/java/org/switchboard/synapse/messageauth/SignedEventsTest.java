package org.switchboard.synapse.messageauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.Arrays;
import java.util.Base64;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.security.PolicyFileException;

/** §6.4 signed events: signed bytes (v2 domain prefix, v1 none), every result in its order, the v1 check. */
class SignedEventsTest {

    private static final double NOW = 1_790_000_000.0;
    private static final String DOMAIN = "aef:legacy-event:v0.1";

    private final KeyPair pair;
    private final byte[] raw;

    SignedEventsTest() throws GeneralSecurityException {
        pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        byte[] der = pair.getPublic().getEncoded();
        raw = Arrays.copyOfRange(der, der.length - 32, der.length); // X.509 SPKI: the raw key is the last 32 bytes
    }

    private SignedEvents events(SignedEventTrust.Entry... entries) {
        return new SignedEvents(SignedEventTrust.of(entries), new NonceCache(16, NonceStore.NONE, NOW), 10, 1);
    }

    private SignedEventTrust.Entry entry(Set<String> projects, double expiresAt, boolean revoked) {
        return new SignedEventTrust.Entry("acme:main", raw, Set.of("team/alice"), projects, expiresAt, revoked);
    }

    private byte[] sign(byte[] bytes) throws GeneralSecurityException {
        Signature s = Signature.getInstance("Ed25519");
        s.initSign(pair.getPrivate());
        s.update(bytes);
        return s.sign();
    }

    /** A claim with a v{@code version} signature by this test's key. */
    private JsonObject signed(int version, String keyId, String nonce, double signedAt, String project) throws GeneralSecurityException {
        JsonObjectBuilder sig = Jsons.PROVIDER.createObjectBuilder().add("version", version).add("key_id", keyId)
                .add("algorithm", "ed25519").add("nonce", nonce).add("sequence", 1).add("signed_at", signedAt);
        if (version == 2) {
            sig.add("domain", DOMAIN);
        }
        JsonObject sigObject = sig.build();
        JsonObjectBuilder frame = Jsons.PROVIDER.createObjectBuilder().add("type", "claim").add("sender", "team/alice")
                .add("task_id", "t-ü").add("signature", sigObject);
        if (project != null) {
            frame.add("project", project);
        }
        JsonObject unsigned = frame.build();
        byte[] value = sign(SignedEvents.signedBytes(unsigned, version == 2 ? DOMAIN : null));
        return Jsons.PROVIDER.createObjectBuilder(unsigned).add("signature", Jsons.PROVIDER.createObjectBuilder(sigObject)
                .add("value", Base64.getEncoder().encodeToString(value))).build();
    }

    @Test
    void theV2PrefixIsTheDomainAndOneZeroByte() {
        JsonObject frame = Jsons.PROVIDER.createObjectBuilder().add("a", 1)
                .add("signature", Jsons.PROVIDER.createObjectBuilder().add("value", "x").add("k", "v")).build();
        byte[] v1 = SignedEvents.signedBytes(frame, null);
        assertEquals("{\"a\":1,\"signature\":{\"k\":\"v\"}}", new String(v1, java.nio.charset.StandardCharsets.UTF_8));
        byte[] v2 = SignedEvents.signedBytes(frame, "d:1");
        assertEquals("d:1\0{\"a\":1,\"signature\":{\"k\":\"v\"}}", new String(v2, java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void aGoodSignatureIsValidOnceThenReplayed() throws GeneralSecurityException {
        SignedEvents events = events(entry(Set.of(), Double.NaN, false));
        JsonObject frame = signed(2, "acme:main", "n1", NOW, null);
        assertEquals("valid", events.verify(frame, "team/alice", NOW));
        assertEquals("replayed", events.verify(frame, "team/alice", NOW));
    }

    @Test
    void everyRefusalInItsOrder() throws GeneralSecurityException {
        SignedEvents events = events(entry(Set.of("p1"), Double.NaN, false));
        assertEquals("missing_signature", events.verify(Jsons.PROVIDER.createObjectBuilder().build(), "team/alice", NOW));
        assertEquals("unknown_key", events.verify(signed(2, "other", "n", NOW, "p1"), "team/alice", NOW));
        assertEquals("revoked_key", events(entry(Set.of(), Double.NaN, true))
                .verify(signed(2, "acme:main", "n", NOW, null), "team/alice", NOW));
        assertEquals("expired", events(entry(Set.of(), NOW - 1, false))
                .verify(signed(2, "acme:main", "n", NOW, null), "team/alice", NOW), "key past expires_at");
        assertEquals("expired", events.verify(signed(2, "acme:main", "n", NOW - 11, "p1"), "team/alice", NOW));
        assertEquals("sender_mismatch", events.verify(signed(2, "acme:main", "n", NOW, "p1"), "team/bob", NOW));
        assertEquals("project_scope_mismatch", events.verify(signed(2, "acme:main", "n", NOW, "p2"), "team/alice", NOW));
        assertEquals("invalid_domain", events.verify(signed(1, "acme:main", "n", NOW, "p1"), "team/alice", NOW));
        JsonObject good = signed(2, "acme:main", "n", NOW, "p1");
        JsonObject tampered = Jsons.PROVIDER.createObjectBuilder(good).add("task_id", "t-2").build();
        assertEquals("bad_signature", events.verify(tampered, "team/alice", NOW));
        assertEquals("valid", events.verify(good, "team/alice", NOW));
    }

    @Test
    void theV1CheckIsReusableWithAPublicKey() throws GeneralSecurityException {
        JsonObject v1 = signed(1, "acme:main", "n", NOW, null);
        assertTrue(SignedEvents.verifyV1(v1, raw));
        assertFalse(SignedEvents.verifyV1(Jsons.PROVIDER.createObjectBuilder(v1).add("token", "t").build(), raw));
        assertFalse(SignedEvents.verifyV1(signed(2, "acme:main", "n", NOW, null), raw), "a v2 signature has a prefix");
    }

    @Test
    void theTrustBundleIsLoadedStrictly() {
        String key = Base64.getEncoder().encodeToString(raw);
        SignedEventTrust ok = SignedEventTrust.parse(MacInputTest.parse("{\"keys\":[{\"key_id\":\"a\",\"public_key\":\""
                + key + "\",\"senders\":[\"x\"],\"projects\":[\"p\"],\"expires_at\":1790000000.0}]}"));
        assertEquals(Set.of("p"), ok.entry("a").projects());
        for (String bad : new String[] {
                "{\"keys\":[{\"key_id\":\"a\",\"public_key\":\"" + key + "\",\"senders\":[]}]}",
                "{\"keys\":[{\"key_id\":\"a\",\"public_key\":\"AAAA\",\"senders\":[\"x\"]}]}",
                "{\"keys\":[{\"key_id\":\"a\",\"public_key\":\"" + key + "\",\"senders\":[\"x\"],\"extra\":1}]}",
                "{\"keys\":[{\"key_id\":\"a\",\"public_key\":\"" + key + "\",\"senders\":[\"x\"]},"
                        + "{\"key_id\":\"a\",\"public_key\":\"" + key + "\",\"senders\":[\"y\"]}]}"}) {
            PolicyFileException e = org.junit.jupiter.api.Assertions.assertThrows(PolicyFileException.class,
                    () -> SignedEventTrust.parse(MacInputTest.parse(bad)), bad);
            assertEquals("hub.signed-event-trust", e.key());
        }
    }
}
