package org.switchboard.synapse.mailbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import jakarta.json.Json;
import java.util.List;
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
 * for the production one.
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
}
