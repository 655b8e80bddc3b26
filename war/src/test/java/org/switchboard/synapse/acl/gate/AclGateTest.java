package org.switchboard.synapse.acl.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.VerbHandler;
import org.switchboard.synapse.acl.AclLayer;
import org.switchboard.synapse.acl.AclPolicy;
import org.switchboard.synapse.acl.RoleGrantFile;

/** Pipeline step 17 on a plain hub: allowed frames reach their handler, denied ones get the decision and change nothing. */
class AclGateTest {

    private static final String RULES = "{\"rules\":["
            + "{\"permission\":\"message\",\"target_kind\":\"agent\",\"target_pattern\":\"ACME/*\",\"namespace\":\"ACME\",\"reason\":\"team\"},"
            + "{\"permission\":\"claim\",\"target_kind\":\"claim\",\"target_pattern\":\"T-*\",\"namespace\":\"ACME\"},"
            + "{\"permission\":\"release\",\"target_kind\":\"claim\",\"target_pattern\":\"T-*\",\"namespace\":\"ACME\"},"
            + "{\"permission\":\"recall\",\"target_kind\":\"history\",\"target_pattern\":\"global\",\"namespace\":\"ACME\"}]}";

    /** Records what reaches the claim verbs (the real handler is a CDI bean). */
    static final class Recording implements VerbHandler {
        final List<String> seen = new ArrayList<>();

        @Override
        public Set<String> types() {
            return Set.of("claim", "release", "future_write");
        }

        @Override
        public boolean mutating(String type) {
            return true;
        }

        @Override
        public void handle(InboundFrame in, SynapseContext ctx) {
            seen.add(in.type() + " " + in.frame().getString("task_id", ""));
        }
    }

    private final TestHub test = new TestHub(SynapseSettings.builder().build(), new InMemoryJournal());
    private final Recording claims = new Recording();

    private void enforce(boolean require) {
        test.hub.dispatcher().register(claims);
        AclLayer.of(test.hub.context()).install(
                AclPolicy.parse(Json.createReader(new StringReader(RULES)).readObject()), require, null);
    }

    private static JsonObject decision(TestHub.Client client) {
        List<JsonObject> errors = client.peer().ofType("error");
        return errors.isEmpty() ? null : errors.get(errors.size() - 1).getJsonObject("acl_decision");
    }

    private long denials(String permission) {
        var n = test.hub.context().counters().aclDenials.get(permission);
        return n == null ? 0 : n.sum();
    }

    @Test
    void anAllowedChatIsDeliveredAndADeniedOneIsRefusedWithTheDecision() {
        enforce(true);
        TestHub.Client alice = test.register("ACME/alice");
        TestHub.Client bob = test.register("ACME/bob");
        TestHub.Client eve = test.register("EVIL/eve");
        alice.chat("ACME/bob", "hello");
        assertEquals("hello", bob.peer().lastOfType("chat").getString("payload"));
        assertNull(decision(alice));

        bob.peer().clear();
        int history = test.hub.chat().history().size();
        long lastMsgId = test.hub.chat().lastMsgId();
        eve.chat("ACME/bob", "phish");
        assertTrue(bob.peer().ofType("chat").isEmpty(), "a denied chat reaches nobody");
        JsonObject d = decision(eve);
        assertFalse(d.getBoolean("allowed"));
        assertEquals("message", d.getString("permission"));
        assertEquals("agent:ACME/bob", d.getString("target"));
        assertEquals("no matching rule", d.getString("reason"));
        assertEquals(1, denials("message"));
        assertEquals(history, test.hub.chat().history().size(), "the denied chat is not in history");
        assertEquals(lastMsgId, test.hub.chat().lastMsgId(), "no msg_id was spent on it");
    }

