package org.switchboard.synapse.delivery;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.io.StringReader;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.acl.AclLayer;
import org.switchboard.synapse.acl.AclPolicy;

/** §2.7: task control is granted only when every condition holds; each one failing alone refuses. */
class TaskControlTest {

    private static final AclPolicy POLICY = AclPolicy.parse(Json.createReader(new StringReader(
            "{\"rules\":[{\"permission\":\"delivery-control\",\"target_kind\":\"agent\",\"target_pattern\":\"ACME/worker*\","
                    + "\"namespace\":\"ACME\"}]}")).readObject());

    private static SynapseContext hub(String token, AclPolicy policy, Map<String, String> owners) {
        SynapseContext ctx = new TestHub(SynapseSettings.builder().token(token).build(), new InMemoryJournal()).hub.context();
        AclLayer acl = AclLayer.of(ctx);
        acl.install(policy, false, null);
        acl.liveClaims(owners::get);
        return ctx;
    }

    private static final Map<String, String> HELD = Map.of("T-1", "ACME/worker1");

    @Test
    void grantedWhenEveryConditionHolds() {
        assertTrue(TaskControl.granted(hub("tok", POLICY, HELD), "ACME/planner", "ACME/worker1", "T-1"));
    }

    @Test
    void anOpenHubRefuses() {
        assertFalse(TaskControl.granted(hub("", POLICY, HELD), "ACME/planner", "ACME/worker1", "T-1"));
    }

    @Test
    void noLoadedPolicyRefuses() {
        assertFalse(TaskControl.granted(hub("tok", null, HELD), "ACME/planner", "ACME/worker1", "T-1"));
    }

    @Test
    void anEmptyOrMissingTaskIdRefuses() {
        SynapseContext ctx = hub("tok", POLICY, Map.of("", "ACME/worker1"));
        assertFalse(TaskControl.granted(ctx, "ACME/planner", "ACME/worker1", ""));
        assertFalse(TaskControl.granted(ctx, "ACME/planner", "ACME/worker1", null));
    }

    @Test
    void noLiveClaimOrAnotherOwnerRefuses() {
        assertFalse(TaskControl.granted(hub("tok", POLICY, Map.of()), "ACME/planner", "ACME/worker1", "T-1"));
        assertFalse(TaskControl.granted(hub("tok", POLICY, Map.of("T-1", "ACME/worker2")), "ACME/planner", "ACME/worker1", "T-1"));
        assertFalse(TaskControl.granted(hub("tok", POLICY, Map.of("T-1", "ACME/worker1-rx")), "ACME/planner", "ACME/worker1", "T-1"),
                "the owner must be exactly the target");
    }

    @Test
    void withoutDeliveryControlOnTheTargetRefuses() {
        assertFalse(TaskControl.granted(hub("tok", POLICY, Map.of("T-1", "ACME/boss")), "ACME/planner", "ACME/boss", "T-1"));
        assertFalse(TaskControl.granted(hub("tok", POLICY, HELD), "OTHER/planner", "ACME/worker1", "T-1"),
                "the rule's namespace is the sender's project");
    }

    @Test
    void aForwardedRequesterRefuses() {
        assertFalse(TaskControl.granted(hub("tok", POLICY, HELD), "ACME/planner@hub2", "ACME/worker1", "T-1"));
    }

    @Test
    void thePureRuleNeedsEveryFact() {
        assertTrue(TaskControl.granted(new TaskControl.Facts(true, true, true, true, "T", "A/p")));
        assertFalse(TaskControl.granted(new TaskControl.Facts(false, true, true, true, "T", "A/p")));
        assertFalse(TaskControl.granted(new TaskControl.Facts(true, false, true, true, "T", "A/p")));
        assertFalse(TaskControl.granted(new TaskControl.Facts(true, true, false, true, "T", "A/p")));
        assertFalse(TaskControl.granted(new TaskControl.Facts(true, true, true, false, "T", "A/p")));
        assertFalse(TaskControl.granted(new TaskControl.Facts(true, true, true, true, "", "A/p")));
        assertFalse(TaskControl.granted(new TaskControl.Facts(true, true, true, true, "T", "A/p@h")));
    }
}
