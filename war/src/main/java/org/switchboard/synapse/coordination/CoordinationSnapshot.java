package org.switchboard.synapse.coordination;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseContextSource;
import org.switchboard.synapse.StateSnapshotContributor;
import org.switchboard.synapse.resource.ResourceOffer;
import org.switchboard.synapse.claims.ReleaseConfirmation;

/**
 * Coordination's part of {@code state_snapshot} ({@code active_claims}, {@code resources}, §13.2)
 * and of {@code /health} and {@code /metrics} (live claims, offers, board tasks).
 */
@ApplicationScoped
public class CoordinationSnapshot implements StateSnapshotContributor {

    @Inject
    CoordinationState state;

    @Inject
    SynapseContextSource hub;

    @Override
    public void contribute(String requester, JsonObjectBuilder snapshot) {
        double now = now();
        snapshot.add("active_claims", state.book().projections(now));
        JsonArrayBuilder resources = PROVIDER.createArrayBuilder();
        for (ResourceOffer offer : state.resources().live(now)) {
            resources.add(PROVIDER.createObjectBuilder().add("agent", offer.agent()).add("kind", offer.kind())
                    .add("name", offer.name()).add("capacity", offer.capacity()).add("meta", offer.meta()));
        }
        snapshot.add("resources", resources);
    }

    @Override
    public JsonObject releaseConfirmation(JsonValue probe, String sender) {
        SynapseContext ctx = hub.context();
        return ReleaseConfirmation.evaluate(probe, sender, state.flow().ledger(),
                ctx.hasJournal() ? ctx.journal()::at : null);
    }

    @Override
    public long counter(String metric) {
        var flow = state.flow();
        return switch (metric) {
            case "synapse_claims_granted_total" -> flow.published("claim_granted");
            case "synapse_claims_denied_total" -> flow.published("claim_denied");
            case "synapse_releases_granted_total" -> flow.published("release_granted");
            case "synapse_atomic_operations_inserted_total" -> flow.keyedInserted();
            case "synapse_atomic_operations_replayed_total" -> flow.keyedReplayed();
            case "synapse_atomic_operations_conflicts_total" -> flow.keyedConflicts();
            default -> 0;
        };
    }

    @Override
    public long activeClaims() {
        return state.book().liveClaims(now()).size();
    }

    @Override
    public long resourceOffers() {
        return state.resources().live(now()).size();
    }

    @Override
    public long boardTasks() {
        return state.board().taskCount();
    }

    private double now() {
        return hub.context().frames().now();
    }
}
