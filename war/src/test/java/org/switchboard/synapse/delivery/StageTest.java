package org.switchboard.synapse.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The §2.9 stage table and who may cause which stage, checked cell by cell. */
class StageTest {

    /** Rows: from-stage; the string lists every stage reachable from it (any source). */
    private static final String[][] TABLE = {
            {"accepted", "queued rejected expired"},
            {"queued", "boundary_delivered rejected expired cancelled superseded"},
            {"boundary_delivered", "acknowledged rejected failed expired cancelled superseded"},
            {"acknowledged", "completed failed rejected expired cancelled superseded"},
            {"completed", ""}, {"failed", ""}, {"rejected", ""}, {"expired", ""}, {"cancelled", ""}, {"superseded", ""},
    };

    @Test
    void everyCellOfTheTransitionTable() {
        List<String> mismatches = new ArrayList<>();
        for (String[] row : TABLE) {
            Stage from = Stage.of(row[0]);
            List<String> allowed = row[1].isEmpty() ? List.of() : List.of(row[1].split(" "));
            for (Stage to : Stage.values()) {
                boolean any = false;
                for (Stage.Source source : Stage.Source.values()) {
                    any |= from.allows(to, source);
                }
                // "queued" is reached only by admission, which is not a source-driven change
                boolean expected = allowed.contains(to.wire()) && to != Stage.QUEUED;
                if (any != expected) {
                    mismatches.add(from.wire() + " -> " + to.wire());
                }
            }
            assertEquals(allowed.isEmpty(), from.terminal(), row[0]);
        }
        assertEquals(List.of(), mismatches);
    }

    @Test
    void whoMayCauseWhichStage() {
        Stage ack = Stage.ACKNOWLEDGED;
        assertEquals(true, ack.allows(Stage.COMPLETED, Stage.Source.RECIPIENT));
        assertEquals(false, ack.allows(Stage.COMPLETED, Stage.Source.HUB));
        assertEquals(false, ack.allows(Stage.COMPLETED, Stage.Source.SENDER));
        assertEquals(true, ack.allows(Stage.EXPIRED, Stage.Source.HUB));
        assertEquals(false, ack.allows(Stage.EXPIRED, Stage.Source.RECIPIENT));
        assertEquals(true, ack.allows(Stage.SUPERSEDED, Stage.Source.HUB));
        assertEquals(true, ack.allows(Stage.SUPERSEDED, Stage.Source.RECIPIENT));
        assertEquals(false, ack.allows(Stage.CANCELLED, Stage.Source.HUB));
        assertEquals(false, Stage.QUEUED.allows(Stage.ACKNOWLEDGED, Stage.Source.RECIPIENT));
        assertEquals(false, Stage.QUEUED.allows(Stage.CANCELLED, Stage.Source.SENDER));
    }

    @Test
    void openStagesAreTheOnesThatHoldSlots() {
        List<String> open = new ArrayList<>();
        for (Stage s : Stage.values()) {
            if (s.open()) {
                open.add(s.wire());
            }
        }
        assertEquals(List.of("queued", "boundary_delivered", "acknowledged"), open);
    }
}
