package org.switchboard.synapse.capability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.wire.SynapseCanonicalJson;

/** Signed capability cards through the registry, as a client would sign them (synapse-advanced §6.8). */
class SignedCardVerifierTest {

    static final double T0 = 1_790_000_000.0;
    final KeyPair alice = generate();
    final KeyPair stranger = generate();

    static KeyPair generate() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String rawPublic(KeyPair pair) {
        byte[] spki = pair.getPublic().getEncoded();
        return Base64.getEncoder().encodeToString(Arrays.copyOfRange(spki, spki.length - 32, spki.length));
    }

    JsonObject bundle(String extraKeyFields) {
        return CapabilityRegistryTest.json("{'keys':[{'key_id':'ACME:worker:2026-07','public_key':'" + rawPublic(alice)
                + "','agents':['proj/alice','proj/bob'],'projects':['proj']" + extraKeyFields + "}]}");
    }

    CapabilityRegistry registry(JsonObject bundle, int history) {
        return new CapabilityRegistry(SignedCardVerifier.fromBundle(bundle, 300, history));
    }

    /** The advertise frame of a card signed as the spec says, over the card the hub will project. */
    static JsonObject signedAdvertise(KeyPair key, String keyId, String agent, List<String> skills, long sequence,
                                      double signedAt, double expiresAt) throws Exception {
        JsonArrayBuilder skillArray = Json.createArrayBuilder();
        skills.forEach(skillArray::add);
        JsonObject stable = Json.createObjectBuilder().add("agent", agent).add("description", "python refactors")
                .add("skills", skillArray).add("task_classes", Json.createArrayBuilder().add("refactor"))
                .add("model", "").add("project", agent.substring(0, agent.indexOf('/'))).add("manifest_digest", "m1")
                .add("contracts", Json.createArrayBuilder()).addNull("meta").build();
        String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(("SYNAPSE-CAPABILITY-CARD-DIGEST-V1\u0000" + SynapseCanonicalJson.utf8(stable)).getBytes(StandardCharsets.UTF_8)));
        JsonObject envelope = Json.createObjectBuilder().add("version", 1).add("key_id", keyId).add("algorithm", "ed25519")
                .add("signed_at", signedAt).add("expires_at", expiresAt).add("sequence", sequence)
                .add("card_digest", digest).build();
        JsonObject toSign = Json.createObjectBuilder(stable).add("signature", envelope).build();
        Signature ed = Signature.getInstance("Ed25519");
        ed.initSign(key.getPrivate());
        ed.update(("SYNAPSE-CAPABILITY-CARD-SIGNATURE-V1\u0000" + SynapseCanonicalJson.utf8(toSign)).getBytes(StandardCharsets.UTF_8));
        String value = Base64.getEncoder().encodeToString(ed.sign());
        JsonObjectBuilder frame = Json.createObjectBuilder().add("agent", agent).add("description", "python refactors")
                .add("skills", Json.createArrayBuilder(skills)).add("task_classes", Json.createArrayBuilder().add("refactor"))
                .add("manifest_digest", "m1").add("signature", Json.createObjectBuilder(envelope).add("value", value));
        return frame.build();
    }

    JsonObject signed(String agent, List<String> skills, long sequence) throws Exception {
        return signedAdvertise(alice, "ACME:worker:2026-07", agent, skills, sequence, T0, T0 + 300);
    }

    static String result(CapabilityRegistry registry, JsonObject frame, String sender, double now) {
        CapabilityVerdict v = registry.advertise(AdvertiseRequest.from(frame), sender, now);
        return v.card().getJsonObject("verification").getString("result");
    }

    @Test
    void aCorrectlySignedCardIsValidAndCarriesTheSpecDetailFields() throws Exception {
        CapabilityRegistry registry = registry(bundle(""), 16);
        CapabilityVerdict v = registry.advertise(AdvertiseRequest.from(signed("proj/alice", List.of("python"), 42)), "proj/alice", T0 + 10);
        JsonObject verification = v.card().getJsonObject("verification");
        assertEquals("valid", verification.getString("result"), verification.toString());
        assertEquals("ACME:worker:2026-07", verification.getString("key_id"));
        assertEquals(42, verification.getInt("sequence"));
        assertEquals(64, verification.getString("card_digest").length());
        assertEquals(T0, verification.getJsonNumber("signed_at").doubleValue());
        assertEquals("m1", v.card().getString("manifest_digest"));
    }

    @Test
    void tamperingOrAForeignKeyIsABadSignature() throws Exception {
        CapabilityRegistry registry = registry(bundle(""), 16);
        JsonObject good = signed("proj/alice", List.of("python"), 1);
        JsonObject tampered = Json.createObjectBuilder(good).add("skills", Json.createArrayBuilder().add("python").add("go")).build();
        assertEquals("bad_signature", result(registry, tampered, "proj/alice", T0));
        JsonObject forged = signedAdvertise(stranger, "ACME:worker:2026-07", "proj/alice", List.of("python"), 2, T0, T0 + 300);
        assertEquals("bad_signature", result(registry, forged, "proj/alice", T0));
        JsonObject wrongVersion = Json.createObjectBuilder(good).add("signature",
                Json.createObjectBuilder(good.getJsonObject("signature")).add("version", 2)).build();
        assertEquals("bad_signature", result(registry, wrongVersion, "proj/alice", T0));
        assertEquals("valid", result(registry, good, "proj/alice", T0), "the untampered card still verifies");
    }

    @Test
    void keyChecksComeInTheSpecOrder() throws Exception {
        JsonObject card = signed("proj/alice", List.of("python"), 1);
        assertEquals("unknown_key", result(registry(bundle(""), 16),
                signedAdvertise(alice, "other-key", "proj/alice", List.of("python"), 1, T0, T0 + 300), "proj/alice", T0));
        assertEquals("revoked_key", result(registry(bundle(",'revoked':true"), 16), card, "proj/alice", T0));
        assertEquals("expired", result(registry(bundle(",'expires_at':" + (T0 - 1)), 16), card, "proj/alice", T0));
        JsonObject carol = signedAdvertise(alice, "ACME:worker:2026-07", "proj/carol", List.of("python"), 1, T0, T0 + 300);
        assertEquals("agent_mismatch", result(registry(bundle(""), 16), carol, "proj/carol", T0));
        JsonObject otherProject = CapabilityRegistryTest.json("{'keys':[{'key_id':'ACME:worker:2026-07','public_key':'"
                + rawPublic(alice) + "','agents':['proj/alice'],'projects':['elsewhere']}]}");
        assertEquals("project_scope_mismatch", result(registry(otherProject, 16), card, "proj/alice", T0));
    }

    @Test
    void theValidityWindowAllowsTheSkewOnly() throws Exception {
        JsonObject card = signed("proj/alice", List.of("python"), 1);
        assertEquals("expired", result(registry(bundle(""), 16), card, "proj/alice", T0 + 300 + 301));
        assertEquals("expired", result(registry(bundle(""), 16), card, "proj/alice", T0 - 301));
        assertEquals("valid", result(registry(bundle(""), 16), card, "proj/alice", T0 + 300 + 299));
    }

    @Test
    void historyCatchesReplaysDowngradesAndIsBounded() throws Exception {
        CapabilityRegistry registry = registry(bundle(""), 1);
        assertEquals("valid", result(registry, signed("proj/alice", List.of("python", "go"), 5), "proj/alice", T0));
        assertEquals("sequence_mismatch", result(registry, signed("proj/alice", List.of("python", "go"), 5), "proj/alice", T0));
        assertEquals("capability_downgrade", result(registry, signed("proj/alice", List.of("python"), 6), "proj/alice", T0));
        assertEquals("valid", result(registry, signed("proj/alice", List.of("python", "go", "rust"), 7), "proj/alice", T0));
        assertEquals("history_full", result(registry, signed("proj/bob", List.of("python"), 1), "proj/bob", T0));
        assertEquals("sequence_mismatch", result(registry,
                Json.createObjectBuilder(signed("proj/alice", List.of("python"), 1)).add("signature",
                        Json.createObjectBuilder(signed("proj/alice", List.of("python"), 1).getJsonObject("signature"))
                                .add("sequence", -1)).build(), "proj/alice", T0));
    }

    @Test
    void unsignedCardsStayMissingSignatureAndCardsStayVisible() {
        CapabilityRegistry registry = registry(bundle(""), 16);
        CapabilityVerdict v = registry.advertise(AdvertiseRequest.from(CapabilityRegistryTest.json("{'skills':['python']}")), "proj/alice", T0);
        assertEquals("missing_signature", v.card().getJsonObject("verification").getString("result"));
        assertEquals(1, registry.manifest(T0).size());
    }

    @Test
    void bundlesWithoutAgentsOrProjectsOrWithBadKeysAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> SignedCardVerifier.fromBundle(CapabilityRegistryTest.json(
                "{'keys':[{'key_id':'k','public_key':'" + rawPublic(alice) + "','agents':[],'projects':['proj']}]}"), 300, 16));
        assertThrows(IllegalArgumentException.class, () -> SignedCardVerifier.fromBundle(CapabilityRegistryTest.json(
                "{'keys':[{'key_id':'k','public_key':'" + rawPublic(alice) + "','agents':['proj/*'],'projects':['proj']}]}"), 300, 16));
        assertThrows(IllegalArgumentException.class, () -> SignedCardVerifier.fromBundle(CapabilityRegistryTest.json(
                "{'keys':[{'key_id':'k','public_key':'AAAA','agents':['proj/a'],'projects':['proj']}]}"), 300, 16));
    }
}
