package org.switchboard.synapse.claims;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.board.ProgressNote;
import org.switchboard.synapse.idempotency.CommitFailedException;
import org.switchboard.synapse.idempotency.HubReply;
import org.switchboard.synapse.idempotency.MutationCommit;
import org.switchboard.synapse.idempotency.RequestDigest;

class ClaimBookTest {

    static final double T0 = 1_767_226_400.0;

    /** Records every committed event, as the journal would, with seqs. */
    static final class Recorder implements MutationCommit {
        final List<JournalEvent> events = new ArrayList<>();

        @Override
        public void commit(org.switchboard.synapse.idempotency.Mutation m) {
            for (JournalEvent.Draft d : m.events()) {
                events.add(new JournalEvent(events.size() + 1, d.kind(), d.payload(), 0));
            }
        }

        List<String> kinds() {
            return events.stream().map(JournalEvent::kind).toList();
        }
    }

    final Recorder journal = new Recorder();
    final List<ProgressNote> notes = new ArrayList<>();
    final ClaimBook book = new ClaimBook(ClaimBook.Limits.defaults(), notes::add);

    ClaimDecision claim(String sender, String frame, double now) {
        return book.claim(ClaimRequest.from(Frames.json(frame)), sender, "open-host:" + sender, now, journal);
    }

    ClaimDecision.Granted grant(String sender, String frame, double now) {
        return assertInstanceOf(ClaimDecision.Granted.class, claim(sender, frame, now));
    }

    ClaimDecision.Denied denial(String sender, String frame, double now) {
        return assertInstanceOf(ClaimDecision.Denied.class, claim(sender, frame, now));
    }

    @Test
    void grantProjectionAndBroadcast() {
        ClaimDecision.Granted g = grant("proj/alice", "{'task_id':' parser-split ','note':' split ','ttl_seconds':1800,"
                + "'paths':['src/parser'],'git':{'branch':'b1'}}", T0);
        TaskClaim c = g.claim();
        assertEquals("parser-split", c.taskId());
        assertEquals("split", c.note());
        assertEquals(T0 + 1800, c.leaseExpiresAt());
        assertEquals(1, c.epoch());
        assertEquals(0, c.version());
        assertEquals("claimed", c.status());
        HubReply reply = g.mutation().response();
        assertEquals("claim_granted", reply.type());
        assertTrue(reply.broadcast());
        assertEquals("Task 'parser-split' claimed by proj/alice.", reply.payload());
        JsonObject f = reply.fields();
        assertEquals(java.util.Set.of("task_id", "owner", "note", "lease_expires_at", "status", "worktree", "paths", "epoch",
                "version", "checkpoint", "git"), f.keySet(), "exactly the §9.3 fields");
        assertEquals("main", f.getJsonObject("git").getString("base"));
        assertEquals("merge", f.getJsonObject("git").getString("auto_release_on"));
        assertFalse(f.containsKey("quota_principal"), "quota principal never on the wire");
        assertFalse(f.containsKey("path_identity"), "only when supplied");
        assertEquals(List.of("claim"), journal.kinds());
        assertTrue(g.mutation().succeeded());
        assertEquals("open-host:proj/alice", journal.events.get(0).payload().getString("quota_principal"));
        JsonObject frame = reply.toFrame("proj/alice", T0, "syn-1");
        assertEquals("all", frame.getString("target"));
        assertEquals("SynapseHub", frame.getString("sender"));
    }

    @Test
    void pathIdentityIsPersistedAndEchoed() {
        String identity = "{'version':1,'worktree_path':'/srv/acme','worktree_object_id':'2049:131074',"
                + "'filesystem_namespace':'sha256:5d41','case_sensitive':false,'paths':[{'git_path':'lib/billing/invoice.go',"
                + "'filesystem_path':'lib/billing/invoice.go','object_id':'2049:5521170','object_scope':''}]}";
        ClaimDecision.Granted g = grant("proj/alice", "{'task_id':'inv','paths':['lib/billing/invoice.go'],'path_identity':"
                + identity + "}", T0);
        assertEquals(Frames.json(identity), g.mutation().response().fields().getJsonObject("path_identity"));
        assertEquals(Frames.json(identity), journal.events.get(0).payload().getJsonObject("path_identity"));
        assertEquals(ClaimBook.SCOPE_CONFLICT, denial("proj/bob", "{'task_id':'x','paths':['LIB/Billing']}", T0).reasonCode(),
                "case-insensitive declaration folds the other claim's paths");
    }

