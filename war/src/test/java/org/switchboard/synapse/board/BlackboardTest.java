package org.switchboard.synapse.board;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.idempotency.HubReply;
import org.switchboard.synapse.idempotency.MutationCommit;

class BlackboardTest {

    static final double T0 = 1_767_227_200.0;
    static final String FP = "a".repeat(64);

    final List<JournalEvent> journal = new ArrayList<>();
    final MutationCommit commit = m -> m.events().forEach(d -> journal.add(new JournalEvent(journal.size() + 1, d.kind(), d.payload(), 0)));
    final Blackboard board = new Blackboard();

    static JsonObject json(String singleQuoted) {
        try (JsonReader r = Json.createReader(new StringReader(singleQuoted.replace('\'', '"')))) {
            return r.readObject();
        }
    }

    BoardVerdict declare(String sender, String frame) {
        return board.declare(LedgerTaskRequest.from(json(frame)), sender, T0, commit);
    }

    BoardVerdict update(String frame) {
        return board.update(LedgerTaskUpdateRequest.from(json(frame)), "proj/lead", T0 + 1, commit);
    }

    @Test
    void declareProjectionAndBroadcast() {
        BoardVerdict v = declare("proj/lead", "{'task_id':'T-7','title':' Split tokenizer ','depends_on':[' T-3 ','T-3','T-7',''],"
                + "'suggested_owner':'proj/alice','project':'proj'}");
        assertTrue(v.accepted());
        LedgerTask t = v.task();
        assertEquals(List.of("T-3"), t.dependsOn(), "trimmed, de-duplicated, self-reference dropped");
        assertEquals("open", t.status());
        assertEquals(1, t.version());
        assertEquals("proj/lead", t.createdBy());
        HubReply r = v.mutation().response();
        assertEquals("ledger_task_posted", r.type());
        assertTrue(r.broadcast());
        assertEquals("Task 'T-7' declared by proj/lead.", r.payload());
        assertEquals("Split tokenizer", r.fields().getJsonObject("task").getString("title"));
        assertEquals("ledger_task", journal.get(0).kind());
    }

    @Test
    void refusalSentences() {
        assertEquals("Task ID is required.", declare("a", "{'title':'x'}").sentence());
        assertEquals("Task 'T' requires a title.", declare("a", "{'task_id':'T'}").sentence());
        assertEquals("Malformed frame: 'expected_version' must be an integer.",
                declare("a", "{'task_id':'T','title':'x','expected_version':true}").sentence());
        assertEquals("Malformed frame: 'expected_version' must be an integer.",
                declare("a", "{'task_id':'T','title':'x','expected_version':1.5}").sentence());
        assertEquals("Task 'T' version conflict: expected v2, board has v0.",
                declare("a", "{'task_id':'T','title':'x','expected_version':2}").sentence());
        assertTrue(declare("a", "{'task_id':'A','title':'a','depends_on':['B']}").accepted());
        assertTrue(declare("a", "{'task_id':'B','title':'b','depends_on':['C']}").accepted());
        assertEquals("Task 'C' dependencies would form a cycle.", declare("a", "{'task_id':'C','title':'c','depends_on':['A']}").sentence());
        assertEquals("Task 'Z' is not on the board.", update("{'task_id':'Z','status':'done'}").sentence());
        assertEquals("Unknown ledger status 'paused'.", update("{'task_id':'A','status':'paused'}").sentence());
        assertEquals("Unknown progress kind 'gossip'.", board.progress(LedgerProgressRequest.from(json("{'kind':'gossip','text':'x'}")), "a", T0, commit).sentence());
        BoardVerdict refused = declare("a", "{'task_id':'T','title':'x','expected_version':2}");
        assertEquals("error", refused.mutation().response().type());
        assertFalse(refused.mutation().response().broadcast());
        assertTrue(refused.mutation().events().isEmpty());
        assertEquals(2, journal.size(), "refusals journal nothing");
    }

    @Test
    void casAndMonotonicVersions() {
        assertTrue(declare("a", "{'task_id':'T','title':'x','expected_version':0}").accepted(), "missing task = v0");
        assertEquals("Task 'T' version conflict: expected v0, board has v1.",
                declare("b", "{'task_id':'T','title':'y','expected_version':0}").sentence());
        BoardVerdict redeclare = declare("b", "{'task_id':'T','title':'y','expected_version':1,'description':'d'}");
        assertEquals(2, redeclare.task().version());
        assertEquals("a", redeclare.task().createdBy(), "first declarer kept");
        BoardVerdict up = update("{'task_id':'T','status':'in_progress','expected_version':2}");
        assertEquals(3, up.task().version());
        assertEquals("ledger_task_updated", up.mutation().response().type());
        assertEquals("Task 'T' version conflict: expected v2, board has v3.", update("{'task_id':'T','status':'done','expected_version':2}").sentence());
        assertEquals(4, update("{'task_id':'T'}").task().version(), "unconditional without expected_version");
        assertEquals("in_progress", declare("c", "{'task_id':'T','title':'z'}").task().status(), "re-declare keeps status");
    }

