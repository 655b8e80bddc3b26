package org.switchboard.synapse.receipts;

import org.junit.jupiter.api.Test;
import org.switchboard.journal.snapshot.SnapshotEquivalence;
import org.switchboard.journal.snapshot.SyntheticEvents;
import org.switchboard.synapse.ConnectionRegistry;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseCounters;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.wire.HubFrames;

/** The receipt service's snapshot part (unsettled pending receipts): replay all equals restore + tail (issue 20). */
class ReceiptSnapshotTest {

    private static ReceiptService fresh() {
        SynapseContext ctx = new SynapseContext(SynapseSettings.defaults(), new HubFrames("syn-test", () -> 1_767_225_600.0),
                new ConnectionRegistry(true), new InMemoryJournal(), new SynapseCounters(), Runnable::run, Runnable::run);
        return new ReceiptService(ctx);
    }

    private static String view(ReceiptService receipts) {
        StringBuilder out = new StringBuilder("size=" + receipts.pending().size());
        receipts.pending().all().forEach(p -> out.append('\n').append(p));
        return out.toString();
    }

    @Test
    void restoredPendingReceiptsEqualFullReplay() {
        for (long seed = 1; seed <= 3; seed++) {
            SnapshotEquivalence.check(SyntheticEvents.of(seed, 300), 7, ReceiptSnapshotTest::fresh, ReceiptService::replay,
                    ReceiptService::snapshotPart, ReceiptSnapshotTest::view);
        }
    }
}
