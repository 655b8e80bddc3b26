package org.switchboard.synapse.addressing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.ConnectionRegistry;

class AddressingTest {

    @Test
    void broadcastAndDirectedClassification() {
        assertTrue(Addressing.isBroadcast("all"));
        assertTrue(Addressing.isBroadcast(" "));
        assertTrue(Addressing.isBroadcast(""));
        assertFalse(Addressing.isBroadcast("proj/a"));
        assertTrue(Addressing.isDirectedTarget("proj/alice"));
        assertTrue(Addressing.isDirectedTarget("proj/alice,proj/bob"));
        assertTrue(Addressing.isDirectedTarget("proj"));
        assertTrue(Addressing.isDirectedTarget("proj/ali?e"));
        assertFalse(Addressing.isDirectedTarget("proj/*"));
        assertFalse(Addressing.isDirectedTarget("*"));
        assertFalse(Addressing.isDirectedTarget("all"));
    }

    @Test
    void globsAreCaseSensitiveShellPatterns() {
        assertTrue(Addressing.globMatch("proj/*", "proj/alice"));
        assertFalse(Addressing.globMatch("proj/*", "Proj/alice"));
        assertTrue(Addressing.globMatch("proj/a?ice", "proj/alice"));
        assertTrue(Addressing.globMatch("proj/[ab]lice", "proj/alice"));
        assertFalse(Addressing.globMatch("proj/[!ab]lice", "proj/alice"));
        assertTrue(Addressing.globMatch("proj/[a-c]*", "proj/bob"));
        assertTrue(Addressing.globMatch("*/bob", "x/bob"));
        assertFalse(Addressing.globMatch("proj/alice", "proj/alice2"));
        assertTrue(Addressing.globMatch("a[", "a["), "unclosed class is literal");
    }

    @Test
    void inboxMatchCoversNameProjectRolesAndCommaLists() {
        List<String> roles = List.of("proj/reviewer");
        assertTrue(Addressing.isRecipient("all", "proj/bob", roles));
        assertTrue(Addressing.isRecipient("proj/bob", "proj/bob", roles));
        assertTrue(Addressing.isRecipient(" other/x , proj/bob ", "proj/bob", roles));
        assertTrue(Addressing.isRecipient("proj", "proj/bob", roles));
        assertTrue(Addressing.isRecipient("proj/reviewer", "proj/bob", roles));
        assertTrue(Addressing.isRecipient("proj/*", "proj/bob", List.of()));
        assertFalse(Addressing.isRecipient("proj/alice", "proj/bob", roles));
        assertFalse(Addressing.isRecipient("proj/Bob", "proj/bob", roles));
        assertFalse(Addressing.isRecipient("pro", "proj/bob", roles), "a prefix is not the project");
        assertTrue(Addressing.isRecipient("solo", "solo", List.of()), "a name without / is its own project");
        assertTrue(Addressing.isRecipient("pr?j", "proj/bob", List.of()), "globs match the bare project too");
    }

    @Test
    void wakeMatchExcludesBroadcastsAndBareProjects() {
        List<String> roles = List.of("proj/reviewer");
        assertFalse(Addressing.isDirected("all", "proj/bob", roles));
        assertFalse(Addressing.isDirected("proj", "proj/bob", roles));
        assertTrue(Addressing.isDirected("proj/bob", "proj/bob", roles));
        assertTrue(Addressing.isDirected("proj/reviewer", "proj/bob", roles));
    }

    @Test
    void sidecarsMapToTheirOwner() {
        assertEquals("x/y", ConnectionRegistry.waiterOwner("x/y-rx"));
        assertEquals("x/y", ConnectionRegistry.waiterOwner("x/y-pane-rx"));
        assertEquals("x/y", ConnectionRegistry.waiterOwner("x/y"));
        assertEquals("-rx", ConnectionRegistry.waiterOwner("-rx"));
    }
}
