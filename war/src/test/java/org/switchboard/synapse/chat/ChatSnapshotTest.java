package org.switchboard.synapse.chat;

import org.junit.jupiter.api.Test;
import org.switchboard.journal.snapshot.SnapshotEquivalence;
import org.switchboard.journal.snapshot.SyntheticEvents;
import org.switchboard.synapse.ConnectionRegistry;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseCounters;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.mailbox.MailboxService;
import org.switchboard.synapse.receipts.ReceiptService;
import org.switchboard.synapse.wire.HubFrames;

/** The chat service's snapshot part (history, msg_id high-water): replay all equals restore + tail (issue 20). */
class ChatSnapshotTest {

    private static ChatService fresh(int historyLimit) {
        SynapseSettings settings = SynapseSettings.builder().historyLimit(historyLimit).build();
        SynapseContext ctx = new SynapseContext(settings, new HubFrames("syn-test", () -> 1_767_225_600.0),
                new ConnectionRegistry(true), new InMemoryJournal(), new SynapseCounters(), Runnable::run, Runnable::run);
        ReceiptService receipts = new ReceiptService(ctx);
        return new ChatService(ctx, receipts, new MailboxService(ctx, receipts), new ChannelService(ctx));
    }

    private static String view(ChatService chat) {
        StringBuilder out = new StringBuilder("msg_id=" + chat.lastMsgId() + " size=" + chat.history().size()
                + " bytes=" + chat.history().bytes());
        chat.history().select(c -> true).forEach(c -> out.append('\n').append(c));
        return out.toString();
    }

    @Test
    void restoredHistoryEqualsFullReplay() {
        SnapshotEquivalence.check(SyntheticEvents.of(3, 300), 7, () -> fresh(10_000), ChatService::replay,
                ChatService::snapshotPart, ChatSnapshotTest::view);
    }

    @Test
    void restoredHistoryEqualsFullReplayWhenTheLimitEvicts() {
        SnapshotEquivalence.check(SyntheticEvents.of(4, 300), 5, () -> fresh(20), ChatService::replay,
                ChatService::snapshotPart, ChatSnapshotTest::view);
    }
}
