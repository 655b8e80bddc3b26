package org.switchboard.itests.synapse.coordination;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;
import org.switchboard.synapse.wire.SynapseCanonicalJson;

/**
 * Black-box: the coordination limits are operator configuration (set here from the environment,
 * as an operator would), signed capability cards are verified against a card trust bundle, the
 * state snapshot shows live claims with their leases and drops expired ones, and a handoff
 * without a target gets the spec's sentence.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CoordinationLimitsIT {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final KeyPair CARD_KEY = ed25519();
    private static HubServer hub;

    @BeforeAll
    static void start() throws Exception {
        Path trust = Path.of(System.getProperty("hub.workDir", "target/hubs"))
                .resolve("card-trust-" + ProcessHandle.current().pid() + ".json").toAbsolutePath();
        Files.createDirectories(trust.getParent());
        Files.writeString(trust, "{\"keys\":[{\"key_id\":\"lim:worker\",\"public_key\":\"" + rawPublic(CARD_KEY)
                + "\",\"agents\":[\"lim/signer\"],\"projects\":[\"lim\"]}]}");
        hub = CoordinationHub.start("coord-limits", Map.of(
                "HUB_CLAIMS_MAX_PER_PRINCIPAL", "2",
                "HUB_CLAIMS_MAX_PATHS", "2",
                "HUB_CLAIMS_MIN_LEASE_SECONDS", "1",
                "HUB_CLAIMS_DEFAULT_LEASE_SECONDS", "120",
                "HUB_RESOURCES_MAX_OFFERS_PER_AGENT", "1",
                "HUB_CAPABILITIES_CARD_TRUST", trust.toString()));
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    private static SynapseClient agent(String name) {
        return SynapseClient.register(hub.webSocketUri(), name);
    }

    private static JsonObjectBuilder f(String type) {
        return SynapseClient.frame(type, "System", "");
    }

    private static JsonObject await(SynapseClient c, String type, Predicate<JsonObject> more) {
        return c.expect(x -> type.equals(x.getString("type", "")) && more.test(x), WAIT);
    }

    private static Predicate<JsonObject> task(String id) {
        return x -> id.equals(x.getString("task_id", ""));
    }

    /** Every socket of this host shares one open-hub quota principal, so each test gives its claims back. */
    private static void release(SynapseClient c, String taskId) {
        c.send(f("release").add("task_id", taskId));
        await(c, "release_granted", task(taskId));
    }

    @Test
    @Order(1)
    void claimQuotaPathCapAndLeaseBoundsComeFromConfiguration() {
        try (SynapseClient a = agent("lim/quota")) {
            a.send(f("claim").add("task_id", "q-1").add("paths", Json.createArrayBuilder().add("q/a").add("q/b").add("q/c")));
            JsonObject first = await(a, "claim_granted", task("q-1"));
            assertEquals(List.of(""), first.getJsonArray("paths").getValuesAs(jakarta.json.JsonString::getString),
                    "three paths above hub.claims.max-paths=2 widen to the whole tree");
            double lease = first.getJsonNumber("lease_expires_at").doubleValue() - first.getJsonNumber("timestamp").doubleValue();
            assertTrue(Math.abs(lease - 120) < 5, "default lease from hub.claims.default-lease-seconds: " + lease);
            a.send(f("claim").add("task_id", "q-2").add("worktree", "other").add("paths", Json.createArrayBuilder().add("x")));
            await(a, "claim_granted", task("q-2"));
            a.send(f("claim").add("task_id", "q-3").add("worktree", "third").add("paths", Json.createArrayBuilder().add("y")));
            JsonObject denied = await(a, "claim_denied", task("q-3"));
            assertEquals("QUOTA_EXCEEDED", denied.getString("reason_code"));
            assertEquals("Task 'q-3' denied: claim quota of 2 live claims reached.", denied.getString("payload"));
            release(a, "q-1");
            release(a, "q-2");
        }
    }

    @Test
    @Order(2)
    void stateSnapshotShowsLiveLeasesAndDropsExpiredOnes() throws Exception {
        try (SynapseClient a = agent("lim/snap"); SynapseClient b = agent("lim/other")) {
            a.send(f("claim").add("task_id", "s-short").add("paths", Json.createArrayBuilder().add("snap/short")).add("ttl_seconds", 2));
            JsonObject grant = await(a, "claim_granted", task("s-short"));
            b.send(f("state_request"));
            JsonObject snapshot = await(b, "state_snapshot", x -> true).getJsonObject("snapshot");
            JsonObject listed = snapshot.getJsonArray("active_claims").stream().map(JsonValue::asJsonObject)
                    .filter(c -> "s-short".equals(c.getString("task_id"))).findFirst().orElseThrow();
            assertEquals(Set.of("task_id", "owner", "note", "claimed_at", "lease_expires_at", "status", "data_ref",
                    "worktree", "paths", "epoch", "version", "checkpoint", "git"), listed.keySet(),
                    "the §9.1 projection, never quota_principal");
            assertEquals(grant.getJsonNumber("lease_expires_at"), listed.getJsonNumber("lease_expires_at"));
            assertEquals(grant.getJsonNumber("epoch"), listed.getJsonNumber("epoch"));
            Thread.sleep(3000);
            b.send(f("state_request"));
            JsonArray after = await(b, "state_snapshot", x -> true).getJsonObject("snapshot").getJsonArray("active_claims");
            assertFalse(after.stream().anyMatch(c -> "s-short".equals(c.asJsonObject().getString("task_id"))),
                    "an expired lease is not listed: " + after);
            b.send(f("claim").add("task_id", "s-short").add("paths", Json.createArrayBuilder().add("snap/short")));
            assertEquals("lim/other", await(b, "claim_granted", task("s-short")).getString("owner"));
            release(b, "s-short");
        }
    }

    @Test
    @Order(2)
    void resourceOfferQuotaComesFromConfiguration() {
        try (SynapseClient a = agent("lim/gpu")) {
            a.send(f("resource").add("kind", "compute").add("name", "g0"));
            await(a, "resource_offered", x -> "g0".equals(x.getString("name", "")));
            a.send(f("resource").add("kind", "compute").add("name", "g1"));
            assertEquals("resource offer quota exceeded", await(a, "error", x -> true).getString("payload"));
        }
    }

    @Test
    @Order(2)
    void signedCardsAreVerifiedAgainstTheTrustBundle() throws Exception {
        try (SynapseClient signer = agent("lim/signer"); SynapseClient stranger = agent("lim/stranger")) {
            signer.send(signedAdvertise("lim/signer", List.of("python"), 1, CARD_KEY));
            JsonObject verification = await(signer, "capability_advertised", x -> "lim/signer".equals(x.getString("agent", "")))
                    .getJsonObject("card").getJsonObject("verification");
            assertEquals("valid", verification.getString("result"), verification.toString());
            assertEquals("lim:worker", verification.getString("key_id"));
            signer.send(signedAdvertise("lim/signer", List.of("python"), 1, CARD_KEY));
            assertEquals("sequence_mismatch", await(signer, "capability_advertised", x -> "lim/signer".equals(x.getString("agent", "")))
                    .getJsonObject("card").getJsonObject("verification").getString("result"), "a replayed sequence");
            signer.send(signedAdvertise("lim/signer", List.of("python"), 2, ed25519()));
            assertEquals("bad_signature", await(signer, "capability_advertised", x -> "lim/signer".equals(x.getString("agent", "")))
                    .getJsonObject("card").getJsonObject("verification").getString("result"), "signed with a foreign key");
            stranger.send(signedAdvertise("lim/stranger", List.of("go"), 1, CARD_KEY));
            assertEquals("agent_mismatch", await(stranger, "capability_advertised", x -> "lim/stranger".equals(x.getString("agent", "")))
                    .getJsonObject("card").getJsonObject("verification").getString("result"));
            stranger.send(f("manifest_request"));
            JsonArray manifest = await(stranger, "manifest_snapshot", x -> true).getJsonArray("manifest");
            assertTrue(manifest.stream().anyMatch(c -> "lim/stranger".equals(c.asJsonObject().getString("agent"))),
                    "verification is advisory: the card stays visible");
        }
    }

    @Test
    @Order(2)
    void handoffWithoutATargetGetsTheSpecSentence() {
        try (SynapseClient a = agent("lim/giver")) {
            a.send(f("claim").add("task_id", "h-1").add("paths", Json.createArrayBuilder().add("hand/one")));
            await(a, "claim_granted", task("h-1"));
            a.send(f("handoff").add("task_id", "h-1"));
            assertEquals("Handoff target 'System' is not online.", await(a, "handoff_denied", task("h-1")).getString("payload"),
                    "without to_agent the target field names the recipient (§9.9)");
            a.send(f("handoff").add("task_id", "h-1").add("to_agent", ""));
            assertEquals("Handoff target '' is not online.", await(a, "handoff_denied", task("h-1")).getString("payload"));
            release(a, "h-1");
        }
    }

    /** An advertise frame whose card the client signed as synapse-advanced §6.8 says. */
    private static JsonObject signedAdvertise(String agent, List<String> skills, long sequence, KeyPair key) throws Exception {
        double now = System.currentTimeMillis() / 1000.0;
        JsonObject stable = Json.createObjectBuilder().add("agent", agent).add("description", "")
                .add("skills", Json.createArrayBuilder(skills)).add("task_classes", Json.createArrayBuilder())
                .add("model", "").add("project", agent.substring(0, agent.indexOf('/'))).add("manifest_digest", "")
                .add("contracts", Json.createArrayBuilder()).addNull("meta").build();
        String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(("SYNAPSE-CAPABILITY-CARD-DIGEST-V1\u0000" + SynapseCanonicalJson.utf8(stable)).getBytes(StandardCharsets.UTF_8)));
        JsonObject envelope = Json.createObjectBuilder().add("version", 1).add("key_id", "lim:worker")
                .add("algorithm", "ed25519").add("signed_at", now).add("expires_at", now + 300).add("sequence", sequence)
                .add("card_digest", digest).build();
        Signature ed = Signature.getInstance("Ed25519");
        ed.initSign(key.getPrivate());
        ed.update(("SYNAPSE-CAPABILITY-CARD-SIGNATURE-V1\u0000"
                + SynapseCanonicalJson.utf8(Json.createObjectBuilder(stable).add("signature", envelope).build())).getBytes(StandardCharsets.UTF_8));
        return f("advertise").add("agent", agent).add("skills", Json.createArrayBuilder(skills))
                .add("signature", Json.createObjectBuilder(envelope).add("value", Base64.getEncoder().encodeToString(ed.sign())))
                .build();
    }

    private static KeyPair ed25519() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String rawPublic(KeyPair pair) {
        byte[] spki = pair.getPublic().getEncoded();
        return Base64.getEncoder().encodeToString(Arrays.copyOfRange(spki, spki.length - 32, spki.length));
    }
}
