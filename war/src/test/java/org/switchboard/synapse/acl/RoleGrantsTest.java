package org.switchboard.synapse.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.security.PolicyFileException;

class RoleGrantsTest {

    private static final RoleGrants GRANTS = RoleGrantFile.parse(AclPolicyTest.json(
            "{'grants':[{'role':'ACME/attachment-read','identities':['ACME/alice','ACME/bob']},"
                    + "{'role':'ACME/reviewer','identities':['ACME/alice']}]}"));

    @Test
    void onlyListedIdentitiesMayClaimARole() {
        assertTrue(GRANTS.mayClaim("ACME/alice", "ACME/reviewer"));
        assertFalse(GRANTS.mayClaim("ACME/bob", "ACME/reviewer"));
        assertFalse(GRANTS.mayClaim("acme/alice", "ACME/reviewer"), "case-sensitive");
        assertFalse(GRANTS.mayClaim("ACME/alice", "ACME/admin"), "deny by default");
        assertFalse(RoleGrants.NONE.mayClaim("ACME/alice", "ACME/reviewer"));
    }

    @Test
    void undeclaredRolesAreDroppedOnlyWhenAStoreIsConfigured() {
        List<String> declared = List.of("ACME/reviewer", "ACME/admin", "ACME/attachment-read");
        assertEquals(List.of("ACME/reviewer", "ACME/attachment-read"), GRANTS.granted("ACME/alice", declared));
        assertEquals(List.of("ACME/attachment-read"), GRANTS.granted("ACME/bob", declared));
        assertEquals(declared, RoleGrants.NONE.granted("ACME/bob", declared));
    }

    @Test
    void badFilesAreRefusedNamingTheKey() {
        for (String bad : List.of("{}", "{'grants':{}}", "{'grants':[],'x':1}", "{'grants':['r']}",
                "{'grants':[{'role':'reviewer','identities':[]}]}", "{'grants':[{'role':'ACME/','identities':[]}]}",
                "{'grants':[{'role':'ACME/r','identities':['']}]}", "{'grants':[{'role':'ACME/r','identities':[1]}]}",
                "{'grants':[{'role':'ACME/r','identities':'ACME/a'}]}", "{'grants':[{'role':'ACME/r','identities':[],'x':1}]}")) {
            PolicyFileException e = assertThrows(PolicyFileException.class,
                    () -> RoleGrantFile.parse(AclPolicyTest.json(bad)), bad);
            assertEquals(RoleGrantFile.KEY, e.key());
        }
    }
}
