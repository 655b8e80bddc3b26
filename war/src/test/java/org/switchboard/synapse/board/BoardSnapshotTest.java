package org.switchboard.synapse.board;

import jakarta.json.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.snapshot.SnapshotEquivalence;

/** The blackboard's snapshot part (tasks, retained progress notes): replay all equals restore + tail (issue 20). */
class BoardSnapshotTest {

    private static List<JournalEvent> events() {
        List<JournalEvent> events = new ArrayList<>();
        for (int i = 1; i <= 60; i++) {
            double at = 1_767_225_600.0 + i;
            if (i % 3 == 0) {
                events.add(new JournalEvent(i, "ledger_progress", Json.createObjectBuilder().add("task_id", "T" + (i % 4))
                        .add("author", "p/" + (i % 5)).add("kind", "note").add("text", "n" + i).add("posted_at", at).build(), at));
            } else {
                events.add(new JournalEvent(i, "ledger_task", Json.createObjectBuilder().add("task_id", "T" + (i % 7))
                        .add("title", "t" + i).add("description", "d").add("depends_on", Json.createArrayBuilder().add("T1"))
                        .add("status", i % 5 == 0 ? "done" : "open").add("suggested_owner", "p/a").add("project", "p")
                        .add("version", i).add("created_by", "p/b").add("created_at", at - 1).add("updated_at", at)
                        .add("causal_parent", Json.createObjectBuilder().add("seq", i - 1)).build(), at));
            }
        }
        return events;
    }

    @Test
    void restoredBoardEqualsFullReplay() {
        SnapshotEquivalence.check(events(), 1, Blackboard::new, Blackboard::apply, Blackboard::snapshotPart,
                b -> b.snapshot().toString());
    }

    @Test
    void restoredBoardEqualsFullReplayWhenNoteBoundsDrop() {
        SnapshotEquivalence.check(events(), 1, () -> new Blackboard(new Blackboard.Limits(5, 3, 2, 0)), Blackboard::apply,
                Blackboard::snapshotPart, b -> b.snapshot().toString());
    }
}
