package org.switchboard.synapse.mailbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReplayGuardTest {

    @Test
    void whicheverClaimsASeqFirstWritesIt() {
        ReplayGuard guard = new ReplayGuard();
        assertTrue(guard.claimLive(7));
        assertFalse(guard.claimForReplay(7), "written live: the replay skips it");
        assertTrue(guard.claimForReplay(8));
        assertFalse(guard.claimLive(8), "replayed: the live write skips it");
    }

    @Test
    void afterTheReplayFinishesItsClaimsStillStopLateLiveWritesAndNothingNewIsRecorded() {
        ReplayGuard guard = new ReplayGuard();
        guard.claimLive(1);
        guard.claimForReplay(2);
        guard.finish(100.0);
        assertEquals(1, guard.size(), "live claims are dropped once no replay can race them");
        assertFalse(guard.claimLive(2), "a live write still on its way after the replay wrote the chat");
        assertTrue(guard.claimLive(3));
        assertTrue(guard.claimLive(3), "after the replay a live seq is only checked, never recorded");
        assertEquals(1, guard.size());
    }

    @Test
    void expiresOnlyAWhileAfterTheReplayFinished() {
        ReplayGuard guard = new ReplayGuard();
        assertFalse(guard.expired(1e12), "a pending replay never expires");
        guard.finish(100.0);
        assertFalse(guard.expired(100.0 + ReplayGuard.KEEP_SECONDS));
        assertTrue(guard.expired(100.0 + ReplayGuard.KEEP_SECONDS + 1));
    }
}
