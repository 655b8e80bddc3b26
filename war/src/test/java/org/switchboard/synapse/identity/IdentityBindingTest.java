package org.switchboard.synapse.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.json.Jsons;

/** The §6.5 rules: TOFU pins (first pin, match, mismatch, unsigned legacy, pins off) and the operator bundle. */
class IdentityBindingTest {

    static final TestKeys ALICE = new TestKeys(1);
    static final TestKeys MALLORY = new TestKeys(100);

    /** A store that records inserts and can be reloaded (a restart). */
    static final class RecordingStore implements PinStore {
        final List<IdentityPins.Pin> rows = new ArrayList<>();

        @Override
        public Collection<IdentityPins.Pin> loadAll() {
            return List.copyOf(rows);
        }

        @Override
        public void insert(IdentityPins.Pin pin) {
            rows.add(pin);
        }
    }

    static IdentityBinding tofu(PinStore store) {
        return new IdentityBinding(null, null, false, new IdentityPins(() -> store));
    }

    @Test
    void theFirstValidSignaturePinsTheNameDurably() {
        RecordingStore store = new RecordingStore();
        IdentityBinding binding = tofu(store);
        assertFalse(binding.proven("ACME/alice"));
        IdentityBinding.Decision first = binding.check("ACME/alice", ALICE.sign(TestKeys.heartbeat("ACME/alice"), "alice-1"), 10);
        assertTrue(first.accepted());
        assertTrue(first.pinCreated());
        assertEquals(1, store.rows.size(), "the pin was not written through");
        assertEquals("alice-1", store.rows.get(0).keyId());
        assertTrue(binding.proven("ACME/alice"));

        IdentityBinding.Decision again = binding.check("ACME/alice", ALICE.sign(TestKeys.heartbeat("ACME/alice"), "alice-1"), 11);
        assertTrue(again.accepted());
        assertFalse(again.pinCreated());
        assertEquals(1, store.rows.size());

        // a restart reads the pin back: a different key is still refused
        IdentityBinding restarted = tofu(store);
        assertTrue(restarted.check("ACME/alice", ALICE.sign(TestKeys.heartbeat("ACME/alice"), "alice-1"), 12).accepted());
        assertFalse(restarted.check("ACME/alice", MALLORY.sign(TestKeys.heartbeat("ACME/alice"), "alice-1"), 12).accepted());
    }

    @Test
    void aDifferentKeyOrAMissingSignatureOnAPinnedNameIsAPinMismatch() {
        IdentityBinding binding = tofu(new RecordingStore());
        binding.check("ACME/alice", ALICE.sign(TestKeys.heartbeat("ACME/alice"), "alice-1"), 10);

        IdentityBinding.Decision other = binding.check("ACME/alice", MALLORY.sign(TestKeys.heartbeat("ACME/alice"), "mallory-9"), 11);
        assertFalse(other.accepted());
        assertTrue(other.pinMismatch());
        assertEquals(IdentityBinding.REASON_PIN_MISMATCH, other.reason());
        assertEquals("mallory-9", other.observedKeyId());
        assertTrue(other.text().contains("'mallory-9'"), other.text());
        assertTrue(other.text().contains("identity_pin_reclaim"), other.text());

        IdentityBinding.Decision sameKeyOtherId = binding.check("ACME/alice", ALICE.sign(TestKeys.heartbeat("ACME/alice"), "alice-2"), 11);
        assertTrue(sameKeyOtherId.pinMismatch(), "the pin is on key id and key");

        IdentityBinding.Decision unsigned = binding.check("ACME/alice", TestKeys.heartbeat("ACME/alice"), 11);
        assertTrue(unsigned.pinMismatch());
        assertNull(unsigned.observedKeyId());
        assertTrue(unsigned.text().contains("unsigned"), unsigned.text());
    }

    @Test
    void unsignedNamesKeepLegacyBehaviourAndUnverifiableProofsNeverPin() {
        RecordingStore store = new RecordingStore();
        IdentityBinding binding = tofu(store);
        assertTrue(binding.check("bob", TestKeys.heartbeat("bob"), 1).accepted());
        assertFalse(binding.proven("bob"));

        JsonObject signed = ALICE.sign(TestKeys.heartbeat("carol"), "c-1");
        JsonObject tampered = Jsons.PROVIDER.createObjectBuilder(signed).add("payload", "changed").build();
        IdentityBinding.Decision bad = binding.check("carol", tampered, 1);
        assertTrue(bad.accepted(), "an unverifiable proof counts as unsigned on an unpinned name");
        assertFalse(bad.pinCreated());
        JsonObject noKey = Jsons.PROVIDER.createObjectBuilder(signed).remove("identity_public_key").build();
        assertFalse(binding.check("carol", noKey, 1).pinCreated());
        JsonObject v2 = Jsons.PROVIDER.createObjectBuilder(signed).add("signature", Jsons.PROVIDER.createObjectBuilder(
                signed.getJsonObject("signature")).add("version", 2).add("domain", "aef:legacy-event:v0.1")).build();
        assertFalse(binding.check("carol", v2, 1).pinCreated(), "only v1 proofs pin");
        assertTrue(store.rows.isEmpty(), "a failed proof pinned a name");
        assertFalse(binding.proven("carol"));

        // on a pinned name, a copied key id and key without the private key is a mismatch
        binding.check("carol", signed, 2);
        JsonObject forged = Jsons.PROVIDER.createObjectBuilder(ALICE.sign(TestKeys.heartbeat("carol"), "c-1"))
                .add("payload", "forged").build();
        IdentityBinding.Decision refused = binding.check("carol", forged, 3);
        assertTrue(refused.pinMismatch());
        assertEquals("c-1", refused.observedKeyId());
    }

