package org.switchboard.synapse.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;

/** Step 6 in the hub's pipeline: before the token is removed, first frames only, 4013 with a typed error. */
class IdentityProofStepTest {

    static final TestKeys ALICE = new TestKeys(1);
    static final TestKeys MALLORY = new TestKeys(100);

    static JsonObject registration(String name, String token) {
        return Jsons.PROVIDER.createObjectBuilder(TestHub.frame("heartbeat", "System", "online").build())
                .add("sender", name).add("token", token).build();
    }

    @Test
    void stepSixSitsBetweenTheConnectTokenAndTheTokenRemoval() {
        List<String> steps = new TestHub().hub.dispatcher().steps();
        assertEquals(steps.indexOf("5 connect token") + 1, steps.indexOf("6 identity proof"), steps.toString());
        assertEquals(steps.indexOf("6 identity proof") + 1, steps.indexOf("7 token removed"), steps.toString());
    }

    @Test
    void aSignatureOverTheTokenVerifiesAndPinsThenAnotherKeyIsClosedWith4013() {
        TestHub test = new TestHub(SynapseSettings.builder().token("s3cret-token").build(), new InMemoryJournal());
        TestHub.Client alice = test.connect("ACME/alice");
        alice.sendRaw(ALICE.sign(registration("ACME/alice", "s3cret-token"), "alice-1").toString());
        assertEquals(0, alice.peer().closeCode(), "a valid signed registration (token covered) was refused");
        assertNotNull(alice.peer().lastOfType("welcome"));
        assertEquals(1, test.hub.context().counters().identityPinsCreated.sum());
        // a later frame on the bound socket is not a registration: no identity proof
        alice.sendRaw(MALLORY.sign(registration("ACME/alice", "s3cret-token"), "x").toString());
        assertEquals(0, alice.peer().closeCode());
        alice.disconnect();

        TestHub.Client mallory = test.connect("ACME/alice");
        mallory.sendRaw(MALLORY.sign(registration("ACME/alice", "s3cret-token"), "mallory-9").toString());
        assertEquals(IdentityBinding.CLOSE_CODE, mallory.peer().closeCode());
        assertEquals("identity pin mismatch", mallory.peer().closeReason());
        JsonObject error = mallory.peer().lastOfType("error");
        assertEquals("pin_mismatch", error.getString("identity_result"));
        assertTrue(error.getString("payload").contains("mallory-9"), error.toString());
        assertTrue(error.getString("payload").contains("identity_pin_reclaim"), error.toString());
        assertTrue(!error.toString().contains("s3cret-token"), "the token leaked into the refusal");
        assertEquals(1, test.hub.context().counters().identityPinMismatches.sum());

        TestHub.Client unsigned = test.connect("ACME/alice");
        unsigned.sendRaw(registration("ACME/alice", "s3cret-token").toString());
        assertEquals(IdentityBinding.CLOSE_CODE, unsigned.peer().closeCode());
        assertEquals(2, test.hub.context().counters().identityPinMismatches.sum());

        TestHub.Client bob = test.connect("ACME/bob");
        bob.sendRaw(registration("ACME/bob", "s3cret-token").toString());
        assertEquals(0, bob.peer().closeCode(), "an unsigned, unpinned name keeps legacy behaviour");
    }

    @Test
    void withRequiredBindingAnUnverifiedRegistrationIsABindingFailure(@TempDir Path dir) throws Exception {
        Path trust = dir.resolve("trust.json");
        Files.writeString(trust, "{\"keys\":[{\"key_id\":\"acme-a\",\"public_key\":\"" + ALICE.publicBase64()
                + "\",\"senders\":[\"ACME/alice\"]}]}");
        Files.setPosixFilePermissions(trust, PosixFilePermissions.fromString("rw-------"));
        TestHub test = new TestHub(SynapseSettings.builder().identityTrust(trust.toString()).requireIdentityBinding(true)
                .build(), new InMemoryJournal());
        TestHub.Client forged = test.connect("ACME/alice");
        JsonObject signed = ALICE.sign(registration("ACME/alice", "t"), "acme-a");
        forged.sendRaw(Jsons.PROVIDER.createObjectBuilder(signed).add("token", "other").build().toString());
        assertEquals(IdentityBinding.CLOSE_CODE, forged.peer().closeCode());
        assertEquals("identity binding failed", forged.peer().closeReason());
        assertEquals("bad_signature", forged.peer().lastOfType("error").getString("identity_result"));
        TestHub.Client unsigned = test.connect("ACME/alice");
        unsigned.sendRaw(registration("ACME/alice", "t").toString());
        assertEquals("missing_signature", unsigned.peer().lastOfType("error").getString("identity_result"));
        assertEquals(2, test.hub.context().counters().identityBindingFailures.sum());
        TestHub.Client alice = test.connect("ACME/alice");
        alice.sendRaw(signed.toString());
        assertEquals(0, alice.peer().closeCode(), "the bundle's key for its sender was refused");
    }
}