    @Test
    void taskIdFallsBackToPayloadAndTtlIsClampedOrDefaulted() {
        assertEquals("from-payload", grant("a", "{'payload':'from-payload'}", T0).claim().taskId());
        assertEquals(T0 + 30, grant("a", "{'task_id':'t1','ttl_seconds':1}", T0).claim().leaseExpiresAt());
        assertEquals(T0 + 2_592_000, grant("a", "{'task_id':'t2','ttl_seconds':1e12}", T0).claim().leaseExpiresAt());
        assertEquals(T0 + 3600, grant("a", "{'task_id':'t3','ttl_seconds':true}", T0).claim().leaseExpiresAt());
        assertEquals(T0 + 3600, grant("a", "{'task_id':'t4','ttl_seconds':'60'}", T0).claim().leaseExpiresAt());
    }

    @Test
    void reasonTaskIdRequired() {
        ClaimDecision.Denied d = denial("proj/bob", "{'task_id':'   ','paths':['src']}", T0);
        assertEquals(ClaimBook.TASK_ID_REQUIRED, d.reasonCode());
        assertEquals("Task ID is required.", d.sentence());
        HubReply r = d.mutation().response();
        assertEquals("claim_denied", r.type());
        assertFalse(r.broadcast());
        assertEquals("TASK_ID_REQUIRED", r.fields().getString("reason_code"));
        assertEquals(List.of("claim_denial"), journal.kinds());
        assertFalse(d.mutation().succeeded(), "a denial is never recorded for idempotency");
    }

    @Test
    void reasonPathIdentityInvalidBeforeAnyStateChange() {
        grant("proj/alice", "{'task_id':'held','ttl_seconds':30}", T0);
        ClaimDecision.Denied d = denial("proj/bob", "{'task_id':'x','paths':['a'],'path_identity':{'version':2}}", T0 + 100);
        assertEquals(ClaimBook.PATH_IDENTITY_INVALID, d.reasonCode());
        assertNotNull(book.claimOf("held", T0), "invalid identity is refused before expiry runs (no state change)");
        assertEquals(1, book.liveClaims(T0).size());
    }

    @Test
    void reasonLeaseLiveAndTakeoverAfterExpiry() {
        grant("proj/alice", "{'task_id':'parser-split','ttl_seconds':60}", T0);
        ClaimDecision.Denied d = denial("proj/bob", "{'task_id':'parser-split'}", T0 + 59.9);
        assertEquals(ClaimBook.LEASE_LIVE, d.reasonCode());
        assertEquals("Task 'parser-split' is already claimed by proj/alice.", d.sentence());
        ClaimDecision.Granted g = grant("proj/bob", "{'task_id':'parser-split'}", T0 + 60);
        assertEquals("proj/bob", g.claim().owner());
        assertEquals(2, g.claim().epoch());
    }

    @Test
    void reasonScopeConflict() {
        grant("proj/alice", "{'task_id':'A','paths':['src/parser']}", T0);
        ClaimDecision.Denied d = denial("proj/bob", "{'task_id':'B','paths':['docs','src/parser/lexer.py']}", T0);
        assertEquals(ClaimBook.SCOPE_CONFLICT, d.reasonCode());
        assertEquals("Task 'B' file scope conflicts with 'A' held by proj/alice.", d.sentence());
        grant("proj/bob", "{'task_id':'C','paths':['src/parserx']}", T0);
        grant("proj/bob", "{'task_id':'D','worktree':'wt2','paths':['src/parser']}", T0);
        assertEquals(ClaimBook.SCOPE_CONFLICT, denial("proj/bob", "{'task_id':'E'}", T0).reasonCode(), "whole tree vs any");
        grant("proj/alice", "{'task_id':'F','paths':['src/parser/x']}", T0);
    }

