package org.switchboard.synapse.mailbox;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.snapshot.SnapshotEquivalence;
import org.switchboard.journal.snapshot.SyntheticEvents;
import org.switchboard.synapse.ConnectionRegistry;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseCounters;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.receipts.ReceiptService;
import org.switchboard.synapse.wire.HubFrames;

/** The mailbox's snapshot part: replay all equals replay k, snapshot, restore, replay the rest (issue 20). */
class MailboxSnapshotTest {

    private static final List<String> NAMES = List.of("p/a", "p/b", "p/c", "q/d", "q/e");

    private static MailboxService fresh(int indexLimit) {
        SynapseContext ctx = new SynapseContext(SynapseSettings.defaults(), new HubFrames("syn-test", () -> 1_767_225_600.0),
                new ConnectionRegistry(true), new InMemoryJournal(), new SynapseCounters(), Runnable::run, Runnable::run);
        return new MailboxService(ctx, new ReceiptService(ctx), indexLimit);
    }

    private static String view(MailboxService mailbox) {
        StringBuilder out = new StringBuilder("highest=" + mailbox.highestSeq());
        for (String name : NAMES) {
            out.append(' ').append(name).append(":wm=").append(mailbox.watermark(name)).append(",pending=")
                    .append(mailbox.pendingFor(name, Set.of("reviewer")));
        }
        return out.toString();
    }

    @Test
    void restoredMailboxEqualsFullReplay() {
        for (long seed = 1; seed <= 4; seed++) {
            SnapshotEquivalence.check(SyntheticEvents.of(seed, 300), 7, () -> fresh(10_000), MailboxService::replay,
                    MailboxService::snapshotPart, MailboxSnapshotTest::view);
        }
    }

    @Test
    void restoredMailboxEqualsFullReplayWhenTheIndexLimitPrunes() {
        SnapshotEquivalence.check(SyntheticEvents.of(9, 300), 5, () -> fresh(12), MailboxService::replay,
                MailboxService::snapshotPart, MailboxSnapshotTest::view);
    }
}
