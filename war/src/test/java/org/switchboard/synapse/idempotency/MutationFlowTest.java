package org.switchboard.synapse.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.VerbHandler;
import org.switchboard.synapse.board.Blackboard;
import org.switchboard.synapse.claims.ClaimBook;

/**
 * The keyed mutation flow inside a real (synchronous) hub: events and the operation record in one
 * batch, private verbatim replay, conflicts, no reply before the commit, and what a lost append does.
 */
class MutationFlowTest {

    final InMemoryJournal journal = new InMemoryJournal();
    final TestHub t = new TestHub(journal);
    final ClaimBook book = new ClaimBook();
    final Blackboard board = new Blackboard();
    final MutationFlow flow = new MutationFlow(new IdempotencyLedger());
    final List<Throwable> lost = new ArrayList<>();

    @BeforeEach
    void plugIn() {
        t.hub.dispatcher().register(new VerbHandler() {
            @Override
            public Set<String> types() {
                return Set.of("claim", "ledger_task");
            }

            @Override
            public void handle(InboundFrame in, SynapseContext ctx) {
                if (in.type().equals("claim")) {
                    flow.run(in, ctx, false, (commit, now) ->
                            book.claim(book.request(in.frame()), in.sender(), "p", now, commit).mutation(), lost::add);
                } else {
                    flow.run(in, ctx, true, (commit, now) -> board.declare(org.switchboard.synapse.board.LedgerTaskRequest.from(in.frame()), in.sender(), now, commit).mutation(),
                            lost::add);
                }
            }
        });
    }

    static jakarta.json.JsonObjectBuilder claim(String task, String path) {
        return TestHub.frame("claim", "System", "").add("task_id", task)
                .add("paths", Json.createArrayBuilder().add(path));
    }

    @Test
    void keyedGrantIsJournalledWithItsRecordAndReplayedPrivatelyVerbatim() {
        TestHub.Client a = t.register("a");
        TestHub.Client b = t.register("b");
        int before = journal.events().size();
        a.send(claim("x", "src").add("idem_key", "k"));
        JsonObject grant = a.peer().lastOfType("claim_granted");
        assertNotNull(grant);
        assertEquals(1, b.peer().ofType("claim_granted").size(), "first grant is broadcast");
        List<JournalEvent> events = journal.events().subList(before, journal.events().size());
        assertEquals(List.of("claim", "idempotency"), events.stream().map(JournalEvent::kind).toList());
        assertEquals(grant, events.get(1).payload().getJsonObject("response"), "the stored frame is the sent frame");
        assertEquals(1, flow.keyedInserted());

        t.advance(5);
        a.send(claim("x", "src").add("idem_key", "k"));
        assertEquals(2, a.peer().ofType("claim_granted").size());
        assertEquals(grant, a.peer().lastOfType("claim_granted"), "replay is verbatim (same timestamp)");
        assertEquals(1, b.peer().ofType("claim_granted").size(), "replay is private");
        assertEquals(before + 2, journal.events().size(), "replay appends nothing");

        a.send(claim("x", "other").add("idem_key", "k"));
        assertEquals(IdempotencyLedger.CONFLICT_CODE, a.peer().lastOfType("error").getString("error_code"));
        assertEquals(1, flow.keyedReplayed());
        assertEquals(1, flow.keyedConflicts());
        assertEquals(1, flow.published("claim_granted"));
    }

    @Test
    void deniedKeyedClaimJournalsEvidenceButIsNotRemembered() {
        TestHub.Client a = t.register("a");
        TestHub.Client b = t.register("b");
        a.send(claim("x", "src"));
        b.send(claim("y", "src/deep").add("idem_key", "k"));
        assertEquals(ClaimBook.SCOPE_CONFLICT, b.peer().lastOfType("claim_denied").getString("reason_code"));
        assertEquals("claim_denial", journal.events().get(journal.events().size() - 1).kind());
        assertNull(flow.ledger().find(IdempotencyLedger.operationKey("b", "claim", "k")));
    }

    @Test
    void lostOrderedAppendAnswersWithAnErrorPublishesNothingAndAsksForARebuild() {
        TestHub.Client a = t.register("a");
        TestHub.Client b = t.register("b");
        journal.failAppends(true);
        a.send(claim("x", "src").add("idem_key", "k"));
        assertEquals("journal_append_failed", a.peer().lastOfType("error").getString("error_code"));
        assertTrue(a.peer().ofType("claim_granted").isEmpty() && b.peer().ofType("claim_granted").isEmpty());
        assertEquals(1, lost.size());
        book.rebuild(journal::replay, 1_767_225_700.0);
        assertNull(book.claimOf("x", 1_767_225_700.0), "the rebuilt book holds only what the journal holds");

        journal.failAppends(false);
        a.send(claim("x", "src").add("idem_key", "k"));
        assertEquals(1, a.peer().ofType("claim_granted").size(), "the key was not remembered, so the retry runs");
    }

    @Test
    void awaitedAppendFailureIsAnsweredByTheRuleOnly() {
        TestHub.Client a = t.register("a");
        journal.failAppends(true);
        a.send(TestHub.frame("ledger_task", "System", "").add("task_id", "T").add("title", "t"));
        List<JsonObject> errors = a.peer().ofType("error");
        assertEquals(1, errors.size(), errors.toString());
        assertEquals("Task 'T' was not journalled; mutation rolled back.", errors.get(0).getString("payload"));
        assertNull(board.task("T"));
        assertTrue(lost.isEmpty());
    }
}