    @Test
    void reasonQuotaExceededAndRenewalIsNotCharged() {
        ClaimBook small = new ClaimBook(new ClaimBook.Limits(2, 512, 3600), null);
        MutationCommit none = MutationCommit.NONE;
        assertTrue(small.claim(ClaimRequest.from(Frames.json("{'task_id':'a','paths':['a']}")), "x", "P", T0, none).granted());
        assertTrue(small.claim(ClaimRequest.from(Frames.json("{'task_id':'b','paths':['b']}")), "y", "P", T0, none).granted());
        ClaimDecision d = small.claim(ClaimRequest.from(Frames.json("{'task_id':'c','paths':['c']}")), "x", "P", T0, none);
        assertEquals(ClaimBook.QUOTA_EXCEEDED, ((ClaimDecision.Denied) d).reasonCode());
        assertTrue(small.claim(ClaimRequest.from(Frames.json("{'task_id':'a','paths':['a']}")), "x", "P", T0 + 1, none).granted(),
                "renewal by the same owner on the same principal is not charged again");
        assertEquals(2, small.chargedTo("P"));
        assertTrue(small.claim(ClaimRequest.from(Frames.json("{'task_id':'c','paths':['c']}")), "x", "Q", T0, none).granted());
    }

    @Test
    void reasonClaimDeniedFallback() {
        ClaimDecision.Denied d = book.denyOther(ClaimRequest.from(Frames.json("{'task_id':'t'}")), "proj/bob",
                "Mutation refused.", journal);
        assertEquals(ClaimBook.CLAIM_DENIED, d.reasonCode());
        assertEquals(List.of("claim_denial"), journal.kinds());
    }

    @Test
    void denialEvidenceIsContentMinimised() {
        grant("proj/alice", "{'task_id':'secret-task','paths':['src']}", T0);
        String longName = "proj/" + "b".repeat(300);
        ClaimDecision.Denied d = denial(longName, "{'task_id':'secret-task','note':'private note','worktree':'wt',"
                + "'paths':['src/x','docs'],'git':{'branch':'hidden'}}", T0);
        JsonObject e = d.evidence();
        assertEquals(256, e.getString("claimant").length());
        assertTrue(e.getBoolean("claimant_truncated"));
        assertEquals(RequestDigestTestSupport.sha256(longName), e.getString("claimant_sha256"));
        assertEquals(RequestDigestTestSupport.sha256("secret-task"), e.getString("task_id_sha256"));
        assertEquals(RequestDigestTestSupport.sha256("{\"paths\":[\"src/x\",\"docs\"],\"worktree\":\"wt\"}"),
                e.getString("scope_sha256"));
        assertEquals(2, e.getInt("path_count"));
        assertEquals("deny", e.getString("decision"));
        String text = e.toString();
        for (String leaked : List.of("private note", "hidden", "src/x", "secret-task\"")) {
            assertFalse(text.contains(leaked), leaked);
        }
    }

    @Test
    void renewalGetsNewEpochFreshLeaseAndResetsStatusButKeepsCheckpoint() {
        TaskClaim first = grant("a", "{'task_id':'t','ttl_seconds':100}", T0).claim();
        book.checkpoint(CheckpointRequest.from(Frames.json("{'task_id':'t','checkpoint':'step=2'}")), "a", T0 + 1, journal);
        book.taskUpdate(TaskUpdateRequest.from(Frames.json("{'task_id':'t','status':'working','data_ref':'r'}")), "a", T0 + 2, journal);
        ClaimDecision.Granted renewed = grant("a", "{'task_id':'t','ttl_seconds':100}", T0 + 50);
        assertTrue(renewed.renewal());
        assertTrue(renewed.claim().epoch() > first.epoch());
        assertEquals(T0 + 150, renewed.claim().leaseExpiresAt());
        assertEquals("claimed", renewed.claim().status());
        assertEquals("", renewed.claim().dataRef());
        assertEquals(0, renewed.claim().version());
        assertEquals("step=2", renewed.claim().checkpoint());
    }

    @Test
    void expiryRetainsCheckpointForNextClaimantAndIsSilent() {
        grant("a", "{'task_id':'t','ttl_seconds':30}", T0);
        book.checkpoint(CheckpointRequest.from(Frames.json("{'task_id':'t','payload':'cp-1'}")), "a", T0 + 1, journal);
        int eventsBefore = journal.events.size();
        assertEquals(List.of(), book.expire(T0 + 29.99));
        List<TaskClaim> expired = book.expire(T0 + 30);
        assertEquals(1, expired.size());
        assertEquals(eventsBefore, journal.events.size(), "expiry is not journalled");
        assertNull(book.claimOf("t", T0 + 30));
        assertEquals("cp-1", book.retainedCheckpoint("t"));
        assertEquals("cp-1", grant("b", "{'task_id':'t'}", T0 + 31).claim().checkpoint());
        assertEquals("", book.retainedCheckpoint("t"), "consumed");
    }

