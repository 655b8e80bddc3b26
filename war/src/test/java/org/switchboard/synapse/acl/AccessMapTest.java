package org.switchboard.synapse.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class AccessMapTest {

    private static List<String> required(String type, String frame, String target) {
        List<Access> accesses = AccessMap.required(type, AclPolicyTest.json(frame), "ACME/alice", target);
        return accesses == null ? null : accesses.stream().map(a -> a.permission() + " " + a.target()).toList();
    }

    @Test
    void chatNeedsMessageOnItsAddresseesChannelOrBroadcast() {
        assertEquals(List.of("message agent:ACME/bob"), required("chat", "{}", "ACME/bob"));
        assertEquals(List.of("message agent:ACME/bob", "message agent:ACME/carol"), required("chat", "{}", "ACME/bob, ACME/carol"));
        assertEquals(List.of("message channel:all"), required("chat", "{}", "all"));
        assertEquals(List.of("message channel:ops"), required("chat", "{'channel':'ops'}", "all"));
        assertEquals(List.of("message agent:ACME/*"), required("chat", "{}", "ACME/*"));
    }

    @Test
    void claimFamilyNeedsClaimOnTheTaskAndEachNormalisedPath() {
        assertEquals(List.of("claim claim:T-1", "claim path:src/a.java", "claim path:docs"),
                required("claim", "{'task_id':' T-1 ','paths':['./src//a.java','docs/']}", "System"));
        assertEquals(List.of("claim claim:T-2"), required("claim", "{'payload':'T-2'}", "System"));
        assertEquals(List.of("claim claim:T-3", "claim path:"), required("claim", "{'task_id':'T-3','paths':['../x']}", "System"),
                "an escaping path widens to the whole tree, the empty path");
        assertEquals(List.of("claim claim:T-4"), required("task_update", "{'id':'T-4','status':'working'}", "System"));
        assertEquals(List.of("claim claim:T-5"), required("handoff", "{'task_id':'T-5','target':'ACME/bob'}", "ACME/bob"));
        assertEquals(List.of("claim claim:T-6"), required("checkpoint", "{'task_id':'T-6','checkpoint':'c'}", "System"));
    }

    @Test
    void releaseNeedsRelease() {
        assertEquals(List.of("release claim:T-1"), required("release", "{'task_id':'T-1','idem_key':'k'}", "System"));
    }

    @Test
    void boardWritesAdvertiseAndResourcesNeedBoard() {
        assertEquals(List.of("board board:T-1"), required("ledger_task", "{'task_id':'T-1'}", "System"));
        assertEquals(List.of("board board:T-1"), required("ledger_task_update", "{'task_id':'T-1'}", "System"));
        assertEquals(List.of("board board:T-1"), required("ledger_progress", "{'task_id':'T-1'}", "System"));
        assertEquals(List.of("board capability:ACME/alice"), required("advertise", "{}", "System"));
        assertEquals(List.of("board resource:gpu/a100"), required("resource", "{'kind':'gpu','name':'a100'}", "System"));
        assertEquals(List.of("board resource:gpu/a100"), required("resource", "{'resource_kind':'gpu','resource_name':'a100'}", "System"));
    }

    @Test
    void channelAdminReadsEvidenceAndPinReclaim() {
        for (String verb : List.of("channel_create", "channel_invite", "channel_join", "channel_leave")) {
            assertEquals(List.of("message channel:ops"), required(verb, "{'channel':'ops'}", "System"), verb);
        }
        assertEquals(List.of("recall history:global"), required("history_request", "{}", "System"));
        assertEquals(List.of("recall history:global"), required("resume_request", "{}", "System"));
        assertEquals(List.of("evidence evidence:guard-denial"), required("guard_denial", "{}", "System"));
        assertEquals(List.of("identity-pin-reclaim agent:ACME/bob"), required("identity_pin_reclaim", "{'pin_name':'ACME/bob'}", "System"));
        assertEquals(List.of("message agent:ACME/bob"), required("delivery_request", "{'mode':'interrupt'}", "ACME/bob"));
    }

    @Test
    void exemptAndUnmappedTypes() {
        for (String verb : List.of("delivery_cancel", "delivery_ack", "delivery_boundary", "delivery_outcome",
                "identity_enroll", "identity_revoke", "entitlement_advert", "attachment_begin")) {
            assertEquals(List.of(), required(verb, "{}", "System"), verb);
        }
        assertNull(required("heartbeat", "{}", "System"));
        assertNull(required("who_request", "{}", "System"));
        assertNull(required("some_future_write", "{}", "System"));
    }
}
