package org.switchboard.synapse.chat;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrivateDirectedVisibilityTest {

    @Test
    void withPrivateModeOffEveryChatIsVisibleAndNoFilterIsBuilt() {
        assertTrue(PrivateDirectedVisibility.visible(false, "alice", "bob", "carol", List.of()));
        assertFalse(PrivateDirectedVisibility.restricted(false, "alice"));
        assertNull(PrivateDirectedVisibility.filterFor(false, "carol", List.of()));
    }

    @Test
    void broadcastsStayVisibleToEveryone() {
        assertTrue(PrivateDirectedVisibility.visible(true, "all", "bob", "carol", List.of()));
        assertTrue(PrivateDirectedVisibility.visible(true, null, "bob", "carol", List.of()));
        assertTrue(PrivateDirectedVisibility.visible(true, "", "bob", "carol", List.of()));
    }

    @Test
    void aDirectedChatIsSeenBySenderAndRecipientsOnly() {
        assertTrue(PrivateDirectedVisibility.visible(true, "alice", "bob", "alice", List.of()));
        assertTrue(PrivateDirectedVisibility.visible(true, "alice", "bob", "bob", List.of()));
        assertFalse(PrivateDirectedVisibility.visible(true, "alice", "bob", "carol", List.of()));
    }

    @Test
    void aRoleTargetIsSeenByHoldersOfTheRole() {
        assertTrue(PrivateDirectedVisibility.visible(true, "reviewer", "bob", "carol", List.of("reviewer")));
        assertFalse(PrivateDirectedVisibility.visible(true, "reviewer", "bob", "carol", List.of("builder")));
    }

    @Test
    void aSidecarSeesWhatItsOwnerSeesAndSent() {
        assertTrue(PrivateDirectedVisibility.visible(true, "alice", "bob", "alice-rx", List.of()));
        assertTrue(PrivateDirectedVisibility.visible(true, "carol", "alice", "alice-rx", List.of()));
        assertFalse(PrivateDirectedVisibility.visible(true, "carol", "bob", "alice-rx", List.of()));
    }

    @Test
    void theFilterReadsTargetAndSenderFromStoredFrames() {
        var filter = PrivateDirectedVisibility.filterFor(true, "carol", List.of());
        assertTrue(filter.test(Json.createObjectBuilder().add("target", "carol").add("sender", "bob").build()));
        assertFalse(filter.test(Json.createObjectBuilder().add("target", "alice").add("sender", "bob").build()));
        assertTrue(filter.test(Json.createObjectBuilder().add("target", "all").add("sender", "bob").build()));
    }
}