    @Test
    void lazyExpiryOnMutationFreesScope() {
        grant("a", "{'task_id':'t','ttl_seconds':30,'paths':['src']}", T0);
        assertEquals(ClaimBook.SCOPE_CONFLICT, denial("b", "{'task_id':'u','paths':['src']}", T0 + 29).reasonCode());
        grant("b", "{'task_id':'u','paths':['src']}", T0 + 30);
    }

    @Test
    void releaseRefusalsAndKeyedVerdicts() {
        grant("proj/alice", "{'task_id':'t'}", T0);
        long epoch = book.claimOf("t", T0).epoch();
        assertEquals("Task ID is required.", release("x", "{'task_id':''}").sentence());
        assertEquals("Task 'nope' is not currently claimed.", release("x", "{'task_id':'nope'}").sentence());
        assertEquals("Task 't' is owned by proj/alice, not proj/bob.", release("proj/bob", "{'task_id':'t'}").sentence());
        ClaimVerdict stale = release("proj/alice", "{'task_id':'t','epoch':" + (epoch + 7) + ",'idem_key':'k1'}");
        assertEquals("Task 't' epoch is stale (current " + epoch + ").", stale.sentence());
        HubReply denied = stale.mutation().response();
        assertEquals("release_denied", denied.type());
        assertFalse(denied.broadcast());
        assertEquals("k1", denied.fields().getString("release_operation_id"));
        assertEquals(64, denied.fields().getString("request_digest").length());
        assertTrue(stale.mutation().events().isEmpty(), "release refusals are not journalled");

        String frame = "{'sender':'spoofed','type':'release','task_id':'t','epoch':" + epoch + ",'idem_key':'k2',"
                + "'timestamp':1.5,'token':'secret','evidence':'pytest -q: 212 passed','changed_files':['src/a.py'],"
                + "'freshness_seconds':120}";
        ClaimVerdict ok = release("proj/alice", frame);
        assertTrue(ok.accepted());
        HubReply granted = ok.mutation().response();
        assertEquals("release_granted", granted.type());
        assertTrue(granted.broadcast());
        assertEquals("Task 't' released by proj/alice.", granted.payload());
        assertEquals("k2", granted.fields().getString("release_operation_id"));
        String expectedDigest = RequestDigest.of(Frames.json(frame), "proj/alice", "release");
        assertEquals(expectedDigest, granted.fields().getString("request_digest"));
        JsonObject receipt = granted.fields().getJsonObject("receipt");
        assertTrue(receipt.getBoolean("released"));
        assertEquals("unverified", receipt.getString("epistemic_status"));
        assertEquals(List.of("positive evidence present", "fresh evidence present but unverified"),
                receipt.getJsonArray("epistemic_reasons").getValuesAs(jakarta.json.JsonString.class).stream()
                        .map(jakarta.json.JsonString::getString).toList());
        assertEquals(120.0, receipt.getJsonNumber("freshness_seconds").doubleValue());
        assertEquals(List.of("release", "ledger_progress"), ok.mutation().events().stream().map(JournalEvent.Draft::kind).toList());
        assertEquals("ledger_progress_posted", ok.mutation().replies().get(1).type());
        assertEquals("Release receipt from proj/alice", ok.mutation().replies().get(1).payload());
        assertEquals(1, notes.size());
        assertEquals("assessment", notes.get(0).kind());
        assertTrue(notes.get(0).text().startsWith("release receipt: evidence=pytest -q: 212 passed; changed_files=src/a.py; "));
        assertTrue(notes.get(0).text().endsWith("epistemic_status=unverified; epistemic_reasons=positive evidence present, fresh evidence present but unverified"));
        assertNull(book.claimOf("t", T0));
    }

