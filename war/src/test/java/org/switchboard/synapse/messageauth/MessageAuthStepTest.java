package org.switchboard.synapse.messageauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.VerbHandler;

/** Pipeline step 14 on a unit-built hub: which frames reach their handler, the refusal frame, the counters. */
class MessageAuthStepTest {

    private static final String SECRET = "step-secret";

    @TempDir
    Path dir;

    /** Records the frames that reached "their handler" (stands in for claims). */
    static final class Recorder implements VerbHandler {
        final List<JsonObject> handled = new CopyOnWriteArrayList<>();

        @Override
        public Set<String> types() {
            return Set.of("claim", "release", "wait_request");
        }

        @Override
        public void handle(InboundFrame frame, SynapseContext context) {
            handled.add(frame.frame());
        }
    }

    private TestHub hub(boolean required, Recorder recorder) throws IOException {
        Path keys = dir.resolve("keys.json");
        Files.writeString(keys, "{\"keys\":[{\"kid\":\"k1\",\"secret\":\"" + SECRET + "\",\"senders\":[\"team/alice\"]}]}");
        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rw-------"));
        TestHub test = new TestHub(SynapseSettings.builder().messageAuthKeyFile(keys.toString())
                .requireMessageAuth(required).build(), null);
        test.hub.dispatcher().register(recorder);
        return test;
    }

    /** {@code frame} from alice with a correct {@code auth} at the wall clock (the step's clock). */
    static JsonObject sign(JsonObjectBuilder frame, String secret, String nonce) {
        JsonObject auth = Jsons.PROVIDER.createObjectBuilder().add("alg", "hmac-sha256").add("kid", "k1")
                .add("nonce", nonce).add("sequence", 1).add("timestamp", System.currentTimeMillis() / 1000.0).build();
        JsonObject unsigned = frame.add("sender", "team/alice").add("auth", auth).build();
        String mac = MacInput.hmacHex(secret.getBytes(StandardCharsets.UTF_8), MacInput.bytes(unsigned));
        return Jsons.PROVIDER.createObjectBuilder(unsigned)
                .add("auth", Jsons.PROVIDER.createObjectBuilder(auth).add("value", mac)).build();
    }

    private static JsonObjectBuilder claim(String task) {
        return TestHub.frame("claim", "all", "").add("task_id", task);
    }

    @Test
    void onAHubThatRequiresItOnlyVerifiedSignedVerbsReachTheirHandler() throws IOException {
        Recorder recorder = new Recorder();
        TestHub test = hub(true, recorder);
        TestHub.Client alice = test.register("team/alice");
        alice.sendRaw(sign(claim("t-1"), SECRET, "n1").toString());
        assertEquals(1, recorder.handled.size());

        alice.send(claim("t-2"));
        JsonObject missing = alice.peer().lastOfType("error");
        assertEquals("missing", missing.getString("verification_result"));
        alice.sendRaw(sign(claim("t-3"), "forged", "n2").toString());
        assertEquals("bad_authentication", alice.peer().lastOfType("error").getString("verification_result"));
        alice.sendRaw(sign(claim("t-1"), SECRET, "n1").toString());
        assertEquals("replayed", alice.peer().lastOfType("error").getString("verification_result"));
        assertEquals(1, recorder.handled.size(), "no refused frame reached the handler");
        assertEquals(0, alice.peer().closeCode(), "the connection stays usable");

        // verbs outside the signed set are not covered
        alice.send(TestHub.frame("wait_request", "all", ""));
        assertEquals(2, recorder.handled.size());

        SynapseContext ctx = test.hub.context();
        assertEquals(1, ctx.counters().messageAuthResults.get("ok").sum());
        assertEquals(1, ctx.counters().messageAuthResults.get("missing").sum());
        assertEquals(1, ctx.counters().messageAuthResults.get("replayed").sum());
    }

    @Test
    void aReleaseRefusalEchoesTheOperationKeyAndTask() throws IOException {
        Recorder recorder = new Recorder();
        TestHub.Client alice = hub(true, recorder).register("team/alice");
        alice.send(TestHub.frame("release", "all", "").add("task_id", "t-9").add("idem_key", "op-1"));
        JsonObject refused = alice.peer().lastOfType("error");
        assertEquals("missing", refused.getString("verification_result"));
        assertEquals("op-1", refused.getString("release_operation_id"));
        assertEquals("t-9", refused.getString("task_id"));
        assertEquals("team/alice", refused.getString("target"));
        assertTrue(recorder.handled.isEmpty());
    }

    @Test
    void withoutTheRequirementUnsignedFramesPassButAFailingAuthIsStillRefused() throws IOException {
        Recorder recorder = new Recorder();
        TestHub.Client alice = hub(false, recorder).register("team/alice");
        alice.send(claim("t-1"));
        assertEquals(1, recorder.handled.size());
        alice.sendRaw(sign(claim("t-2"), "forged", "n1").toString());
        assertEquals("bad_authentication", alice.peer().lastOfType("error").getString("verification_result"));
        alice.sendRaw(sign(claim("t-3"), SECRET, "n2").toString());
        assertEquals(2, recorder.handled.size());
        assertFalse(alice.peer().frames().stream().anyMatch(f -> f.toString().contains(SECRET)));
    }
}
