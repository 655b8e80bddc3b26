package org.switchboard.ops;

import jakarta.inject.Inject;
import org.switchboard.json.Jsons;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.switchboard.synapse.StateSnapshotContributor;
import org.switchboard.synapse.hub.SynapseHub;
import org.switchboard.synapse.hub.SynapseRuntime;
import org.switchboard.synapse.SynapseSettings;

/** SYNAPSE {@code GET /health} (§17.1): status ok/degraded, protocol version, hub id and counts as JSON. */
@WebServlet("/health")
public class SynapseHealthServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    transient SynapseRuntime runtime;

    @Inject
    transient org.switchboard.synapse.federation.outbound.ForwardDispatcher forwards;

    /** Pending forwards per configured peer (synapse-advanced §4.9): {@code {"<peer>": {pending, oldest_pending_seconds}}}. */
    private jakarta.json.JsonObject messageForward() {
        jakarta.json.JsonObjectBuilder out = Jsons.PROVIDER.createObjectBuilder();
        var service = forwards.service();
        if (service != null) {
            var stats = service.stats();
            for (String peer : service.peers().peers().keySet()) {
                var s = stats.get(peer);
                out.add(peer, Jsons.PROVIDER.createObjectBuilder().add("pending", s == null ? 0 : s.pending())
                        .add("oldest_pending_seconds", s == null ? 0 : Math.round(s.oldestPendingSeconds() * 1000) / 1000.0));
            }
            // entries for a peer since removed from the configuration still count until they settle
            stats.forEach((peer, s) -> {
                if (!service.peers().peers().containsKey(peer)) {
                    out.add(peer, Jsons.PROVIDER.createObjectBuilder().add("pending", s.pending())
                            .add("oldest_pending_seconds", Math.round(s.oldestPendingSeconds() * 1000) / 1000.0));
                }
            });
        }
        return out.build();
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        SynapseHub hub = runtime.hub();
        SynapseSettings settings = hub.context().settings();
        if (!SynapseEndpointAccess.allowed(runtime, request, response)) {
            return;
        }
        long claims = 0;
        for (StateSnapshotContributor contributor : hub.contributors()) {
            claims += contributor.activeClaims();
        }
        int corrupt = hub.corruptRows();
        long outbox = hub.context().hasJournal() ? hub.context().journal().pendingOutboxCount() : 0;
        String body = Jsons.PROVIDER.createObjectBuilder()
                .add("status", corrupt > 0 ? "degraded" : "ok")
                .add("journal_corrupt_rows", corrupt)
                .add("version", settings.version())
                .add("protocol_version", SynapseSettings.PROTOCOL_VERSION)
                .add("hub_id", hub.hubId())
                .add("config_epoch", settings.configEpoch())
                .add("uptime_seconds", Math.round(hub.uptimeSeconds() * 1000) / 1000.0)
                .add("online_agents", hub.context().registry().onlineCount())
                .add("active_claims", claims)
                .add("operation_outbox_pending", outbox)
                .add("message_forward", messageForward())
                .build().toString();
        response.setStatus(200);
        response.setContentType("application/json");
        response.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
    }
}
