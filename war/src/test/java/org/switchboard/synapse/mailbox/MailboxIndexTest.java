package org.switchboard.synapse.mailbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.switchboard.synapse.addressing.Addressing;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.FakePeer;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseCounters;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.receipts.ReceiptService;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.ConnectionRegistry;
import org.switchboard.synapse.wire.HubFrames;

/**
 * The directed-chat index stays bounded under sustained chat (live and rebuilt from the journal)
 * while an ack keeps its meaning for chats that have left the index. A small index limit stands in
 * for the production one. Chats every named recipient has passed leave the index by watermark.
 */
class MailboxIndexTest {

    private static final int LIMIT = 10;
    private InMemoryJournal journal;
    private SynapseContext ctx;
    private MailboxService mailbox;

    @BeforeEach
    void hub() {
        journal = new InMemoryJournal();
        ctx = new SynapseContext(SynapseSettings.defaults(), new HubFrames("syn-test", () -> 1_767_225_600.0),
                new ConnectionRegistry(true), journal, new SynapseCounters(), Runnable::run, Runnable::run);
        mailbox = new MailboxService(ctx, new ReceiptService(ctx), LIMIT);
    }

    /** Journals and indexes one chat, as the chat service does after the commit. */
    private long chat(String sender, String target) {
        long seq = journal.append("chat", Json.createObjectBuilder().add("sender", sender).add("target", target)
                .add("type", "chat").add("payload", "m").build()).join();
        mailbox.chatCommitted(seq, sender, target, false, 1_767_225_600.0);
        return seq;
    }

    private Connection bound(String name) {
        Connection connection = new Connection(new FakePeer(), 0);
        ctx.registry().bindIfFree(name, connection);
        return connection;
    }

    private void ack(Connection connection, long seq) {
        mailbox.ack(connection, Json.createObjectBuilder().add("type", "ack").add("seq", seq).build());
    }

    @Test
    void sustainedChatKeepsOnlyTheNewestDirectedChats() {
        for (int i = 0; i < 1000; i++) {
            chat("p/alice", "p/bob");
            chat("p/alice", "all"); // broadcasts were never indexed
        }
        assertEquals(LIMIT, mailbox.indexedDirectedChats());
        assertEquals(LIMIT, mailbox.pendingFor("p/bob", List.of()), "pending is counted over the indexed window");
    }

    @Test
    void theIndexRebuiltFromTheJournalIsBoundedToo() {
        for (int i = 0; i < 3 * LIMIT; i++) {
            chat("p/alice", "p/bob");
        }
        MailboxService restarted = new MailboxService(ctx, new ReceiptService(ctx), LIMIT);
        journal.replay(restarted::replay);
        assertEquals(LIMIT, restarted.indexedDirectedChats());
        assertEquals(3L * LIMIT, restarted.highestSeq());
    }

    @Test
    void withinTheWindowCountsAndAcksAreUnchanged() {
        long first = chat("p/alice", "p/bob");
        chat("p/alice", "p/carol");
        long third = chat("p/alice", "p/bob");
        assertEquals(2, mailbox.pendingFor("p/bob", List.of()));
        Connection bob = bound("p/bob");
        ack(bob, first);
        assertEquals(first, mailbox.watermark("p/bob"));
        assertEquals(1, mailbox.pendingFor("p/bob", List.of()));
        ack(bob, third);
        assertEquals(0, mailbox.pendingFor("p/bob", List.of()));
    }

    @Test
    void anAckOfAChatThatLeftTheIndexStillAdvancesTheWatermark() {
        long first = chat("p/alice", "p/bob");
        for (int i = 0; i < 2 * LIMIT; i++) {
            chat("p/alice", "p/bob");
        }
        Connection bob = bound("p/bob");
        ack(bob, first);
        assertEquals(first, mailbox.watermark("p/bob"), "checked against the journal row");
        assertEquals(first, journal.last("mailbox_watermark").getJsonNumber("through_seq").longValue());
        assertEquals(LIMIT, mailbox.pendingFor("p/bob", List.of()));
    }

    @Test
    void anAckOfAnOldChatForSomeoneElseOrAnOldBroadcastChangesNothing() {
        long carols = chat("p/alice", "p/carol");
        long broadcast = chat("p/alice", "all");
        for (int i = 0; i < 2 * LIMIT; i++) {
            chat("p/alice", "p/bob");
        }
        Connection bob = bound("p/bob");
        ack(bob, carols);
        ack(bob, broadcast);
        assertEquals(0, mailbox.watermark("p/bob"));
        assertNull(journal.last("mailbox_watermark"));
    }

