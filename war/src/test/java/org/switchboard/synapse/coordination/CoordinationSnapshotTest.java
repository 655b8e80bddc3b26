package org.switchboard.synapse.coordination;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.snapshot.SnapshotEquivalence;
import org.switchboard.synapse.capability.CapabilityRegistry;
import org.switchboard.synapse.capability.CardVerifier;
import org.switchboard.synapse.idempotency.IdempotencyLedger;
import org.switchboard.synapse.idempotency.InMemoryOperationStore;
import org.switchboard.synapse.idempotency.OperationRecord;
import org.switchboard.synapse.resource.ResourceOffers;

/**
 * The snapshot parts of coordination's other holders (resource offers, capability registrations, the
 * idempotency ledger): for each, replay all equals replay k, snapshot, restore, replay the rest (issue 20).
 * The claim book and the blackboard have their own tests beside them.
 */
class CoordinationSnapshotTest {

    private static final double T0 = 1_767_225_600.0;

    private static List<JournalEvent> events() {
        List<JournalEvent> events = new ArrayList<>();
        for (int i = 1; i <= 80; i++) {
            double at = T0 + i;
            String agent = "p/" + (i % 4);
            switch (i % 4) {
                case 0 -> events.add(new JournalEvent(i, "resource", Json.createObjectBuilder().add("agent", agent)
                        .add("kind", "gpu").add("name", "g" + (i % 3)).add("capacity", i % 5 + 1)
                        .add("meta", Json.createObjectBuilder().add("i", i)).add("offered_at", at).build(), at));
                case 1 -> events.add(new JournalEvent(i, CapabilityRegistry.REGISTRATION_EVENT, Json.createObjectBuilder()
                        .add("agent", agent).add("card", Json.createObjectBuilder().add("skills", "s" + i).add("advertised_at", at))
                        .add("advertised_by", "p/x").add("dispatchable", i % 3 != 0).build(), at));
                case 2 -> events.add(new JournalEvent(i, OperationRecord.EVENT_KIND, new OperationRecord(agent + "\u0000claim\u0000k" + (i % 7),
                        "d" + i, Json.createObjectBuilder().add("type", "claim_granted").add("i", i).build(), i % 3 == 0 ? i - 1 : 0,
                        i).toPayload(), at));
                default -> events.add(new JournalEvent(i, OperationRecord.EVENT_KIND, OperationRecord.payloadAfterEvents(
                        "legacy" + i, "", Json.createObjectBuilder().add("type", "ok").build(), 1), at));
            }
        }
        return events;
    }

    @Test
    void restoredResourceOffersEqualFullReplay() {
        SnapshotEquivalence.check(events(), 1, () -> new ResourceOffers(2, 300), ResourceOffers::apply,
                ResourceOffers::snapshotPart, r -> r.live(T0 + 100).toString() + r.expire(T0 + 200));
    }

    @Test
    void restoredCapabilityRegistrationsEqualFullReplay() {
        SnapshotEquivalence.check(events(), 1, () -> new CapabilityRegistry(CardVerifier.WITHOUT_TRUST_BUNDLE, 60, 3600),
                CapabilityRegistry::apply, CapabilityRegistry::snapshotPart, c -> c.manifest(T0 + 100).toString());
    }

    @Test
    void restoredIdempotencyLedgerEqualsFullReplay() {
        SnapshotEquivalence.check(events(), 1, () -> new IdempotencyLedger(new InMemoryOperationStore(), 5),
                IdempotencyLedger::apply, IdempotencyLedger::snapshotPart, CoordinationSnapshotTest::ledgerView);
    }

    private static String ledgerView(IdempotencyLedger ledger) {
        StringBuilder out = new StringBuilder();
        for (int agent = 0; agent < 4; agent++) {
            for (int k = 0; k < 7; k++) {
                OperationRecord r = ledger.find("p/" + agent + "\u0000claim\u0000k" + k);
                out.append(r == null ? "-" : r.toString()).append('\n');
            }
        }
        JsonObject none = Json.createObjectBuilder().build();
        return out.append(none).toString();
    }
}
