package org.switchboard.synapse.claims;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;

/** Rebuilding a book from its journal events reproduces the live state. */
class ClaimReplayTest {

    static final double T0 = ClaimBookTest.T0;

    @Test
    void replayReproducesClaimsEpochsQuotasAndLeaseDeadlines() {
        ClaimBookTest.Recorder journal = new ClaimBookTest.Recorder();
        ClaimBook live = new ClaimBook();
        claim(live, journal, "a", "{'task_id':'t1','paths':['src'],'ttl_seconds':600,'git':{'branch':'f'}}", T0);
        claim(live, journal, "b", "{'task_id':'t2','paths':['docs'],'ttl_seconds':60}", T0);
        claim(live, journal, "b", "{'task_id':'t3','paths':['src/x']}", T0); // denied: evidence only
        claim(live, journal, "c", "{'task_id':'t4','paths':['lib'],"
                + "'path_identity':{'version':1,'worktree_path':'/w','worktree_object_id':'1:2','filesystem_namespace':'sha256:n',"
                + "'case_sensitive':false,'paths':[{'git_path':'lib','filesystem_path':'lib','object_id':'1:9'}]}}", T0);
        live.taskUpdate(TaskUpdateRequest.from(Frames.json("{'task_id':'t1','status':'working','data_ref':'d1'}")), "a", T0 + 1, journal);
        live.checkpoint(CheckpointRequest.from(Frames.json("{'task_id':'t2','checkpoint':'half'}")), "b", T0 + 2, journal);
        live.handoff(HandoffRequest.from(Frames.json("{'task_id':'t4','to_agent':'d'}")), "c", n -> true, "open-host:d", T0 + 3, journal);
        claim(live, journal, "e", "{'task_id':'t5','paths':['tmp']}", T0 + 4);
        live.release(ReleaseRequest.from(Frames.json("{'task_id':'t5'}"), "e"), "e", T0 + 5, journal);
        assertTrue(journal.kinds().contains("claim_denial"));

        double later = T0 + 100; // t2's 60 s lease has expired by now
        live.expire(later);
        ClaimBook rebuilt = new ClaimBook();
        for (JournalEvent e : journal.events) {
            rebuilt.apply(e);
        }
        rebuilt.expire(later);

        assertEquals(projections(live, later), projections(rebuilt, later));
        assertEquals(live.lastEpoch(), rebuilt.lastEpoch());
        assertEquals(live.chargedTo("open-host:a"), rebuilt.chargedTo("open-host:a"));
        assertEquals(1, rebuilt.chargedTo("open-host:c"), "handoff stays charged to the giver's principal");
        assertEquals("half", rebuilt.retainedCheckpoint("t2"), "expired lease's checkpoint retained after replay");
        assertNull(rebuilt.claimOf("t5", later));
        TaskClaim t1 = rebuilt.claimOf("t1", later);
        assertEquals(T0 + 600, t1.leaseExpiresAt(), "deadline comes from the stored expiry, not replay time");
        assertEquals(500.0, t1.remainingAt(later), 1e-9);
        assertEquals("working", t1.status());
        assertEquals(1, t1.version());
        assertTrue(rebuilt.claimOf("t4", later).scope().pathIdentity() != null, "path identity survives replay");

        // the rebuilt book enforces the same rules
        ClaimDecision d = rebuilt.claim(ClaimRequest.from(Frames.json("{'task_id':'t9','paths':['LIB/y']}")), "z", "Z", later,
                journal);
        assertEquals(ClaimBook.SCOPE_CONFLICT, ((ClaimDecision.Denied) d).reasonCode(), "case-insensitive identity replayed");
        ClaimDecision g = rebuilt.claim(ClaimRequest.from(Frames.json("{'task_id':'t10'}")), "z", "Z", T0 + 601 + 3600, journal);
        assertTrue(g.granted(), "everything has expired by then");
        assertTrue(((ClaimDecision.Granted) g).claim().epoch() > live.lastEpoch(), "epoch counter restored from max epoch");
    }

    static void claim(ClaimBook book, ClaimBookTest.Recorder journal, String sender, String frame, double now) {
        book.claim(ClaimRequest.from(Frames.json(frame)), sender, "open-host:" + sender, now, journal);
    }

    static List<String> projections(ClaimBook book, double now) {
        return book.liveClaims(now).stream().map(c -> c.snapshot().toString()).toList();
    }
}