    @Test
    void aChatLeavesTheIndexOnceEveryNamedRecipientPassedIt() {
        long toBob = chat("p/alice", "p/bob");
        long toBoth = chat("p/alice", "p/bob,p/carol");
        assertEquals(2, mailbox.indexedDirectedChats());
        ack(bound("p/bob"), toBoth);
        assertEquals(toBoth, mailbox.watermark("p/bob"));
        assertEquals(1, mailbox.indexedDirectedChats(), "the chat to bob alone is passed; carol still owes the other");
        assertEquals(0, mailbox.pendingFor("p/bob", List.of()));
        assertEquals(1, mailbox.pendingFor("p/carol", List.of()));
        ack(bound("p/carol"), toBoth);
        assertEquals(0, mailbox.indexedDirectedChats());
        assertEquals(0, mailbox.namesWithBacklog());
        assertEquals(0, mailbox.pendingFor("p/carol", List.of()));
        assertTrue(toBob < toBoth);
    }

    @Test
    void chatsToRolesOrBareProjectsStayUntilTheSizeLimitAndCountForTheirHolders() {
        chat("p/alice", "p/reviewer");
        chat("p/alice", "q");
        long mine = chat("p/alice", "p/bob");
        Connection bob = bound("p/bob");
        ack(bob, mine);
        assertEquals(2, mailbox.indexedDirectedChats(), "nobody named p/reviewer or q passed them");
        assertEquals(0, mailbox.pendingFor("p/bob", List.of()), "bob's watermark is past both");
        assertEquals(1, mailbox.pendingFor("q/dave", List.of()));
        assertEquals(2, mailbox.pendingFor("q/dave", List.of("p/reviewer")));
        assertEquals(1, mailbox.pendingFor("r/erin", List.of("p/reviewer")));
    }

    @Test
    void underChurnWithAcksTheIndexEmptiesWithoutTheSizeLimit() {
        mailbox = new MailboxService(ctx, new ReceiptService(ctx), 1_000_000);
        List<Connection> agents = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            agents.add(bound("p/agent" + i));
        }
        Random random = new Random(7);
        int maxIndexed = 0;
        for (int round = 0; round < 1_000; round++) {
            int to = random.nextInt(20);
            long seq = chat("p/agent" + random.nextInt(20), "p/agent" + to);
            ack(agents.get(to), seq);
            maxIndexed = Math.max(maxIndexed, mailbox.indexedDirectedChats());
        }
        assertEquals(0, mailbox.indexedDirectedChats(), "every chat was acked by its receiver");
        assertEquals(0, mailbox.namesWithBacklog());
        assertTrue(maxIndexed <= 1, "at most the one chat not yet acked, was " + maxIndexed);
    }

    @Test
    void pendingCountsMatchAWalkOverEveryChatAboveTheWatermark() {
        mailbox = new MailboxService(ctx, new ReceiptService(ctx), 1_000_000);
        String[] targets = {"p/a", "p/b", "p/c", "p/a,p/b", "p/b,p/c,p/a", "p", "p/role", "p/a,p/role", "p/?", "q/x,p"};
        String[] names = {"p/a", "p/b", "p/c", "q/x"};
        List<String> roles = List.of("p/role");
        List<long[]> sent = new ArrayList<>();
        List<String[]> who = new ArrayList<>();
        Random random = new Random(11);
        for (int i = 0; i < 3_000; i++) {
            String sender = names[random.nextInt(names.length)];
            String target = targets[random.nextInt(targets.length)];
            long seq = chat(sender, target);
            sent.add(new long[] {seq});
            who.add(new String[] {sender, target});
            if (random.nextInt(4) == 0) {
                String acker = names[random.nextInt(names.length)];
                long upTo = sent.get(random.nextInt(sent.size()))[0];
                mailbox.advance(acker, upTo, "test");
            }
        }
        for (String name : names) {
            for (List<String> held : List.of(List.<String>of(), roles)) {
                long expected = 0;
                for (int i = 0; i < sent.size(); i++) {
                    String[] chat = who.get(i);
                    if (sent.get(i)[0] > mailbox.watermark(name) && !chat[0].equals(name)
                            && Addressing.isRecipient(chat[1], name, held)) {
                        expected++;
                    }
                }
                assertEquals(expected, mailbox.pendingFor(name, held), name + " with roles " + held);
            }
        }
    }

    @Test
    void theIndexRebuiltFromTheJournalLeavesOutWhatWatermarksPassed() {
        long first = chat("p/alice", "p/bob");
        chat("p/alice", "p/carol");
        Connection bob = bound("p/bob");
        ack(bob, first);
        MailboxService restarted = new MailboxService(ctx, new ReceiptService(ctx), LIMIT);
        journal.replay(restarted::replay);
        assertEquals(1, restarted.indexedDirectedChats(), "only carol's chat is still owed");
        assertEquals(0, restarted.pendingFor("p/bob", List.of()));
        assertEquals(1, restarted.pendingFor("p/carol", List.of()));
    }
}
