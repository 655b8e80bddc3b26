package org.switchboard.synapse.messageauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.SideRows;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.VerbHandler;

/**
 * Step 14 on a hub whose journal writes side rows (issue 17): an accepted nonce is made durable by the
 * journal's commit, in the same transaction as the frame's journalled effect, and a nonce that cannot
 * be written refuses its frame.
 */
class JournalNonceStepTest {

    private static final String SECRET = "step-secret";

    @TempDir
    Path dir;

    /**
     * Stands in for the claim family: journals its effect on the frame's thread, as the mutation flow
     * does, unless the task id says the frame is refused. (Attachment verbs go to the hub's own
     * attachment handler, which journals nothing.)
     */
    static final class Handler implements VerbHandler {
        final List<String> handled = new CopyOnWriteArrayList<>();
        final List<Integer> sideRowWritesSeen = new CopyOnWriteArrayList<>();
        final List<CompletableFuture<long[]>> appends = new CopyOnWriteArrayList<>();
        InMemoryJournal journal;

        @Override
        public Set<String> types() {
            return Set.of("claim");
        }

        @Override
        public void handle(InboundFrame frame, SynapseContext context) {
            handled.add(frame.type());
            sideRowWritesSeen.add(journal.sideRowWrites().size());
            if ("claim".equals(frame.type()) && !frame.frame().getString("task_id").startsWith("refused")) {
                appends.add(context.journal().append(List.of(new JournalEvent.Draft("claim",
                        jakarta.json.Json.createObjectBuilder().add("task_id", frame.frame().getString("task_id")).build())),
                        List.of()));
            }
        }
    }

    private TestHub hub(InMemoryJournal journal, Handler handler) throws IOException {
        Path keys = dir.resolve("keys.json");
        Files.writeString(keys, "{\"keys\":[{\"kid\":\"k1\",\"secret\":\"" + SECRET + "\",\"senders\":[\"team/alice\"]}]}");
        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rw-------"));
        TestHub test = new TestHub(SynapseSettings.builder().messageAuthKeyFile(keys.toString())
                .requireMessageAuth(true).build(), journal);
        handler.journal = journal;
        test.hub.dispatcher().register(handler);
        test.hub.dispatcher().signAttachmentVerbs();
        return test;
    }

    private static String signedClaim(String task, String nonce) {
        return MessageAuthStepTest.sign(TestHub.frame("claim", "all", "").add("task_id", task), SECRET, nonce).toString();
    }

    @Test
    void aSignedFramesNonceRidesInTheTransactionOfItsJournalledEffect() throws IOException {
        InMemoryJournal journal = new InMemoryJournal().writingSideRows();
        Handler handler = new Handler();
        TestHub.Client alice = hub(journal, handler).register("team/alice");

        alice.sendRaw(signedClaim("t-1", "n1"));

        assertEquals(List.of("claim"), handler.handled);
        assertEquals(List.of(0), handler.sideRowWritesSeen, "the nonce was not committed on its own before the handler");
        List<InMemoryJournal.Write> writes = journal.sideRowWrites();
        assertEquals(1, writes.size(), "one transaction for the effect and the nonce: " + writes);
        assertEquals(List.of("claim"), writes.get(0).kinds());
        assertEquals(1, writes.get(0).sideRows().size());
        JournalNonceStore.NonceRow row = assertInstanceOf(JournalNonceStore.NonceRow.class, writes.get(0).sideRows().get(0));
        assertEquals(NonceBatch.INSERT, row.statement());
        assertFalse(SideRows.attached(), "nothing is left on the frame's thread");

        alice.sendRaw(signedClaim("t-1", "n1"));
        assertEquals("replayed", alice.peer().lastOfType("error").getString("verification_result"));
        assertEquals(1, handler.handled.size());
        assertEquals(1, journal.sideRowWrites().size(), "a refused replay writes nothing");
    }

    @Test
    void aNonceNoAppendTookIsWrittenOnItsOwnOnceTheFrameIsDone() throws IOException {
        InMemoryJournal journal = new InMemoryJournal().writingSideRows();
        Handler handler = new Handler();
        TestHub.Client alice = hub(journal, handler).register("team/alice");

        alice.sendRaw(signedClaim("refused-1", "n1"));

        assertEquals(List.of("claim"), handler.handled);
        List<InMemoryJournal.Write> writes = journal.sideRowWrites();
        assertEquals(1, writes.size(), "the nonce joins the journal's next commit");
        assertEquals(List.of(), writes.get(0).kinds(), "on its own, no event");
        assertEquals(1, writes.get(0).sideRows().size());
        assertFalse(SideRows.attached());
    }

    @Test
    void aVerbWithoutAJournalledEffectHasItsNonceCommittedByTheStepItself() throws IOException {
        InMemoryJournal journal = new InMemoryJournal().writingSideRows();
        Handler handler = new Handler();
        TestHub.Client alice = hub(journal, handler).register("team/alice");
        int before = alice.peer().frames().size();

        alice.sendRaw(attachmentInfo("n1"));

        List<InMemoryJournal.Write> writes = journal.sideRowWrites();
        assertEquals(1, writes.size());
        assertEquals(List.of(), writes.get(0).kinds());
        assertTrue(alice.peer().frames().size() > before, "the attachment handler answered");
        assertTrue(alice.peer().frames().stream().noneMatch(f -> f.containsKey("verification_result")), "accepted");
        assertFalse(SideRows.attached());
    }

    private static String attachmentInfo(String nonce) {
        return MessageAuthStepTest.sign(TestHub.frame("attachment_info", "all", "").add("attachment_id", "x"), SECRET, nonce)
                .toString();
    }

    @Test
    void aNonceThatCannotBeWrittenRefusesTheFrameAndAppliesNothing() throws IOException {
        InMemoryJournal journal = new InMemoryJournal().writingSideRows();
        Handler handler = new Handler();
        TestHub test = hub(journal, handler);
        TestHub.Client alice = test.register("team/alice");
        journal.failAppends(true);

        // no journalled effect: the step's own commit fails, the frame is refused before its handler
        int before = alice.peer().frames().size();
        alice.sendRaw(attachmentInfo("n1"));
        assertEquals(before + 1, alice.peer().frames().size(), "only the refusal: the handler never ran");
        assertEquals("replayed", alice.peer().lastOfType("error").getString("verification_result"));

        // a journalled effect: the nonce is in the effect's transaction, which fails as a whole
        alice.sendRaw(signedClaim("t-2", "n2"));
        assertEquals(1, handler.appends.size());
        assertTrue(handler.appends.get(0).isCompletedExceptionally(), "the effect's append failed with its nonce");
        assertTrue(journal.events().stream().noneMatch(e -> e.kind().equals("claim")), "nothing applied");
        assertEquals(0, alice.peer().closeCode(), "the connection stays usable");
        assertFalse(SideRows.attached());
    }
}
