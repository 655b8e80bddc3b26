package org.switchboard.synapse.governance;

import org.junit.jupiter.api.Test;
import org.switchboard.journal.snapshot.SnapshotEquivalence;
import org.switchboard.journal.snapshot.SyntheticEvents;
import org.switchboard.synapse.ConnectionRegistry;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseCounters;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.session.NameLeases;
import org.switchboard.synapse.wire.HubFrames;

/** The governance service's snapshot part (guard-denial acknowledgements): replay all equals restore + tail (issue 20). */
class GovernanceSnapshotTest {

    private static GovernanceService fresh() {
        SynapseContext ctx = new SynapseContext(SynapseSettings.defaults(), new HubFrames("syn-test", () -> 1_767_225_600.0),
                new ConnectionRegistry(true), new InMemoryJournal(), new SynapseCounters(), Runnable::run, Runnable::run);
        return new GovernanceService(ctx, new NameLeases());
    }

    @Test
    void restoredGuardAcknowledgementsEqualFullReplay() {
        for (long seed = 1; seed <= 3; seed++) {
            SnapshotEquivalence.check(SyntheticEvents.of(seed, 300), 7, GovernanceSnapshotTest::fresh,
                    GovernanceService::replay, GovernanceService::snapshotPart, g -> "");
        }
    }
}
