package org.switchboard.synapse.attachments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.acl.AclLayer;
import org.switchboard.synapse.acl.AclPolicy;
import org.switchboard.synapse.acl.RoleGrantFile;

class GrantedAttachmentAuthorityTest {

    private static jakarta.json.JsonObject json(String text) {
        return Json.createReader(new StringReader(text.replace('\'', '"'))).readObject();
    }

    private final SynapseContext ctx = new TestHub().hub.context();
    private final AclLayer layer = AclLayer.of(ctx);
    private final GrantedAttachmentAuthority authority = new GrantedAttachmentAuthority(layer);

    private void install(boolean requireAcl) {
        layer.install(AclPolicy.parse(json("{'rules':["
                        + "{'permission':'attachment-write','target_kind':'attachment','target_pattern':'ACME','namespace':'ACME'},"
                        + "{'permission':'attachment-read','target_kind':'attachment','target_pattern':'*','namespace':'ACME'}]}")),
                requireAcl, RoleGrantFile.parse(json("{'grants':["
                        + "{'role':'ACME/attachment-write','identities':['ACME/alice']},"
                        + "{'role':'ACME/attachment-admin','identities':['ACME/alice']}]}")));
    }

    @Test
    void gateFourAsksTheRoleGrantStoreForScopeSlashPermission() {
        install(true);
        assertTrue(authority.roleGranted("ACME/alice", "ACME", "attachment-write"));
        assertFalse(authority.roleGranted("ACME/alice", "ACME", "attachment-read"), "not listed");
        assertFalse(authority.roleGranted("ACME/bob", "ACME", "attachment-write"), "deny by default");
        assertFalse(authority.roleGranted("ACME/alice", "OTHER", "attachment-write"), "another scope's role");
    }

    @Test
    void gateFiveAsksTheAclForThePermissionOnAttachmentScopeInTheScopesNamespace() {
        install(true);
        assertTrue(authority.aclAllows("ACME/alice", "ACME", "attachment-write"));
        assertTrue(authority.aclAllows("ACME/bob", "ACME", "attachment-read"));
        assertFalse(authority.aclAllows("ACME/alice", "ACME", "attachment-admin"), "no rule: admin is independent");
        assertFalse(authority.aclAllows("OPS/carol", "OPS", "attachment-read"), "the rule's namespace is ACME");
        assertEquals(2L, ctx.counters().aclDenials.get("attachment-admin").sum()
                + ctx.counters().aclDenials.get("attachment-read").sum(), "denials are counted");
    }

    @Test
    void bothGatesHoldWithoutRequireAclAndDenyWithoutAPolicy() {
        install(false);
        assertTrue(authority.aclAllows("ACME/alice", "ACME", "attachment-write"), "always enforced, policy still read");
        assertFalse(authority.aclAllows("ACME/alice", "ACME", "attachment-gc"));
        layer.install(null, false, null);
        assertFalse(authority.aclAllows("ACME/alice", "ACME", "attachment-write"), "no policy: deny");
        assertFalse(authority.roleGranted("ACME/alice", "ACME", "attachment-write"), "no store: deny");
    }
}