    @Test
    void deniedClaimAndReleaseNeverReachTheHandlerAndReleaseEchoesItsKeys() {
        enforce(true);
        TestHub.Client alice = test.register("ACME/alice");
        TestHub.Client eve = test.register("EVIL/eve");
        alice.send(TestHub.frame("claim", "System", "").add("task_id", "T-1"));
        eve.send(TestHub.frame("claim", "System", "").add("task_id", "T-1"));
        alice.send(TestHub.frame("claim", "System", "").add("task_id", "X-1"));
        eve.send(TestHub.frame("release", "System", "").add("task_id", "T-1").add("idem_key", "op-9"));
        assertEquals(List.of("claim T-1"), claims.seen);
        JsonObject refusal = eve.peer().lastOfType("error");
        assertEquals("release", refusal.getJsonObject("acl_decision").getString("permission"));
        assertEquals("claim:T-1", refusal.getJsonObject("acl_decision").getString("target"));
        assertEquals("T-1", refusal.getString("task_id"));
        assertEquals("op-9", refusal.getString("release_operation_id"));
        assertEquals("claim:X-1", decision(alice).getString("target"));
    }

    @Test
    void historyNeedsRecallAndUnmappedMutatingTypesAreDenied() {
        enforce(true);
        TestHub.Client alice = test.register("ACME/alice");
        TestHub.Client eve = test.register("EVIL/eve");
        alice.send(TestHub.frame("history_request", "System", ""));
        assertNull(decision(alice));
        eve.send(TestHub.frame("history_request", "System", ""));
        assertEquals("recall", decision(eve).getString("permission"));
        assertEquals("history:global", decision(eve).getString("target"));

        alice.send(TestHub.frame("future_write", "System", "").add("task_id", "T-1"));
        assertTrue(claims.seen.isEmpty());
        assertEquals("mutating type without an ACL mapping", decision(alice).getString("reason"));
        assertEquals(1, denials(AclLayer.UNMAPPED));
        alice.send(TestHub.frame("who_request", "System", ""));
        assertFalse(alice.peer().ofType("who_snapshot").isEmpty(), "reads without a mapping pass");
    }

    @Test
    void withoutRequireAclEverythingPasses() {
        enforce(false);
        TestHub.Client bob = test.register("ACME/bob");
        TestHub.Client eve = test.register("EVIL/eve");
        eve.chat("ACME/bob", "hi");
        eve.send(TestHub.frame("claim", "System", "").add("task_id", "Z"));
        assertEquals("hi", bob.peer().lastOfType("chat").getString("payload"));
        assertEquals(List.of("claim Z"), claims.seen);
        assertNull(decision(eve));
    }

    @Test
    void rolesNotGrantedAreDroppedSilently() {
        AclLayer.of(test.hub.context()).install(null, false, RoleGrantFile.parse(Json.createReader(new StringReader(
                "{\"grants\":[{\"role\":\"ACME/reviewer\",\"identities\":[\"ACME/alice\"]}]}")).readObject()));
        TestHub.Client alice = test.register("ACME/alice", Json.createObjectBuilder()
                .add("roles", Json.createArrayBuilder().add("ACME/reviewer").add("ACME/admin")));
        TestHub.Client bob = test.register("ACME/bob", Json.createObjectBuilder()
                .add("roles", Json.createArrayBuilder().add("ACME/reviewer")));
        assertEquals(List.of("ACME/reviewer"), alice.connection().roles());
        assertEquals(List.of(), bob.connection().roles());
        assertTrue(bob.peer().ofType("error").isEmpty(), "dropped silently");
        bob.send(TestHub.frame("heartbeat", "System", "").add("roles", Json.createArrayBuilder().add("ACME/reviewer")));
        assertEquals(List.of(), bob.connection().roles(), "a later heartbeat is filtered too");
    }

    @Test
    void aRefusedConfigurationFailsClosed() {
        TestHub.Client bob = test.register("ACME/bob");
        TestHub.Client alice = test.register("ACME/alice");
        org.junit.jupiter.api.Assertions.assertThrows(org.switchboard.synapse.security.PolicyFileException.class,
                () -> AclLayer.of(test.hub.context()).configure(new org.switchboard.synapse.acl.AclSettings(null, true, null)));
        alice.chat("ACME/bob", "after the refusal");
        assertTrue(bob.peer().ofType("chat").isEmpty());
        assertEquals(AclGate.FAILED_CLOSED, alice.peer().lastOfType("error").getString("payload"));
    }
}
