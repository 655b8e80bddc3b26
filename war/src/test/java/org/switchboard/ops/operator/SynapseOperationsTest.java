package org.switchboard.ops.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.ConnectionRegistry;
import org.switchboard.synapse.FakePeer;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseCounters;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.board.Blackboard;
import org.switchboard.synapse.claims.ClaimBook;
import org.switchboard.synapse.claims.TaskClaim;
import org.switchboard.synapse.idempotency.CommitFailedException;
import org.switchboard.synapse.idempotency.MutationCommit;
import org.switchboard.synapse.wire.HubFrames;

class SynapseOperationsTest {

    private static final double NOW = 1_767_225_600.0;

    private InMemoryJournal journal;
    private SynapseContext ctx;
    private ClaimBook book;
    private SynapseOperations ops;
    private FakePeer alicePeer;
    private FakePeer bobPeer;

    @BeforeEach
    void hub() {
        journal = new InMemoryJournal();
        ctx = new SynapseContext(SynapseSettings.defaults(), new HubFrames("syn-test", () -> NOW),
                new ConnectionRegistry(true), journal, new SynapseCounters(), Runnable::run, Runnable::run);
        book = new ClaimBook();
        Blackboard board = new Blackboard();
        ops = new SynapseOperations(ctx, () -> book, () -> board,
                () -> Json.createObjectBuilder().add("bob", 3).add("alice", 0).build());
        alicePeer = new FakePeer("10.0.0.1");
        bobPeer = new FakePeer("10.0.0.2");
        bind("alice", alicePeer);
        bind("bob", bobPeer);
    }

    private void bind(String name, FakePeer peer) {
        Connection c = new Connection(peer, NOW);
        ctx.registry().admit(c, 100, 100, false, 100);
        ctx.registry().bindIfFree(name, c);
    }

    private void claim(String owner, String taskId) {
        JsonObject frame = Json.createObjectBuilder().add("type", "claim").add("task_id", taskId)
                .add("paths", Json.createArrayBuilder().add("src/" + taskId)).add("ttl_seconds", 900).build();
        assertTrue(book.claim(book.request(frame), owner, "open-host:x", NOW, MutationCommit.NONE).granted());
    }

    private List<JournalEvent> audits() {
        return journal.events().stream().filter(e -> OperatorAudit.KIND.equals(e.kind())).toList();
    }

    @Test
    void rosterListsEveryOpenSocketByName() {
        List<SynapseOperations.RosterEntry> roster = ops.roster();
        assertEquals(List.of("alice", "bob"), roster.stream().map(SynapseOperations.RosterEntry::name).toList());
        assertEquals("10.0.0.1", roster.get(0).remoteHost());
        assertEquals(alicePeer.id(), roster.get(0).connectionId());
    }

    @Test
    void disconnectClosesTheSocketAndJournalsWhoWhyAndWhat() {
        assertEquals(bobPeer.id(), ops.disconnect("bob", "  stuck client  ", "jmx:controlRole"));
        assertEquals(SynapseOperations.DISCONNECT_CODE, bobPeer.closeCode());
        assertTrue(alicePeer.isOpen());
        JsonObject audit = audits().get(0).payload();
        assertEquals("jmx:controlRole", audit.getString("principal"));
        assertEquals("synapse.disconnect", audit.getString("operation"));
        assertEquals("stuck client", audit.getString("reason"));
        assertTrue(audit.getString("target").startsWith("bob ("), audit.toString());
    }

    @Test
    void disconnectFindsAConnectionById() {
        ops.disconnect(alicePeer.id(), "by id", "console");
        assertEquals(SynapseOperations.DISCONNECT_CODE, alicePeer.closeCode());
    }

    @Test
    void disconnectWithoutReasonOrTargetIsRefusedAndNothingHappens() {
        assertEquals(400, assertThrows(OperatorRefusal.class, () -> ops.disconnect("bob", " ", "p")).status());
        assertEquals(404, assertThrows(OperatorRefusal.class, () -> ops.disconnect("carol", "r", "p")).status());
        assertTrue(bobPeer.isOpen());
        assertTrue(audits().isEmpty());
    }

    @Test
    void forceReleaseFreesTheTaskJournalsReleaseAndAuditAndTellsEveryone() {
        claim("alice", "T-1");
        claim("alice", "T-2");
        TaskClaim released = ops.forceRelease("T-1", "owner went dark", "jmx:controlRole");
        assertEquals("alice", released.owner());
        assertEquals(List.of("T-2"), ops.claims().stream().map(TaskClaim::taskId).toList());
        List<JournalEvent> events = journal.events();
        assertEquals("release", events.get(0).kind());
        assertEquals("T-1", events.get(0).payload().getString("task_id"));
        JsonObject audit = events.get(1).payload();
        assertEquals(OperatorAudit.KIND, events.get(1).kind());
        assertEquals("synapse.claims.force_release", audit.getString("operation"));
        assertEquals("T-1", audit.getString("target"));
        assertEquals("owner went dark", audit.getString("reason"));
        assertEquals("jmx:controlRole", audit.getString("principal"));
        JsonObject frame = bobPeer.lastOfType("release_granted");
        assertNotNull(frame, bobPeer.frames().toString());
        assertEquals("T-1", frame.getString("task_id"));
        assertTrue(frame.getBoolean("released_by_operator"));
        // the book is really free: someone else may claim the task now
        claim("bob", "T-1");
    }

    @Test
    void forceReleaseSurvivesReplay() {
        claim("alice", "T-1");
        ops.forceRelease("T-1", "r", "p");
        ClaimBook replayed = new ClaimBook();
        // the claim itself was granted with MutationCommit.NONE, so replay the release over a fresh claim
        claimInto(replayed, "alice", "T-1");
        journal.events().forEach(replayed::apply);
        assertNull(replayed.claimOf("T-1", NOW));
    }

    private static void claimInto(ClaimBook target, String owner, String taskId) {
        JsonObject frame = Json.createObjectBuilder().add("type", "claim").add("task_id", taskId).add("ttl_seconds", 900).build();
        target.claim(target.request(frame), owner, "open-host:x", NOW, MutationCommit.NONE);
    }

    @Test
    void forceReleaseRefusals() {
        claim("alice", "T-1");
        assertEquals(400, assertThrows(OperatorRefusal.class, () -> ops.forceRelease("T-1", null, "p")).status());
        assertEquals(404, assertThrows(OperatorRefusal.class, () -> ops.forceRelease("T-9", "r", "p")).status());
        assertEquals(1, ops.claims().size());
        assertTrue(journal.events().isEmpty());
    }

    @Test
    void aFailedAppendReleasesNothing() {
        claim("alice", "T-1");
        journal.failAppends(true);
        assertThrows(CommitFailedException.class, () -> ops.forceRelease("T-1", "r", "p"));
        assertEquals(1, ops.claims().size());
        assertTrue(bobPeer.ofType("release_granted").isEmpty());
    }

    @Test
    void mailboxBacklogIsSortedByIdentity() {
        assertEquals(List.of("alice", "bob"), List.copyOf(ops.mailboxBacklog().keySet()));
        assertEquals(3L, ops.mailboxBacklog().get("bob"));
    }
}
