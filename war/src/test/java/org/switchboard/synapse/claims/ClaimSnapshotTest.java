package org.switchboard.synapse.claims;

import org.junit.jupiter.api.Test;
import org.switchboard.journal.snapshot.SnapshotEquivalence;

/** The claim book's snapshot part: replay all equals replay k, snapshot, restore, replay the rest (issue 20). */
class ClaimSnapshotTest {

    static final double T0 = ClaimBookTest.T0;

    private static String view(ClaimBook book) {
        double later = T0 + 100;
        StringBuilder out = new StringBuilder("epoch=" + book.lastEpoch());
        ClaimReplayTest.projections(book, T0).forEach(p -> out.append('\n').append(p));
        out.append("\nlater:");
        ClaimReplayTest.projections(book, later).forEach(p -> out.append('\n').append(p));
        for (String who : new String[] {"a", "b", "c", "e"}) {
            out.append(' ').append(who).append('=').append(book.chargedTo("open-host:" + who));
        }
        // the scope index comes back too: the same claim is granted or denied on both
        ClaimDecision d = book.claim(ClaimRequest.from(Frames.json("{'task_id':'probe','paths':['LIB/y','src/z']}")), "z", "Z",
                T0 + 10, new ClaimBookTest.Recorder());
        return out.append(" probe=").append(d.granted()).toString();
    }

    @Test
    void restoredClaimBookEqualsFullReplay() {
        ClaimBookTest.Recorder journal = new ClaimBookTest.Recorder();
        ClaimBook live = new ClaimBook();
        ClaimReplayTest.claim(live, journal, "a", "{'task_id':'t1','paths':['src'],'ttl_seconds':600,'git':{'branch':'f'}}", T0);
        ClaimReplayTest.claim(live, journal, "b", "{'task_id':'t2','paths':['docs'],'ttl_seconds':60}", T0);
        ClaimReplayTest.claim(live, journal, "c", "{'task_id':'t4','paths':['lib'],"
                + "'path_identity':{'version':1,'worktree_path':'/w','worktree_object_id':'1:2','filesystem_namespace':'sha256:n',"
                + "'case_sensitive':false,'paths':[{'git_path':'lib','filesystem_path':'lib','object_id':'1:9'}]}}", T0);
        live.taskUpdate(TaskUpdateRequest.from(Frames.json("{'task_id':'t1','status':'working','data_ref':'d1'}")), "a", T0 + 1, journal);
        live.checkpoint(CheckpointRequest.from(Frames.json("{'task_id':'t2','checkpoint':'half'}")), "b", T0 + 2, journal);
        live.handoff(HandoffRequest.from(Frames.json("{'task_id':'t4','to_agent':'d'}")), "c", n -> true, "open-host:d", T0 + 3, journal);
        for (int i = 0; i < 6; i++) {
            ClaimReplayTest.claim(live, journal, "e", "{'task_id':'t5" + i + "','paths':['tmp" + i + "']}", T0 + 4);
            if (i % 2 == 0) {
                live.release(ReleaseRequest.from(Frames.json("{'task_id':'t5" + i + "'}"), "e"), "e", T0 + 5, journal);
            }
        }
        live.release(ReleaseRequest.from(Frames.json("{'task_id':'t1'}"), "a"), "a", T0 + 6, journal);
        SnapshotEquivalence.check(journal.events, 1, ClaimBook::new, ClaimBook::apply, ClaimBook::snapshotPart,
                ClaimSnapshotTest::view);
    }
}