    @Test
    void releaseWithoutEvidencePostsNoNoteAndDropsRetainedCheckpoint() {
        grant("a", "{'task_id':'t'}", T0);
        book.checkpoint(CheckpointRequest.from(Frames.json("{'task_id':'t','checkpoint':'c'}")), "a", T0, journal);
        ClaimVerdict v = release("a", "{'task_id':'t'}");
        assertEquals(List.of("release"), v.mutation().events().stream().map(JournalEvent.Draft::kind).toList());
        assertTrue(notes.isEmpty());
        assertFalse(v.mutation().response().fields().containsKey("release_operation_id"), "unkeyed");
        assertEquals("unsupported", v.mutation().response().fields().getJsonObject("receipt").getString("epistemic_status"));
        assertEquals("", grant("b", "{'task_id':'t'}", T0).claim().checkpoint(), "checkpoint dropped on release");
    }

    @Test
    void receiptGrading() {
        assertEquals("degraded", ReleaseReceipt.from(Frames.json("{'known_failures':'flaky','evidence':['x'],'freshness_seconds':1}")).epistemicStatus());
        assertEquals("unsupported", ReleaseReceipt.from(Frames.json("{'confidence':'high'}")).epistemicStatus());
        assertEquals("needs_freshness", ReleaseReceipt.from(Frames.json("{'approvals':['lead']}")).epistemicStatus());
        assertEquals("stale", ReleaseReceipt.from(Frames.json("{'artifacts':['a'],'freshness_seconds':3601}")).epistemicStatus());
        assertEquals("unverified", ReleaseReceipt.from(Frames.json("{'artifacts':['a'],'freshness_seconds':-5}")).epistemicStatus());
        ReleaseReceipt clamped = ReleaseReceipt.from(Frames.json("{'evidence':['', 3, '" + "x".repeat(600) + "']}"));
        assertEquals(List.of("x".repeat(500)), clamped.lists().get("evidence"));
    }

    ClaimVerdict release(String sender, String frame) {
        return book.release(ReleaseRequest.from(Frames.json(frame), sender), sender, T0, journal);
    }

    @Test
    void taskUpdateRules() {
        grant("a", "{'task_id':'t'}", T0);
        long epoch = book.claimOf("t", T0).epoch();
        assertEquals("Task 'x' not found.", update("a", "{'task_id':'x','status':'working'}").sentence());
        assertEquals("Task 't' is owned by a, not b.", update("b", "{'task_id':'t'}").sentence());
        assertEquals("Task 't' epoch is stale (current " + epoch + ").", update("a", "{'task_id':'t','epoch':99}").sentence());
        assertEquals("Malformed frame: 'expected_version' must be an integer.",
                update("a", "{'task_id':'t','expected_version':true}").sentence());
        assertEquals("Task 't' version conflict (current 0).", update("a", "{'task_id':'t','expected_version':3}").sentence());
        assertEquals("Unknown task status 'paused'.", update("a", "{'task_id':'t','status':'paused'}").sentence());
        assertEquals("Task 't' cannot move from 'claimed' to 'input_required'.",
                update("a", "{'id':'t','status':'input_required'}").sentence());
        ClaimVerdict ok = update("a", "{'id':'t','status':'working','data_ref':'s3://x','expected_version':0,'epoch':" + epoch + "}");
        assertTrue(ok.accepted());
        assertEquals(1, ok.claim().version());
        HubReply r = ok.mutation().response();
        assertEquals("task_updated", r.type());
        assertTrue(r.broadcast());
        assertEquals("working", r.fields().getString("status"));
        assertEquals("s3://x", r.fields().getString("data_ref"));
        assertEquals(1, r.fields().getInt("version"));
        assertEquals("task_update", ok.mutation().events().get(0).kind());
        assertTrue(update("a", "{'task_id':'t','status':'working'}").accepted(), "re-affirming is allowed");
        assertTrue(update("a", "{'task_id':'t','status':'input_required'}").accepted());
        assertTrue(update("a", "{'task_id':'t','status':'done'}").accepted());
        assertEquals("Task 't' cannot move from 'done' to 'working'.", update("a", "{'task_id':'t','status':'working'}").sentence());
        assertEquals(4, book.claimOf("t", T0).version());
        ClaimVerdict refused = update("a", "{'task_id':'t','status':'failed'}");
        assertEquals("error", refused.mutation().response().type());
        assertFalse(refused.mutation().response().broadcast());
    }

    ClaimVerdict update(String sender, String frame) {
        return book.taskUpdate(TaskUpdateRequest.from(Frames.json(frame)), sender, T0, journal);
    }