    @Test
    void withPinsOffSignaturesAreNotConsultedAndNothingIsPinned() {
        IdentityBinding off = new IdentityBinding(null, null, false, null);
        assertTrue(off.check("alice", ALICE.sign(TestKeys.heartbeat("alice"), "a"), 1).accepted());
        assertTrue(off.check("alice", MALLORY.sign(TestKeys.heartbeat("alice"), "m"), 1).accepted());
        assertTrue(off.check("alice", TestKeys.heartbeat("alice"), 1).accepted());
        assertFalse(off.proven("alice"));
        assertNull(off.pin("alice"));
    }

    static TrustBundle bundle(String extra) {
        return TrustBundle.parse(TestKeys.json("{\"keys\":[{\"key_id\":\"acme-a\",\"public_key\":\"" + ALICE.publicBase64()
                + "\",\"senders\":[\"ACME/alice\"]" + extra + "}]}"));
    }

    @Test
    void requiredBindingVerifiesAgainstTheBundleForTheSender() {
        IdentityBinding required = new IdentityBinding(bundle(""), null, true, new IdentityPins(IdentityPins::memoryStore));
        assertTrue(required.check("ACME/alice", ALICE.sign(TestKeys.heartbeat("ACME/alice"), "acme-a"), 1).accepted());
        assertTrue(required.proven("anyone"));
        assertEquals("missing_signature", required.check("ACME/alice", TestKeys.heartbeat("ACME/alice"), 1).result());
        assertEquals("unknown_key", required.check("ACME/alice", ALICE.sign(TestKeys.heartbeat("ACME/alice"), "other"), 1).result());
        assertEquals("sender_mismatch", required.check("ACME/bob", ALICE.sign(TestKeys.heartbeat("ACME/bob"), "acme-a"), 1).result());
        assertEquals("bad_signature", required.check("ACME/alice", MALLORY.sign(TestKeys.heartbeat("ACME/alice"), "acme-a"), 1).result());
        IdentityBinding.Decision refused = required.check("ACME/alice", TestKeys.heartbeat("ACME/alice"), 1);
        assertEquals(IdentityBinding.REASON_BINDING_FAILED, refused.reason());
        assertFalse(refused.pinMismatch());
    }

    @Test
    void bundleKeysCanBeRevokedExpiredOrProjectScoped() {
        JsonObject frame = ALICE.sign(TestKeys.heartbeat("ACME/alice"), "acme-a");
        assertEquals("revoked_key", new IdentityBinding(bundle(",\"revoked\":true"), null, true, null).check("ACME/alice", frame, 1).result());
        assertEquals("expired", new IdentityBinding(bundle(",\"expires_at\":100"), null, true, null).check("ACME/alice", frame, 101).result());
        assertTrue(new IdentityBinding(bundle(",\"expires_at\":100"), null, true, null).check("ACME/alice", frame, 99).accepted());
        assertEquals("project_scope_mismatch", new IdentityBinding(bundle(",\"projects\":[\"OTHER\"]"), null, true, null)
                .check("ACME/alice", frame, 1).result());
        assertTrue(new IdentityBinding(bundle(",\"projects\":[\"ACME\"]"), null, true, null).check("ACME/alice", frame, 1).accepted());
    }

    @Test
    void aBundleWithoutRequiredBindingRefusesNothingAndPinsNothing() {
        IdentityBinding optional = new IdentityBinding(bundle(""), null, false, new IdentityPins(IdentityPins::memoryStore));
        assertTrue(optional.check("ACME/alice", TestKeys.heartbeat("ACME/alice"), 1).accepted());
        assertTrue(optional.check("ACME/alice", MALLORY.sign(TestKeys.heartbeat("ACME/alice"), "acme-a"), 1).accepted());
        assertFalse(optional.check("ACME/alice", ALICE.sign(TestKeys.heartbeat("ACME/alice"), "acme-a"), 1).pinCreated(),
                "with a bundle no TOFU pins are made");
        assertNull(optional.pin("ACME/alice"));
        assertFalse(optional.proven("ACME/alice"));
    }

    @Test
    void aRefusedBundleOrRequiredWithoutOneFailsClosed() {
        IdentityBinding broken = new IdentityBinding(null, "hub.identity-trust: malformed JSON", false, null);
        assertFalse(broken.check("ACME/alice", ALICE.sign(TestKeys.heartbeat("ACME/alice"), "acme-a"), 1).accepted());
        assertFalse(broken.check("bob", TestKeys.heartbeat("bob"), 1).accepted());
        IdentityBinding requiredNoBundle = new IdentityBinding(null, null, true, null);
        assertFalse(requiredNoBundle.check("bob", TestKeys.heartbeat("bob"), 1).accepted());
        assertNotNull(requiredNoBundle.check("bob", TestKeys.heartbeat("bob"), 1).text());
    }
}
