package org.switchboard.synapse.delivery;

import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.snapshot.SnapshotEquivalence;
import org.switchboard.synapse.ConnectionRegistry;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseCounters;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.wire.HubFrames;

/**
 * The delivery book's snapshot part: for a journal written by real delivery traffic (requests queued,
 * moved through stages, cancelled, completed, plus one undecodable row that quarantines its request),
 * replay all equals replay k, snapshot, restore, replay the rest (issue 20).
 */
class DeliverySnapshotTest {

    private static List<JournalEvent> traffic() {
        TestHub hub = new TestHub();
        TestHub.Client builder = hub.register("builder", DeliveryServiceTest.recipientFields(DeliveryServiceTest.TOKEN));
        TestHub.Client planner = DeliveryServiceTest.sender(hub);
        for (int i = 1; i <= 6; i++) {
            planner.send(DeliveryServiceTest.request("rq-" + i, DeliveryServiceTest.INC));
            JsonObject offer = builder.peer().lastOfType("delivery_offer");
            if (i % 2 == 0) {
                builder.send(DeliveryServiceTest.report("delivery_boundary", offer, "b-" + i,
                        Json.createObjectBuilder().add("boundary", "turn-end")));
            }
            if (i % 3 == 0) {
                planner.send(Json.createObjectBuilder().add("type", "delivery_cancel").add("protocol_version", 3)
                        .add("operation_key", offer.getString("operation_key")).add("mutation_id", "c-" + i));
            }
            if (i == 4) {
                builder.send(DeliveryServiceTest.report("delivery_outcome", offer, "o-" + i, Json.createObjectBuilder()
                        .add("executor_ref", "turn-" + i).add("outcome_code", "ok")).add("stage", "completed"));
            }
        }
        List<JournalEvent> events = new ArrayList<>(hub.journal.events());
        String key = builder.peer().lastOfType("delivery_offer").getString("operation_key");
        // a row that does not decode: its request is quarantined (out of the open counts), not lost
        events.add(new JournalEvent(events.size() + 1, DeliveryJournal.TRANSITION,
                Json.createObjectBuilder().add("operation_key", key).add("stage", "nonsense").build(), 1_767_225_700.0));
        return events;
    }

    private static DeliveryService fresh() {
        SynapseContext ctx = new SynapseContext(SynapseSettings.defaults(),
                new HubFrames(new InMemoryJournal().hubId(), () -> 1_767_225_600.0), new ConnectionRegistry(true),
                new InMemoryJournal(), new SynapseCounters(), Runnable::run, Runnable::run);
        return new DeliveryService(ctx);
    }

    private static String view(DeliveryService delivery) {
        DeliveryBook book = delivery.book();
        StringBuilder out = new StringBuilder("size=" + book.size() + " open=" + book.openByStage() + " quarantined="
                + delivery.quarantined() + " pending=" + book.notifications().size());
        book.oldestOpen(100).forEach(a -> out.append('\n').append(a));
        book.notifications().all().forEach(e -> out.append('\n').append(e));
        return out.toString();
    }

    @Test
    void restoredBookEqualsFullReplay() {
        List<JournalEvent> events = traffic();
        assertTrue(events.stream().anyMatch(e -> DeliveryJournal.CANCEL_REQUESTED.equals(e.kind())), "cancels journalled");
        SnapshotEquivalence.check(events, 1, DeliverySnapshotTest::fresh, DeliveryService::replay,
                DeliveryService::snapshotPart, DeliverySnapshotTest::view);
    }
}