    @Test
    void handoffIsAtomicAndKeepsWorkState() {
        grant("proj/alice", "{'task_id':'t','paths':['src/parser'],'note':'orig'}", T0);
        book.taskUpdate(TaskUpdateRequest.from(Frames.json("{'task_id':'t','status':'working','data_ref':'d'}")), "proj/alice", T0, journal);
        book.checkpoint(CheckpointRequest.from(Frames.json("{'task_id':'t','checkpoint':'step=2'}")), "proj/alice", T0, journal);
        grant("proj/carol", "{'task_id':'other','paths':['docs']}", T0);
        List<String> online = List.of("proj/alice", "proj/bob", "proj/carol");
        assertEquals("Handoff target 'ghost' is not online.", handoff("proj/alice", "{'task_id':'t','to_agent':'ghost'}", online).sentence());
        // no to_agent: the spec's fallback is target; with neither, the empty name is not online
        assertEquals("Handoff target 'System' is not online.", handoff("proj/alice", "{'task_id':'t','target':'System'}", online).sentence());
        assertEquals("Handoff target '' is not online.", handoff("proj/alice", "{'task_id':'t'}", online).sentence());
        assertEquals("Handoff target '' is not online.", handoff("proj/alice", "{'task_id':'t','to_agent':'  '}", online).sentence());
        assertEquals("handoff_denied", handoff("proj/alice", "{'task_id':'t'}", online).mutation().replies().get(0).type());
        assertEquals("Task 't' is owned by proj/alice, not proj/carol.", handoff("proj/carol", "{'task_id':'t','to_agent':'proj/bob'}", online).sentence());
        assertFalse(handoff("proj/alice", "{'task_id':'t','to_agent':'proj/alice'}", online).accepted());
        assertFalse(handoff("proj/alice", "{'task_id':'t','to_agent':'proj/bob','epoch':999}", online).accepted());
        long epochBefore = book.lastEpoch();
        ClaimVerdict v = handoff("proj/alice", "{'task_id':'t','to_agent':'proj/bob','note':'tests pending'}", online);
        assertTrue(v.accepted(), v.sentence());
        TaskClaim moved = v.claim();
        assertEquals("proj/bob", moved.owner());
        assertEquals(epochBefore + 1, moved.epoch());
        assertEquals(0, moved.version());
        assertEquals("working", moved.status());
        assertEquals("d", moved.dataRef());
        assertEquals("step=2", moved.checkpoint());
        assertEquals("tests pending", moved.note());
        assertEquals(T0 + 3600, moved.leaseExpiresAt());
        assertEquals("open-host:proj/alice", moved.quotaPrincipal(), "still charged to the giver");
        HubReply granted = v.mutation().response();
        assertEquals("handoff_granted", granted.type());
        assertEquals("proj/alice", granted.fields().getString("previous_owner"));
        assertEquals(java.util.Set.of("task_id", "owner", "previous_owner", "note", "status", "worktree", "paths", "epoch",
                "version", "lease_expires_at", "checkpoint"), granted.fields().keySet(), "the §9.9 example fields");
        assertEquals("Task 't' handed from proj/alice to proj/bob.", granted.payload());
        assertEquals(List.of("handoff", "ledger_progress"), v.mutation().events().stream().map(JournalEvent.Draft::kind).toList());
        assertEquals("handed off to proj/bob: tests pending", notes.get(0).text());
        assertEquals("proj/alice", notes.get(0).author());
        assertEquals("Progress from proj/alice", v.mutation().replies().get(1).payload());
        assertEquals("proj/bob", book.claimOf("t", T0).owner());
    }

    @Test
    void handoffRefusedWhenMovedScopeConflictsWithSomeoneElse() {
        grant("a", "{'task_id':'t','paths':['src']}", T0);
        grant("a", "{'task_id':'u','paths':['src/x']}", T0);
        ClaimVerdict v = handoff("a", "{'task_id':'t','to_agent':'b'}", List.of("a", "b"));
        assertEquals("Task 't' file scope conflicts with 'u' held by a.", v.sentence(),
                "the giver's own overlapping claim would conflict with the recipient");
        assertEquals("handoff_denied", v.mutation().response().type());
        assertEquals("a", book.claimOf("t", T0).owner(), "nothing moved");
    }

    ClaimVerdict handoff(String sender, String frame, List<String> online) {
        return book.handoff(HandoffRequest.from(Frames.json(frame)), sender, online::contains, "open-host:" + Frames.json(frame).getString("to_agent", ""),
                T0, journal);
    }