    @Test
    void projectScope() {
        declare("a", "{'task_id':'T','title':'x','project':'proj'}");
        assertEquals("Task 'T' belongs to project 'proj'.", declare("a", "{'task_id':'T','title':'x','project':'other'}").sentence());
        assertEquals("proj", declare("a", "{'task_id':'T','title':'x'}").task().project(), "empty project keeps scope");
        assertEquals("proj", declare("a", "{'task_id':'T','title':'x','project':'proj'}").task().project());
        assertEquals("other", update("{'task_id':'T','project':'other'}").task().project(), "update re-scopes");
        assertEquals("", update("{'task_id':'T','project':''}").task().project(), "update clears");
        assertEquals("x", update("{'task_id':'T','suggested_owner':'x'}").task().suggestedOwner());
        assertEquals("", update("{'task_id':'T','suggested_owner':''}").task().suggestedOwner());
    }

    @Test
    void causalParentValidation() {
        String ok = "{'hub_id':'syn-1','seq':12,'event_fingerprint':'" + FP + "'}";
        BoardVerdict v = declare("a", "{'task_id':'T','title':'x','causal_parent':" + ok + "}");
        assertTrue(v.accepted());
        assertFalse(v.mutation().response().fields().getJsonObject("task").containsKey("causal_parent"), "never inside task");
        assertEquals(12, journal.get(0).payload().getJsonObject("causal_parent").getInt("seq"), "journalled beside the task");
        assertEquals("Malformed frame: causal_parent must be an object", declare("a", "{'task_id':'T','title':'x','causal_parent':'x'}").sentence());
        assertEquals("Malformed frame: causal_parent has unexpected fields",
                declare("a", "{'task_id':'T','title':'x','causal_parent':{'hub_id':'h','seq':1,'event_fingerprint':'" + FP + "','x':1}}").sentence());
        assertEquals("Malformed frame: causal_parent.hub_id is invalid",
                declare("a", "{'task_id':'T','title':'x','causal_parent':{'hub_id':'','seq':1,'event_fingerprint':'" + FP + "'}}").sentence());
        assertEquals("Malformed frame: causal_parent.seq must be a positive integer",
                declare("a", "{'task_id':'T','title':'x','causal_parent':{'hub_id':'h','seq':true,'event_fingerprint':'" + FP + "'}}").sentence());
        assertEquals("Malformed frame: causal_parent.seq must be a positive integer",
                update("{'task_id':'T','causal_parent':{'hub_id':'h','seq':0,'event_fingerprint':'" + FP + "'}}").sentence());
        assertEquals("Malformed frame: causal_parent.event_fingerprint must be 64 lowercase hex digits",
                update("{'task_id':'T','causal_parent':{'hub_id':'h','seq':1,'event_fingerprint':'" + FP.toUpperCase() + "'}}").sentence());
        assertEquals(1, board.task("T").version(), "nothing changed");
    }

    @Test
    void journalFailureRollsBack() {
        MutationCommit failing = m -> {
            throw new IllegalStateException("db down");
        };
        BoardVerdict v = board.declare(LedgerTaskRequest.from(json("{'task_id':'T','title':'x'}")), "a", T0, failing);
        assertFalse(v.accepted());
        assertEquals("Task 'T' was not journalled; mutation rolled back.", v.sentence());
        assertNotNull(v.failure());
        assertFalse(v.mutation().response().payload().contains("db down"), "storage details never sent");
        assertNull(board.task("T"));
        BoardVerdict p = board.progress(LedgerProgressRequest.from(json("{'text':'hi'}")), "a", T0, failing);
        assertEquals("Progress note was not journalled; mutation rolled back.", p.sentence());
        assertTrue(board.notes().isEmpty());
    }

    @Test
    void progressNotesAndReadiness() {
        BoardVerdict p = board.progress(LedgerProgressRequest.from(json("{'task_id':'T','payload':'halfway'}")), "proj/alice", T0, commit);
        assertEquals("note", p.note().kind());
        assertEquals("halfway", p.note().text());
        assertEquals("Progress from proj/alice", p.mutation().response().payload());
        assertEquals("ledger_progress_posted", p.mutation().response().type());
        declare("a", "{'task_id':'A','title':'a'}");
        declare("a", "{'task_id':'B','title':'b','depends_on':['A']}");
        declare("a", "{'task_id':'C','title':'c','depends_on':['missing']}");
        assertEquals(List.of("A"), board.readyIds(), "missing dependency blocks");
        update("{'task_id':'A','status':'cancelled'}");
        assertEquals(List.of("B"), board.readyIds());
        JsonObject snap = board.snapshot();
        assertEquals("[\"B\"]", snap.getJsonArray("ready").toString());
        assertEquals(3, snap.getJsonArray("tasks").size());
        assertEquals("A", snap.getJsonArray("tasks").getJsonObject(0).getString("task_id"));
        assertEquals(1, snap.getJsonArray("progress").size());
        assertFalse(snap.containsKey("truncated"), "no cap configured");
    }

