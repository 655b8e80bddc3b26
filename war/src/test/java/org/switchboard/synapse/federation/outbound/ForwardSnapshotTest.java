package org.switchboard.synapse.federation.outbound;

import jakarta.json.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.snapshot.SnapshotEquivalence;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.TestHub;

/**
 * The snapshot parts of the forward outbox and of the forwarded-delivery routes: replay all equals
 * replay k, snapshot, restore, replay the rest (issue 20).
 */
class ForwardSnapshotTest {

    private static final double T0 = 1_767_225_600.0;
    private static final MessagePeers PEERS = MessagePeers.parse("hub-b=ws://127.0.0.1:9877/,hub-c=ws://127.0.0.1:9878/", "", 60);
    private static final SynapseContext CTX = new TestHub(new InMemoryJournal()).hub.context();

    private static List<JournalEvent> events() {
        List<JournalEvent.Draft> drafts = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            ForwardEntry e = ForwardEntry.queued("f" + i, i % 2 == 0 ? "hub-b" : "hub-c", "ACME/alice", "ACME/bob@hub-b",
                    Json.createObjectBuilder().add("type", "chat").add("payload", "x".repeat(i * 10)).build(), i,
                    null, i % 3 == 0 ? "c" + i : null, T0 + i, T0 + 600, i % 2 == 1);
            drafts.add(new JournalEvent.Draft("chat", Json.createObjectBuilder().add("msg_id", i).build()));
            drafts.add(ForwardJournal.queued(e));
            drafts.add(new JournalEvent.Draft(ForwardedDeliveries.ROUTE, Json.createObjectBuilder().add("operation_key", "op" + i)
                    .add("peer_hub", "hub-b").add("sender", "ACME/alice").add("target", "ACME/bob@hub-b").build()));
            if (i % 2 == 0) {
                drafts.add(ForwardJournal.failed(e.failed(1, T0 + i + 5)));
            }
            if (i % 3 != 1) {
                ForwardEntry settled = e.settled(i % 4 == 0 ? ForwardEntry.REFUSED : ForwardEntry.ACCEPTED, 2,
                        Json.createObjectBuilder().add("seq", 88).build(), "hub-b", "code" + i, "why", i % 2 == 0);
                drafts.add(ForwardJournal.settled(settled));
                if (i == 4) {
                    drafts.add(ForwardJournal.notified(e.forwardId()));
                }
            }
        }
        List<JournalEvent> events = new ArrayList<>();
        for (JournalEvent.Draft d : drafts) {
            events.add(new JournalEvent(events.size() + 1, d.kind(), d.payload(), T0 + events.size()));
        }
        return events;
    }

    private static ForwardService freshOutbox() {
        return new ForwardService(CTX, PEERS, "", null, (f, d) -> { });
    }

    private static String view(ForwardService service) {
        ForwardOutbox outbox = service.outbox();
        return "pending=" + outbox.pending() + " b=" + outbox.pendingFor("hub-b") + " c=" + outbox.pendingFor("hub-c")
                + " bytes=" + outbox.pendingBytes() + " owed=" + outbox.owedTo("ACME/alice");
    }

    @Test
    void restoredOutboxEqualsFullReplay() {
        SnapshotEquivalence.check(events(), 1, ForwardSnapshotTest::freshOutbox, ForwardService::replay,
                ForwardService::snapshotPart, ForwardSnapshotTest::view);
    }

    @Test
    void restoredRoutesEqualFullReplay() {
        SnapshotEquivalence.check(events(), 1, () -> new ForwardedDeliveries(CTX, PEERS, "", null, () -> true, k -> false),
                ForwardedDeliveries::replay, ForwardedDeliveries::snapshotPart, d -> String.valueOf(d.route("op3")));
    }
}