    @Test
    void checkpointRules() {
        grant("a", "{'task_id':'t'}", T0);
        ClaimVerdict ok = book.checkpoint(CheckpointRequest.from(Frames.json("{'task_id':'t','checkpoint':'cp'}")), "a", T0, journal);
        assertEquals("checkpoint_saved", ok.mutation().response().type());
        assertFalse(ok.mutation().response().broadcast());
        assertEquals(1, ok.mutation().response().fields().getInt("version"));
        assertEquals("checkpoint", ok.mutation().events().get(0).kind());
        ClaimVerdict denied = book.checkpoint(CheckpointRequest.from(Frames.json("{'task_id':'t','checkpoint':'cp'}")), "b", T0, journal);
        assertEquals("checkpoint_denied", denied.mutation().response().type());
        assertEquals("t", denied.mutation().response().fields().getString("task_id"));
    }

    @Test
    void waitRequestsAndDeadlockRefusal() {
        grant("a", "{'task_id':'A','paths':['a']}", T0);
        grant("b", "{'task_id':'B','paths':['b']}", T0);
        grant("c", "{'task_id':'C','paths':['c']}", T0);
        assertEquals("Task 'Z' is not claimed; nothing to wait for.", waitFor("a", "Z").sentence());
        assertEquals("You already hold 'A'.", waitFor("a", "A").sentence());
        ClaimVerdict ab = waitFor("a", "B");
        assertTrue(ab.accepted());
        assertEquals("wait_granted", ab.mutation().response().type());
        assertEquals("b", ab.mutation().response().fields().getString("holder"));
        assertTrue(waitFor("b", "C").accepted());
        ClaimVerdict cycle = waitFor("c", "A");
        assertFalse(cycle.accepted());
        assertEquals("Waiting for 'A' held by a would deadlock.", cycle.sentence());
        assertEquals("wait_denied", cycle.mutation().response().type());
        assertEquals("a", cycle.mutation().response().fields().getString("holder"));
        // breaking the chain (b's task C is released → b's edge to C disappears) makes the wait legal
        book.release(ReleaseRequest.from(Frames.json("{'task_id':'C'}"), "c"), "c", T0, journal);
        assertEquals(List.of(), book.waitsOf("b"));
        assertEquals("Task 'C' is not claimed; nothing to wait for.", waitFor("c", "C").sentence());
        grant("c", "{'task_id':'C2','paths':['c2']}", T0);
        assertTrue(waitFor("b", "C2").accepted());
        assertFalse(waitFor("c", "A").accepted(), "a→B(b)→C2(c) closes again");
        book.disconnected("b");
        assertTrue(waitFor("c", "A").accepted(), "disconnect removes b's edges");
        // claiming the awaited task clears the waiter's edge
        assertEquals(List.of("B"), book.waitsOf("a"));
        book.release(ReleaseRequest.from(Frames.json("{'task_id':'B'}"), "b"), "b", T0, journal);
        assertEquals(List.of(), book.waitsOf("a"));
    }

    ClaimVerdict waitFor(String sender, String task) {
        return book.waitFor(WaitRequest.from(Frames.json("{'task_id':'" + task + "'}")), sender, T0);
    }

    @Test
    void failedCommitLeavesStateUnchanged() {
        MutationCommit failing = m -> {
            throw new java.io.IOException("disk full");
        };
        assertThrows(CommitFailedException.class,
                () -> book.claim(ClaimRequest.from(Frames.json("{'task_id':'t'}")), "a", "P", T0, failing));
        assertNull(book.claimOf("t", T0));
        assertEquals(0, book.lastEpoch());
        assertEquals(0, book.chargedTo("P"));
        grant("a", "{'task_id':'t'}", T0);
        assertThrows(CommitFailedException.class,
                () -> book.release(ReleaseRequest.from(Frames.json("{'task_id':'t'}"), "a"), "a", T0, failing));
        assertNotNull(book.claimOf("t", T0));
    }

    @Test
    void epochsStrictlyIncreaseAcrossTasks() {
        long last = 0;
        for (int i = 0; i < 5; i++) {
            long e = grant("a", "{'task_id':'t" + i + "','paths':['p" + i + "']}", T0).claim().epoch();
            assertTrue(e > last);
            last = e;
        }
    }
}