    @Test
    void snapshotCapKeepsLiveNewestThenSortsById() {
        Blackboard capped = new Blackboard(new Blackboard.Limits(5000, 1000, 1000, 2));
        capped.declare(LedgerTaskRequest.from(json("{'task_id':'a','title':'x'}")), "s", 1, MutationCommit.NONE);
        capped.declare(LedgerTaskRequest.from(json("{'task_id':'b','title':'x'}")), "s", 2, MutationCommit.NONE);
        capped.declare(LedgerTaskRequest.from(json("{'task_id':'c','title':'x'}")), "s", 3, MutationCommit.NONE);
        capped.declare(LedgerTaskRequest.from(json("{'task_id':'d','title':'x'}")), "s", 4, MutationCommit.NONE);
        capped.update(LedgerTaskUpdateRequest.from(json("{'task_id':'d','status':'done'}")), "s", 5, MutationCommit.NONE);
        JsonObject snap = capped.snapshot();
        assertEquals(4, snap.getInt("total_tasks"));
        assertTrue(snap.getBoolean("truncated"));
        assertEquals(2, snap.getInt("task_cap"));
        assertEquals("b", snap.getJsonArray("tasks").getJsonObject(0).getString("task_id"));
        assertEquals("c", snap.getJsonArray("tasks").getJsonObject(1).getString("task_id"));
        assertEquals("[\"a\",\"b\",\"c\"]", snap.getJsonArray("ready").toString(), "ready is never truncated");
    }

    @Test
    void retentionBounds() {
        Blackboard small = new Blackboard(new Blackboard.Limits(5, 3, 2, 0));
        for (int i = 0; i < 4; i++) {
            small.progress(LedgerProgressRequest.from(json("{'task_id':'t" + i + "','text':'a" + i + "'}")), "alice", i, MutationCommit.NONE);
        }
        assertEquals(List.of("a1", "a2", "a3"), small.notes().stream().map(ProgressNote::text).toList(), "per author");
        small.progress(LedgerProgressRequest.from(json("{'task_id':'x','text':'b0'}")), "bob", 10, MutationCommit.NONE);
        small.progress(LedgerProgressRequest.from(json("{'task_id':'x','text':'c0'}")), "carol", 11, MutationCommit.NONE);
        small.progress(LedgerProgressRequest.from(json("{'task_id':'x','text':'d0'}")), "dave", 12, MutationCommit.NONE);
        assertEquals(List.of("a1", "a2", "a3", "c0", "d0"), small.notes().stream().map(ProgressNote::text).toList(), "per task");
        small.progress(LedgerProgressRequest.from(json("{'task_id':'y','text':'e0'}")), "erin", 13, MutationCommit.NONE);
        assertEquals(List.of("a2", "a3", "c0", "d0", "e0"), small.notes().stream().map(ProgressNote::text).toList(), "total");
        Blackboard big = new Blackboard();
        for (int i = 0; i < 6000; i++) {
            big.acceptCommitted(new ProgressNote("t" + (i % 10), "author" + (i % 7), "note", "n" + i, i));
        }
        assertEquals(5000, big.notes().size());
        assertEquals("n1000", big.notes().get(0).text());
    }

    @Test
    void replayRebuildsTasksAndNotes() {
        declare("a", "{'task_id':'A','title':'a','suggested_owner':'bob','project':'p'}");
        update("{'task_id':'A','status':'blocked'}");
        board.progress(LedgerProgressRequest.from(json("{'task_id':'A','text':'stuck','kind':'blocked'}")), "bob", T0 + 2, commit);
        declare("a", "{'task_id':'B','title':'b','causal_parent':{'hub_id':'h','seq':3,'event_fingerprint':'" + FP + "'}}");
        Blackboard rebuilt = new Blackboard();
        journal.forEach(rebuilt::apply);
        assertEquals(board.snapshot(), rebuilt.snapshot());
        assertEquals(List.of("A"), rebuilt.openTasksBySuggestedOwner().get("bob"));
        assertEquals("Task 'A' version conflict: expected v1, board has v2.",
                rebuilt.update(LedgerTaskUpdateRequest.from(json("{'task_id':'A','expected_version':1}")), "x", T0, MutationCommit.NONE).sentence());
    }
}
