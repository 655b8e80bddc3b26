package org.switchboard.synapse.attachments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AttachmentSecurityTest {

    private static final AttachmentSecurity ALL = new AttachmentSecurity(true, true, 1, true, true, true, true, true);

    @Test
    void withEveryPieceNothingIsMissing() {
        assertEquals(List.of(), ALL.missing());
        assertEquals(List.of(), AttachmentPosture.of("/var/lib/hub/attachments", true, true, ALL).missing());
    }

    @Test
    void eachMissingPieceIsNamedByItsKey() {
        assertEquals(List.of("identity trust bundle (hub.identity-trust)"),
                new AttachmentSecurity(false, true, 1, true, true, true, true, true).missing());
        assertEquals(List.of("require identity binding (hub.require-identity-binding)"),
                new AttachmentSecurity(true, false, 1, true, true, true, true, true).missing());
        assertEquals(List.of("at least one per-message HMAC key (hub.message-auth.key-file)"),
                new AttachmentSecurity(true, true, 0, true, true, true, true, true).missing());
        assertEquals(List.of("require message auth (hub.require-message-auth)"),
                new AttachmentSecurity(true, true, 3, false, true, true, true, true).missing());
        assertEquals(List.of("durable message-auth replay store (the hub's database)"),
                new AttachmentSecurity(true, true, 1, true, false, true, true, true).missing());
        assertEquals(List.of("ACL policy (hub.acl-policy)"),
                new AttachmentSecurity(true, true, 1, true, true, false, true, true).missing());
        assertEquals(List.of("require ACL (hub.require-acl)"),
                new AttachmentSecurity(true, true, 1, true, true, true, false, true).missing());
        assertEquals(List.of("role-grant store (hub.role-grants)"),
                new AttachmentSecurity(true, true, 1, true, true, true, true, false).missing());
    }

    @Test
    void anOpenHubMissesEveryPieceAndTheHubsOwn() {
        List<String> missing = AttachmentPosture.of("", false, false,
                new AttachmentSecurity(false, false, 0, false, false, false, false, false)).missing();
        assertEquals(11, missing.size(), missing.toString());
        assertTrue(missing.get(0).contains("hub.attachments.dir"));
        assertTrue(missing.contains("durable journal"));
        assertTrue(missing.contains("connect token (hub.token)"));
    }
}
